#include "views/qt/compare/xla_comparison_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "views/qt/decisions/fusion_pair_model.h"
#include "views/qt/workers/latest_task_runner.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

constexpr std::string_view kXlaPipelinePrefix = "xla";

// The dump's platform ("gpu" for "xla-gpu"); cpu when the dump does not say.
QString DefaultPipeline(const recording::Recording& recording) {
  return recording.pipeline_name == "xla-gpu" ? QStringLiteral("gpu") : QStringLiteral("cpu");
}

// The pass whose graph shows snapshot `base`, and on which side: before the pass that ran
// on it, or after the last pass when it is the final module.
int64_t PassShowing(int64_t base, int64_t pass_count) { return std::min(base, pass_count - 1); }
GraphSide SideShowing(int64_t base, int64_t pass_count) {
  return base < pass_count ? GraphSide::kBefore : GraphSide::kAfter;
}

QString Where(const recording::Recording& recording, int64_t base) {
  const auto count = static_cast<int64_t>(recording.passes.size());
  if (count == 0) return QObject::tr("the input module");
  const int64_t pass = PassShowing(base, count);
  const QString name = QString::fromStdString(recording.passes[static_cast<size_t>(pass)].name);
  return SideShowing(base, count) == GraphSide::kBefore
             ? QObject::tr("the graph before pass #%1 %2 (XLA's first fusing pass)")
                   .arg(pass)
                   .arg(name)
             : QObject::tr("the graph after pass #%1 %2").arg(pass).arg(name);
}

QString NoDumpHint() {
  return QObject::tr(
      "Open an XLA dump folder (File > Open Folder…) to compare XLA's fusion with ours.");
}

}  // namespace

XlaComparisonPanel::XlaComparisonPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new FusionPairModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      pipeline_box_(new QComboBox(this)),
      filter_box_(new QComboBox(this)),
      summary_(new QLabel(this)),
      placeholder_(new QLabel(this)),
      table_(new QTableView(this)),
      stack_(new QStackedWidget(this)),
      runner_(new LatestTaskRunner(this)) {
  connect(runner_, &LatestTaskRunner::busyChanged, this, &XlaComparisonPanel::busyChanged);
  setupHeader();
  setupTable();
  setupLayout();
  ShowPlaceholder(NoDumpHint());
  context_->AddObserver(this, this);
}

XlaComparisonPanel::~XlaComparisonPanel() = default;

bool XlaComparisonPanel::IsXlaDump(const recording::Recording& recording) {
  const std::string& name = recording.pipeline_name;
  return name == kXlaPipelinePrefix ||
         (name.size() > kXlaPipelinePrefix.size() && name.starts_with(kXlaPipelinePrefix) &&
          name[kXlaPipelinePrefix.size()] == '-');
}

XlaComparisonResult XlaComparisonPanel::Compare(const recording::Recording& xla,
                                                const QString& pipeline) {
  XlaComparisonResult result;
  result.pipeline = pipeline;
  result.base_snapshot = recording::SnapshotBeforeFirstFusion(xla);
  if (result.base_snapshot >= static_cast<int64_t>(xla.snapshots.size())) {
    result.error = tr("the recording has no snapshot before XLA's first fusion");
    return result;
  }
  auto input = xla.snapshots[static_cast<size_t>(result.base_snapshot)].ToModule();
  if (!input.ok()) {
    result.error =
        tr("XLA's module before fusion: %1").arg(QString::fromStdString(input.message()));
    return result;
  }
  passes::PipelineOptions options;
  options.target = pipeline.toStdString();
  auto ours = recording::CompileAndRecord(**input, options);
  if (!ours.ok()) {
    result.error = tr("our %1 pipeline: %2").arg(pipeline, QString::fromStdString(ours.message()));
    return result;
  }
  auto comparison = recording::CompareFusion(xla, result.base_snapshot, *ours);
  if (!comparison.ok()) {
    result.error = QString::fromStdString(comparison.message());
    return result;
  }
  result.comparison = std::move(comparison).value();
  return result;
}

void XlaComparisonPanel::setupHeader() {
  for (const QString& target : {QStringLiteral("cpu"), QStringLiteral("gpu")}) {
    pipeline_box_->addItem(tr("Our %1 pipeline").arg(target.toUpper()), target);
  }
  pipeline_box_->setToolTip(tr("The pipeline of ours that compiles XLA's module"));
  connect(pipeline_box_, &QComboBox::currentIndexChanged, this, [this] { Recompute(); });
  filter_box_->addItem(tr("All pairs"), -1);
  using Category = FusionPairModel::Category;
  for (Category category : {Category::kXlaOnly, Category::kOursOnly, Category::kBoth}) {
    filter_box_->addItem(tr("Fused by %1").arg(FusionPairModel::CategoryName(category)),
                         static_cast<int>(category));
  }
  connect(filter_box_, &QComboBox::currentIndexChanged, this, [this] { ApplyFilter(); });
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void XlaComparisonPanel::setupTable() {
  proxy_->setSourceModel(model_);
  proxy_->setFilterRole(FusionPairModel::kCategoryRole);
  proxy_->setFilterKeyColumn(FusionPairModel::kCategory);
  proxy_->setSortCaseSensitivity(Qt::CaseInsensitive);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setWordWrap(false);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  // Our explanations run long: the reason takes the room left and its tooltip the rest.
  table_->horizontalHeader()->setSectionResizeMode(FusionPairModel::kOurReason,
                                                   QHeaderView::Stretch);
  table_->setTextElideMode(Qt::ElideRight);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { Activate(current); });
  // A click on the current row goes back to its pair after the user moved elsewhere.
  connect(table_, &QTableView::clicked, this, &XlaComparisonPanel::Activate);
}

