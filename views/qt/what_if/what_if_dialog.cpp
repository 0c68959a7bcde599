#include "views/qt/what_if/what_if_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <set>

#include "passes/pipeline.h"
#include "passes/pipeline_option_table.h"
#include "views/qt/what_if/what_if_experiment.h"

namespace fusescope::views {
namespace {

QString Q(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The editor's text as --set would take it.
QString EditorText(const QWidget* editor) {
  if (const auto* box = qobject_cast<const QCheckBox*>(editor)) {
    return box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
  }
  if (const auto* spin = qobject_cast<const QSpinBox*>(editor)) return spin->cleanText();
  if (const auto* spin = qobject_cast<const QDoubleSpinBox*>(editor)) return spin->cleanText();
  return {};
}

QWidget* MakeEditor(const passes::PipelineOption& option, QWidget* parent) {
  switch (option.kind) {
    case passes::PipelineOptionKind::kInteger: {
      auto* spin = new QSpinBox(parent);
      spin->setRange(static_cast<int>(option.minimum), static_cast<int>(option.maximum));
      return spin;
    }
    case passes::PipelineOptionKind::kSwitch:
      return new QCheckBox(parent);
    case passes::PipelineOptionKind::kNumber: {
      auto* spin = new QDoubleSpinBox(parent);
      // Plain digits whatever the user's locale: the text is what --set is given.
      spin->setLocale(QLocale::c());
      spin->setDecimals(3);
      spin->setRange(option.minimum, option.maximum);
      if (!option.unit.empty()) spin->setSuffix(QStringLiteral(" ") + Q(option.unit));
      return spin;
    }
  }
  return nullptr;
}

}  // namespace

WhatIfDialog::WhatIfDialog(const passes::PipelineOptions& a, QWidget* parent)
    : QDialog(parent), a_(a) {
  setWindowTitle(tr("What If…"));
  auto* layout = new QVBoxLayout(this);
  auto* intro =
      new QLabel(tr("Compile the model again with other options (B) and compare it with the open "
                    "recording (A). The fields start at A's values."),
                 this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  setupTarget();
  setupPasses();
  setupOptions();
  setupButtons();
  ShowValues(a_);
  Validate();
}

void WhatIfDialog::setupTarget() {
  target_ = new QComboBox(this);
  target_->addItem(tr("CPU pipeline"), QStringLiteral("cpu"));
  target_->addItem(tr("GPU pipeline"), QStringLiteral("gpu"));
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Target:"), this));
  row->addWidget(target_);
  row->addStretch();
  static_cast<QVBoxLayout*>(layout())->addLayout(row);
  connect(target_, &QComboBox::currentIndexChanged, this, [this] {
    FillPasses(target_->currentData().toString());
    Validate();
  });
}

void WhatIfDialog::setupPasses() {
  passes_ = new QListWidget(this);
  passes_->setToolTip(
      tr("Unchecked passes are disabled (--disable-pass): every run of a "
         "pass of that name is skipped"));
  connect(passes_, &QListWidget::itemChanged, this, [this] { Validate(); });
}

void WhatIfDialog::setupOptions() {
  auto* options = new QGroupBox(tr("Options"), this);
  auto* form = new QFormLayout(options);
  for (const passes::PipelineOption& option : passes::PipelineOptionTable()) {
    QWidget* editor = MakeEditor(option, options);
    const QString tip = QStringLiteral("%1\n%2 (default %3)")
                            .arg(Q(option.meaning), Q(passes::AcceptedValues(option)),
                                 Q(passes::PipelineOptionValue(passes::PipelineOptions{}, option)));
    editor->setToolTip(tip);
    auto* label = new QLabel(Q(option.key), options);
    label->setToolTip(tip);
    form->addRow(label, editor);
    editors_[Q(option.key)] = editor;
    if (auto* box = qobject_cast<QCheckBox*>(editor)) {
      connect(box, &QCheckBox::toggled, this, [this] { Validate(); });
    } else if (auto* line = editor->findChild<QLineEdit*>()) {
      // Every keystroke, also those that leave text the spin box holds no value for (its own
      // textChanged waits for a value): what the option refuses is named at once.
      connect(line, &QLineEdit::textChanged, this, [this] { Validate(); });
    }
  }
  auto* passes_box = new QGroupBox(tr("Passes that run"), this);
  auto* passes_layout = new QVBoxLayout(passes_box);
  passes_layout->addWidget(passes_);
  auto* columns = new QHBoxLayout;
  columns->addWidget(passes_box, 1);
  columns->addWidget(options, 2);
  static_cast<QVBoxLayout*>(layout())->addLayout(columns, 1);
}

void WhatIfDialog::setupButtons() {
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* buttons = new QDialogButtonBox(
      QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setText(tr("Compile B and Compare"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  QPushButton* reset = buttons->button(QDialogButtonBox::RestoreDefaults);
  reset->setToolTip(tr("Every option at its default and every pass running"));
  connect(reset, &QPushButton::clicked, this, [this] {
    passes::PipelineOptions defaults;
    defaults.target = target_->currentData().toString().toStdString();
    ShowValues(defaults);
    Validate();
  });
  auto* vertical = static_cast<QVBoxLayout*>(layout());
  vertical->addWidget(message_);
  vertical->addWidget(buttons);
}

void WhatIfDialog::ShowValues(const passes::PipelineOptions& options) {
  const QSignalBlocker block_target(target_);
  target_->setCurrentIndex(std::max(0, target_->findData(QString::fromStdString(options.target))));
  for (const passes::PipelineOption& option : passes::PipelineOptionTable()) {
    QWidget* editor = editors_.at(Q(option.key));
    const QSignalBlocker block(editor);
    const QString value = Q(passes::PipelineOptionValue(options, option));
    if (auto* box = qobject_cast<QCheckBox*>(editor)) box->setChecked(value == "true");
    if (auto* spin = qobject_cast<QSpinBox*>(editor)) spin->setValue(value.toInt());
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(editor)) spin->setValue(value.toDouble());
  }
  passes_->clear();
  FillPasses(target_->currentData().toString());
  const QSignalBlocker block_passes(passes_);
  for (int i = 0; i < passes_->count(); ++i) {
    QListWidgetItem* item = passes_->item(i);
    item->setCheckState(options.disabled_passes.count(item->text().toStdString()) ? Qt::Unchecked
                                                                                  : Qt::Checked);
  }
}

void WhatIfDialog::FillPasses(const QString& target) {
  std::set<QString> unchecked;
  for (int i = 0; i < passes_->count(); ++i) {
    if (passes_->item(i)->checkState() == Qt::Unchecked) unchecked.insert(passes_->item(i)->text());
  }
  const QSignalBlocker block(passes_);
  passes_->clear();
  passes::PipelineOptions options;
  options.target = target.toStdString();
  auto pipeline = passes::MakeBuiltinPipeline(options);
  if (!pipeline.ok()) return;
  std::set<QString> listed;
  for (const auto& pass : (*pipeline)->passes()) {
    const QString name = Q(pass->name());
    if (!listed.insert(name).second) continue;
    auto* item = new QListWidgetItem(name, passes_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(unchecked.count(name) ? Qt::Unchecked : Qt::Checked);
  }
}

QWidget* WhatIfDialog::editor(const QString& key) const {
  auto it = editors_.find(key);
  return it == editors_.end() ? nullptr : it->second;
}

StatusOr<passes::PipelineOptions> WhatIfDialog::options() const {
  passes::PipelineOptions options = a_;
  options.target = target_->currentData().toString().toStdString();
  options.disabled_passes.clear();
  for (int i = 0; i < passes_->count(); ++i) {
    if (passes_->item(i)->checkState() == Qt::Unchecked) {
      options.disabled_passes.insert(passes_->item(i)->text().toStdString());
    }
  }
  for (const passes::PipelineOption& option : passes::PipelineOptionTable()) {
    const QString text = EditorText(editors_.at(Q(option.key)));
    FS_RETURN_IF_ERROR(passes::SetPipelineOption(options, option.key, text.toStdString()));
  }
  return options;
}

void WhatIfDialog::Validate() {
  StatusOr<passes::PipelineOptions> b = options();
  ok_->setEnabled(b.ok());
  if (!b.ok()) {
    message_->setStyleSheet(QStringLiteral("color: #b00020;"));
    message_->setText(QString::fromStdString(b.message()));
    return;
  }
  message_->setStyleSheet({});
  message_->setText(tr("B: %1").arg(WhatIfExperiment::DescribeChanges(a_, *b)));
}

}  // namespace fusescope::views
