#include "views/qt/decisions/fusion_decisions_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>
#include <map>
#include <set>

#include "views/qt/decisions/fusion_decision_filter_model.h"
#include "views/qt/decisions/fusion_decision_model.h"
#include "views/qt/icons.h"
#include "views/qt/row_table.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {

FusionDecisionsPanel::FusionDecisionsPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new FusionDecisionModel(this)),
      filter_(new FusionDecisionFilterModel(this)),
      verdict_(new QComboBox(this)),
      pass_(new QComboBox(this)),
      reason_(new QComboBox(this)),
      text_(new QLineEdit(this)),
      count_(new QLabel(this)),
      table_(new QTableView(this)) {
  filter_->setSourceModel(model_);
  setupFilters();
  setupTable();
  setupLayout();
  context_->AddObserver(this, this);
}

void FusionDecisionsPanel::setupFilters() {
  verdict_->addItem(tr("All verdicts"), static_cast<int>(FusionDecisionFilterModel::Verdict::kAll));
  verdict_->addItem(Icons::Get("refused"), tr("Refused"),
                    static_cast<int>(FusionDecisionFilterModel::Verdict::kRefused));
  verdict_->addItem(Icons::Get("accepted"), tr("Accepted"),
                    static_cast<int>(FusionDecisionFilterModel::Verdict::kAccepted));
  text_->setPlaceholderText(tr("Filter by name or explanation"));
  text_->setClearButtonEnabled(true);
  connect(verdict_, &QComboBox::currentIndexChanged, this, [this] {
    filter_->SetVerdict(
        static_cast<FusionDecisionFilterModel::Verdict>(verdict_->currentData().toInt()));
    UpdateCount();
  });
  connect(pass_, &QComboBox::currentIndexChanged, this, [this] {
    filter_->SetPass(pass_->currentData().isValid() ? pass_->currentData().toLongLong() : -1);
    UpdateCount();
  });
  connect(reason_, &QComboBox::currentIndexChanged, this, [this] {
    filter_->SetReason(reason_->currentData().toString());
    UpdateCount();
  });
  connect(text_, &QLineEdit::textChanged, this, [this](const QString& text) {
    filter_->SetText(text);
    UpdateCount();
  });
}

void FusionDecisionsPanel::setupTable() {
  table_->setModel(filter_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  SetUpRowTable(table_);
  connect(table_, &QTableView::clicked, this, &FusionDecisionsPanel::Activate);
  connect(table_, &QTableView::activated, this, &FusionDecisionsPanel::Activate);
}

void FusionDecisionsPanel::setupLayout() {
  auto* filters = new QHBoxLayout();
  filters->setContentsMargins(4, 4, 4, 4);
  filters->addWidget(verdict_);
  filters->addWidget(pass_);
  filters->addWidget(reason_);
  filters->addWidget(text_, 1);
  filters->addWidget(count_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(filters);
  layout->addWidget(table_);
}

void FusionDecisionsPanel::FillPassChoices() {
  QSignalBlocker blocker(pass_);
  pass_->clear();
  pass_->addItem(tr("All passes"));
  const recording::Recording* recording = context_->recording();
  if (!recording) return;
  std::map<int64_t, std::string> passes;
  for (const auto& decision : recording->decisions) passes[decision.pass_index] = decision.pass;
  for (const auto& [index, name] : passes) {
    pass_->addItem(QStringLiteral("%1 %2").arg(index).arg(QString::fromStdString(name)),
                   static_cast<qlonglong>(index));
  }
}

void FusionDecisionsPanel::FillReasonChoices() {
  QSignalBlocker blocker(reason_);
  reason_->clear();
  reason_->addItem(tr("All reasons"), QString());
  const recording::Recording* recording = context_->recording();
  if (!recording) return;
  std::set<std::string_view> codes;
  for (const auto& decision : recording->decisions) {
    codes.insert(passes::FusionReasonCode(decision.reason));
  }
  for (std::string_view code : codes) {
    const QString text = QString::fromUtf8(code.data(), static_cast<int>(code.size()));
    reason_->addItem(text, text);
  }
}

void FusionDecisionsPanel::UpdateCount() {
  count_->setText(tr("%1 of %2").arg(filter_->rowCount()).arg(model_->rowCount()));
}

void FusionDecisionsPanel::Activate(const QModelIndex& proxy_index) {
  const recording::Recording* recording = context_->recording();
  if (!proxy_index.isValid() || !recording) return;
  const int row = proxy_index.data(FusionDecisionModel::kDecisionIndexRole).toInt();
  const passes::FusionDecisionRecord& decision = recording->decisions[static_cast<size_t>(row)];
  if (decision.pass_index != context_->requested_pass()) context_->SetPass(decision.pass_index);
  context_->SetSelection(WorkbenchContext::DecisionSelection(*recording, row), this);
}

void FusionDecisionsPanel::OnRecordingLoaded(const WorkbenchContext& context) {
  model_->setData(context.shared_recording());
  FillPassChoices();
  FillReasonChoices();
  filter_->SetPass(-1);
  filter_->SetReason(QString());
  UpdateCount();
  SizeColumns();
}

void FusionDecisionsPanel::SizeColumns() {
  // Measured from typical text rather than every row: a recording can hold 100k decisions.
  const QFontMetrics metrics(table_->font());
  const auto width = [&metrics](const char* sample) {
    return metrics.horizontalAdvance(QString::fromLatin1(sample)) + 24;
  };
  table_->setColumnWidth(FusionDecisionModel::kPass, width("12 priority-fusion"));
  table_->setColumnWidth(FusionDecisionModel::kVerdict, width("accepted") + 20);
  table_->setColumnWidth(FusionDecisionModel::kProducer, width("exponential.35 (exponential)"));
  table_->setColumnWidth(FusionDecisionModel::kConsumer, width("exponential.35 (exponential)"));
  table_->setColumnWidth(FusionDecisionModel::kReason, width("expensive_duplication"));
}

void FusionDecisionsPanel::OnSelectionChanged(const WorkbenchContext& context) {
  const int64_t decision = context.selection().decision_index;
  if (decision < 0 || decision >= model_->rowCount()) {
    table_->clearSelection();
    return;
  }
  const QModelIndex proxy = filter_->mapFromSource(model_->index(static_cast<int>(decision), 0));
  if (!proxy.isValid()) return;
  table_->selectRow(proxy.row());
  table_->scrollTo(proxy);
}

}  // namespace fusescope::views