void XlaComparisonPanel::setupLayout() {
  auto* header = new QHBoxLayout;
  header->addWidget(pipeline_box_);
  header->addWidget(filter_box_);
  header->addWidget(summary_, 1);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  stack_->addWidget(placeholder_);
  stack_->addWidget(table_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(header);
  layout->addWidget(stack_, 1);
}

void XlaComparisonPanel::ShowPlaceholder(const QString& text) {
  placeholder_->setText(text);
  stack_->setCurrentWidget(placeholder_);
}

bool XlaComparisonPanel::busy() const { return runner_->busy(); }

void XlaComparisonPanel::OnRecordingLoaded(const WorkbenchContext& context) {
  const recording::Recording* recording = context.recording();
  runner_->Cancel();
  result_.reset();
  model_->clear();
  summary_->clear();
  available_ = recording && IsXlaDump(*recording);
  pipeline_box_->setEnabled(available_);
  filter_box_->setEnabled(available_);
  if (!available_) {
    ShowPlaceholder(NoDumpHint());
    emit availabilityChanged(false);
    return;
  }
  {
    const QSignalBlocker blocker(pipeline_box_);
    const int preferred = pipeline_box_->findData(preferred_pipeline_);
    pipeline_box_->setCurrentIndex(
        preferred >= 0 ? preferred : pipeline_box_->findData(DefaultPipeline(*recording)));
  }
  emit availabilityChanged(true);
  Recompute();
}

void XlaComparisonPanel::Recompute() {
  std::shared_ptr<const recording::Recording> recording = context_->shared_recording();
  if (!recording || !available_) return;
  const QString pipeline = pipeline_box_->currentData().toString();
  ShowPlaceholder(tr("Compiling XLA's module with our %1 pipeline…").arg(pipeline));
  summary_->clear();
  runner_->Submit([this, recording, pipeline]() -> LatestTaskRunner::Deliver {
    auto result = std::make_shared<const XlaComparisonResult>(Compare(*recording, pipeline));
    return [this, result] { Deliver(result); };
  });
}

void XlaComparisonPanel::Deliver(std::shared_ptr<const XlaComparisonResult> result) {
  result_ = std::move(result);
  if (!result_->error.isEmpty()) {
    model_->clear();
    ShowPlaceholder(tr("No comparison: %1").arg(result_->error));
    emit updated();
    return;
  }
  const recording::FusionComparison& comparison = result_->comparison;
  model_->setData(comparison, Where(*context_->recording(), result_->base_snapshot));
  summary_->setText(tr("%1 pairs: %2 fused by both, %3 by XLA only, %4 by us only, %5 by neither")
                        .arg(comparison.edges)
                        .arg(comparison.both.size())
                        .arg(comparison.only_first.size())
                        .arg(comparison.only_second.size())
                        .arg(comparison.neither));
  stack_->setCurrentWidget(table_);
  for (int column = 0; column < FusionPairModel::kOurReason; ++column) {
    table_->resizeColumnToContents(column);
  }
  emit updated();
}

void XlaComparisonPanel::ApplyFilter() {
  const int category = filter_box_->currentData().toInt();
  proxy_->setFilterRegularExpression(
      category < 0 ? QRegularExpression()
                   : QRegularExpression(QStringLiteral("^%1$").arg(category)));
}

// Both ends exist as separate instructions only before XLA fused them: the pair is shown on
// the graph before XLA's first fusing pass, which is the base snapshot.
void XlaComparisonPanel::Activate(const QModelIndex& proxy_index) {
  if (!proxy_index.isValid() || !result_ || context_->pass_count() == 0) return;
  const int64_t producer = proxy_->data(proxy_index, FusionPairModel::kProducerIdRole).toLongLong();
  const int64_t pass = PassShowing(result_->base_snapshot, context_->pass_count());
  const GraphSide side = SideShowing(result_->base_snapshot, context_->pass_count());
  if (pass != context_->requested_pass()) context_->SetPass(pass);
  context_->SetSelection(Selection{producer, side, -1}, this);
}

}  // namespace fusescope::views
