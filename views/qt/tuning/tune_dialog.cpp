#include "views/qt/tuning/tune_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace fusescope::views {

TuneDialog::TuneDialog(const TuneRequest& base, const QStringList& kernels, QWidget* parent)
    : QDialog(parent),
      base_(base),
      kernel_(new QComboBox(this)),
      space_(new QLineEdit(this)),
      strategy_(new QComboBox(this)),
      trials_(new QSpinBox(this)),
      reps_(new QSpinBox(this)),
      error_(new QLabel(this)) {
  setWindowTitle(tr("Tune Kernels"));
  kernel_->setEditable(true);
  kernel_->addItem(QString());
  kernel_->addItems(kernels);
  kernel_->setCurrentText(base.kernel);
  kernel_->lineEdit()->setPlaceholderText(tr("the hottest kernels (90 % of the time)"));
  kernel_->setToolTip(tr("One kernel (its instruction name), or empty for the hottest kernels"));
  space_->setText(base.space);
  space_->setPlaceholderText(tr("tile=0,8,16,32,64 vector=0,4,8,16 unroll=1,2,4 gemm=openblas"));
  space_->setToolTip(
      tr("Knobs and their values: tile, vector, unroll, gemm; empty for the default space"));
  strategy_->addItems(TuneRequest::Strategies());
  strategy_->setCurrentText(base.strategy);
  trials_->setRange(0, 100000);
  trials_->setSpecialValueText(tr("all candidates"));
  trials_->setValue(base.trials);
  trials_->setToolTip(tr("Trials per kernel; a grid search runs every candidate"));
  reps_->setRange(0, 100000);
  reps_->setSpecialValueText(tr("default (20)"));
  reps_->setValue(base.reps);
  reps_->setToolTip(tr("Timed runs of each trial, each paired with a run of the default build"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b02020"));
  error_->hide();
  auto* form = new QFormLayout();
  form->addRow(tr("Kernel:"), kernel_);
  form->addRow(tr("Space:"), space_);
  form->addRow(QString(), error_);
  form->addRow(tr("Strategy:"), strategy_);
  form->addRow(tr("Trials per kernel:"), trials_);
  form->addRow(tr("Timed runs per trial:"), reps_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Tune"));
  connect(buttons, &QDialogButtonBox::accepted, this, &TuneDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(
      tr("Each trial compiles one kernel with one configuration, checks its outputs against "
         "the interpreter and times it beside the default build; the trials are stored in %1.")
          .arg(base.title),
      this));
  layout->itemAt(0)->widget()->setProperty("wordWrap", true);
  layout->addLayout(form);
  layout->addWidget(buttons);
  resize(560, sizeHint().height());
}

TuneRequest TuneDialog::request() const {
  TuneRequest request = base_;
  request.kernel = kernel_->currentText().trimmed();
  request.space = space_->text().trimmed();
  request.strategy = strategy_->currentText();
  request.trials = trials_->value();
  request.reps = reps_->value();
  return request;
}

void TuneDialog::accept() {
  const QString problem = request().Check();
  error_->setText(problem);
  error_->setVisible(!problem.isEmpty());
  if (problem.isEmpty()) QDialog::accept();
}

}  // namespace fusescope::views
