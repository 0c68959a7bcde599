#include "views/qt/tuning/tuning_panel.h"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

#include "tuning/tuning_store.h"
#include "views/kernel_timeline.h"
#include "views/qt/icons.h"
#include "views/qt/row_table.h"
#include "views/qt/tuning/trial_kernel_compiler.h"
#include "views/qt/tuning/tune_controller.h"
#include "views/qt/tuning/tune_dialog.h"
#include "views/qt/tuning/tune_request.h"
#include "views/qt/tuning/tuning_heatmap.h"
#include "views/qt/tuning/tuning_kernel_model.h"
#include "views/qt/tuning/tuning_trial_chart.h"
#include "views/qt/workbench_context.h"
#include "views/qt/workers/latest_task_runner.h"

namespace fusescope::views {
namespace {

QString Text(const std::string& text) { return QString::fromStdString(text); }

const QStringList& Knobs() {
  static const QStringList knobs = {QStringLiteral("tile"), QStringLiteral("vector"),
                                    QStringLiteral("unroll"), QStringLiteral("gemm"),
                                    QStringLiteral("threads")};
  return knobs;
}

QString ConfigOf(const tuning::Trial& trial) {
  return trial.is_default ? QObject::tr("default (%1)").arg(Text(trial.config))
                          : Text(trial.config);
}

// Threads a trial's compile may take: all but the one the window paints with.
int CompileThreads() { return std::max(1, QThread::idealThreadCount() - 1); }

}  // namespace

TuningPanel::TuningPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new TuningKernelModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)),
      chart_(new TuningTrialChart(this)),
      heatmap_(new TuningHeatmap(this)),
      run_box_(new QComboBox(this)),
      x_knob_(new QComboBox(this)),
      y_knob_(new QComboBox(this)),
      placeholder_(new QLabel(this)),
      run_summary_(new QLabel(this)),
      kernel_summary_(new QLabel(this)),
      trial_label_(new QLabel(this)),
      progress_label_(new QLabel(this)),
      progress_bar_(new QProgressBar(this)),
      tune_button_(new QToolButton(this)),
      cancel_button_(new QToolButton(this)),
      stack_(new QStackedWidget(this)),
      tune_action_(new QAction(Icons::Get("run"), tr("&Tune Kernels…"), this)),
      cancel_action_(new QAction(Icons::Get("stop"), tr("Stop Tuning"), this)),
      reload_action_(new QAction(tr("Reload"), this)),
      runs_runner_(new LatestTaskRunner(this)),
      trial_runner_(new LatestTaskRunner(this)),
      controller_(new TuneController(this)),
      runs_(std::make_shared<const std::vector<tuning::TuningRun>>()),
      compiler_(std::make_shared<TrialKernelCompiler>(CompileThreads())) {
  setupHeader();
  setupTable();
  setupPlots();
  setupLayout();
  setupController();
  for (LatestTaskRunner* runner : {runs_runner_, trial_runner_}) {
    connect(runner, &LatestTaskRunner::busyChanged, this, [this] { emit busyChanged(busy()); });
  }
  context_->AddObserver(this, this);
}

TuningPanel::~TuningPanel() = default;

const std::vector<tuning::TuningRun>& TuningPanel::runs() const { return *runs_; }

const tuning::TuningRun* TuningPanel::current_run() const {
  if (shown_run_ < 0 || shown_run_ >= static_cast<int>(runs_->size())) return nullptr;
  return &(*runs_)[static_cast<size_t>(shown_run_)];
}

QString TuningPanel::current_kernel() const { return plot_ ? Text(plot_->kernel) : QString(); }

bool TuningPanel::busy() const { return runs_runner_->busy() || trial_runner_->busy(); }

bool TuningPanel::tuning() const { return controller_->busy(); }

void TuningPanel::setupHeader() {
  run_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  run_box_->setToolTip(tr("The tuning runs stored in this recording"));
  connect(run_box_, &QComboBox::activated, this, [this](int index) { SelectRun(index); });
  tune_action_->setToolTip(
      tr("Search how the kernels are built (tile, vector, unroll, GEMM library): each trial "
         "compiled, checked against the interpreter and timed; the trials are stored in the "
         "recording"));
  tune_action_->setEnabled(false);
  connect(tune_action_, &QAction::triggered, this, &TuningPanel::ShowTuneDialog);
  cancel_action_->setToolTip(
      tr("Stop the search after the trial under way; the trials so far are stored"));
  cancel_action_->setEnabled(false);
  connect(cancel_action_, &QAction::triggered, this, &TuningPanel::CancelTune);
  reload_action_->setToolTip(tr("Read the recording's tuning runs again from its file"));
  reload_action_->setEnabled(false);
  connect(reload_action_, &QAction::triggered, this, &TuningPanel::Reload);
  tune_button_->setDefaultAction(tune_action_);
  tune_button_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  cancel_button_->setDefaultAction(cancel_action_);
  cancel_button_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  progress_bar_->setMaximumWidth(220);
  progress_bar_->setTextVisible(true);
  progress_bar_->hide();
  progress_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  progress_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  for (QLabel* label : {run_summary_, kernel_summary_, trial_label_}) {
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setContentsMargins(4, 2, 4, 2);
  }
  placeholder_->setWordWrap(true);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  placeholder_->setContentsMargins(12, 12, 12, 12);
}

void TuningPanel::setupTable() {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(TuningKernelModel::kSortRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(TuningKernelModel::kDefault, Qt::DescendingOrder);
  SetUpRowTable(table_);
  const QFontMetrics metrics(table_->font());
  const auto width = [&metrics](const char* sample) {
    return metrics.horizontalAdvance(QString::fromUtf8(sample)) + 20;
  };
  // Room for the header's sort arrow too.
  table_->setColumnWidth(TuningKernelModel::kKernel, width("multiply_multiply_fusion"));
  table_->setColumnWidth(TuningKernelModel::kTrials, width("Trials") + 12);
  table_->setColumnWidth(TuningKernelModel::kFailed, width("Failed") + 12);
  table_->setColumnWidth(TuningKernelModel::kDefault, width("Default µs") + 16);
  table_->setColumnWidth(TuningKernelModel::kBest, width("Best µs") + 16);
  table_->setColumnWidth(TuningKernelModel::kSpeedup, width("Speedup") + 12);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) {
              ShowKernel(current.data(TuningKernelModel::kKernelRole).toString());
            }
          });
  // Enter or a double click: the kernel's best trial.
  connect(table_, &QTableView::activated, this, [this] {
    if (!plot_ || !plot_->best_trial) return;
    for (const TuningPoint& point : plot_->points) {
      if (point.trial == plot_->best_trial) PickTrial(static_cast<int>(point.order));
    }
  });
}

void TuningPanel::setupPlots() {
  for (QComboBox* box : {x_knob_, y_knob_}) box->addItems(Knobs());
  x_knob_->setToolTip(tr("The knob across the heatmap"));
  y_knob_->setToolTip(tr("The knob down the heatmap"));
  // Choosing the knob the other axis shows swaps the two.
  const auto chosen = [this](QComboBox* box, QComboBox* other) {
    if (!plot_) return;
    const QString previous = box == x_knob_ ? Text(plot_->x_knob) : Text(plot_->y_knob);
    if (box->currentText() == other->currentText()) {
      const QSignalBlocker blocker(other);
      other->setCurrentText(previous);
    }
    RebuildPlot(x_knob_->currentText(), y_knob_->currentText());
  };
  connect(x_knob_, &QComboBox::activated, this, [=, this] { chosen(x_knob_, y_knob_); });
  connect(y_knob_, &QComboBox::activated, this, [=, this] { chosen(y_knob_, x_knob_); });
  connect(chart_, &TuningTrialChart::trialClicked, this, &TuningPanel::PickTrial);
  connect(heatmap_, &TuningHeatmap::trialClicked, this, &TuningPanel::PickTrial);
}

void TuningPanel::setupLayout() {
  auto* header = new QHBoxLayout();
  header->setContentsMargins(4, 2, 4, 2);
  header->addWidget(new QLabel(tr("Run:"), this));
  header->addWidget(run_box_);
  auto* reload = new QToolButton(this);
  reload->setDefaultAction(reload_action_);
  header->addWidget(reload);
  header->addStretch(1);
  header->addWidget(progress_label_, 2);
  header->addWidget(progress_bar_);
  header->addWidget(cancel_button_);
  header->addWidget(tune_button_);

  auto* knobs = new QHBoxLayout();
  knobs->setContentsMargins(4, 0, 4, 0);
  knobs->addWidget(new QLabel(tr("Heatmap across"), this));
  knobs->addWidget(x_knob_);
  knobs->addWidget(new QLabel(tr("down"), this));
  knobs->addWidget(y_knob_);
  knobs->addStretch(1);
  auto* heat_pane = new QWidget(this);
  auto* heat_layout = new QVBoxLayout(heat_pane);
  heat_layout->setContentsMargins(0, 0, 0, 0);
  heat_layout->addLayout(knobs);
  heat_layout->addWidget(heatmap_, 1);
  auto* plots = new QSplitter(Qt::Horizontal, this);
  plots->addWidget(chart_);
  plots->addWidget(heat_pane);
  plots->setStretchFactor(0, 3);
  plots->setStretchFactor(1, 2);
  plots->setChildrenCollapsible(false);
  auto* kernel_pane = new QWidget(this);
  auto* kernel_layout = new QVBoxLayout(kernel_pane);
  kernel_layout->setContentsMargins(0, 0, 0, 0);
  kernel_layout->setSpacing(0);
  kernel_layout->addWidget(kernel_summary_);
  kernel_layout->addWidget(plots, 1);
  kernel_layout->addWidget(trial_label_);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(table_);
  split->addWidget(kernel_pane);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  split->setChildrenCollapsible(false);
  split->setSizes({760, 840});
  plots->setSizes({480, 360});

  auto* content = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->setSpacing(0);
  content_layout->addWidget(run_summary_);
  content_layout->addWidget(split, 1);
  stack_->addWidget(placeholder_);
  stack_->addWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(header);
  layout->addWidget(stack_, 1);
  ShowPlaceholder(tr("No recording is open."));
}

void TuningPanel::setupController() {
  connect(controller_, &TuneController::started, this,
          [this](const TuneRequest& request, const QString& command_line) {
            progress_bar_->setRange(0, 0);
            progress_bar_->show();
            progress_label_->setStyleSheet(QString());
            progress_label_->setText(tr("starting…"));
            progress_label_->setToolTip(command_line);
            UpdateActions();
            emit tuneStarted(request.What());
          });
  connect(controller_, &TuneController::progress, this, &TuningPanel::OnTuneProgress);
  connect(controller_, &TuneController::finished, this, &TuningPanel::OnTuneFinished);
  connect(controller_, &TuneController::failed, this, [this](const QString& message) {
    progress_bar_->hide();
    progress_label_->setStyleSheet(QStringLiteral("color: #b02020"));
    progress_label_->setText(message);
    progress_label_->setToolTip(message);
    UpdateActions();
    emit tuneFailed(message);
  });
}

void TuningPanel::ShowPlaceholder(const QString& text) {
  placeholder_->setText(text);
  stack_->setCurrentIndex(0);
}

void TuningPanel::UpdateActions() {
  const bool has_file = context_->recording() && !context_->file_path().isEmpty();
  tune_action_->setEnabled(has_file && !controller_->busy());
  tune_action_->setToolTip(
      has_file ? tr("Search how the kernels are built (tile, vector, unroll, GEMM library); the "
                    "trials are stored in the recording")
               : tr("Tuning keeps its trials in the recording's file: open a .fsdb recording, or "
                    "save this one first"));
  cancel_action_->setEnabled(controller_->busy());
  cancel_button_->setVisible(controller_->busy());
  reload_action_->setEnabled(has_file);
}

void TuningPanel::OnRecordingLoaded(const WorkbenchContext& context) {
  runs_runner_->Cancel();
  trial_runner_->Cancel();
  runs_ = std::make_shared<const std::vector<tuning::TuningRun>>();
  compiler_ = std::make_shared<TrialKernelCompiler>(CompileThreads());
  shown_run_ = -1;
  plot_.reset();
  picked_ = 0;
  run_box_->clear();
  model_->setData({});
  chart_->SetPlot(nullptr);
  heatmap_->SetPlot(nullptr);
  UpdateActions();
  if (!context.recording()) {
    ShowPlaceholder(tr("No recording is open."));
    return;
  }
  if (context.file_path().isEmpty()) {
    ShowPlaceholder(
        tr("No tuning runs: this recording lives in no file yet, and tuning keeps "
           "its trials in the recording's file. Save it (File ▸ Save Recording "
           "As…), then Tune Kernels…"));
    emit runsLoaded(0);
    return;
  }
  LoadRuns(context.file_path(), -1);
}

void TuningPanel::Reload() {
  if (context_->recording() && !context_->file_path().isEmpty()) {
    const tuning::TuningRun* run = current_run();
    LoadRuns(context_->file_path(), run ? run->run_id : -1);
  }
}

void TuningPanel::LoadRuns(const QString& path, int64_t select_run_id) {
  if (runs_->empty()) ShowPlaceholder(tr("Reading tuning runs…"));
  runs_runner_->Submit([this, path, select_run_id]() -> LatestTaskRunner::Deliver {
    auto loaded = tuning::LoadTuningRuns(path.toStdString());
    return [this, path, select_run_id, loaded = std::move(loaded)]() mutable {
      if (!loaded.ok()) {
        ShowPlaceholder(tr("Could not read the tuning runs of %1: %2")
                            .arg(QFileInfo(path).fileName(), Text(loaded.message())));
        emit runsLoaded(0);
        emit updated();
        return;
      }
      const QString kernel = current_kernel();
      runs_ = std::make_shared<const std::vector<tuning::TuningRun>>(std::move(*loaded));
      shown_run_ = -1;
      plot_.reset();
      const QSignalBlocker blocker(run_box_);
      run_box_->clear();
      int select = static_cast<int>(runs_->size()) - 1;
      for (size_t i = 0; i < runs_->size(); ++i) {
        const tuning::TuningRun& run = (*runs_)[i];
        run_box_->addItem(tr("Run %1 · %2 · %3 trials · %4")
                              .arg(run.run_id)
                              .arg(Text(run.strategy))
                              .arg(run.trials.size())
                              .arg(Text(run.created_at)));
        if (run.run_id == select_run_id) select = static_cast<int>(i);
      }
      if (runs_->empty()) {
        ShowPlaceholder(tr("No tuning runs in %1 yet: Tune Kernels… searches how its kernels "
                           "are built (or `fusescope tune %2`).")
                            .arg(QFileInfo(path).fileName(), path));
        emit runsLoaded(0);
        emit updated();
        return;
      }
      SelectRun(select);
      // The kernel shown before stays shown, where the run has it.
      if (const int row = model_->RowOf(kernel.toStdString()); row >= 0) {
        following_ = true;
        table_->setCurrentIndex(proxy_->mapFromSource(model_->index(row, 0)));
        following_ = false;
      }
      emit runsLoaded(static_cast<int>(runs_->size()));
    };
  });
}

// What putting the kernels' bests together kept, for the run's line.
QString TuningPanel::CompositionSummary(const tuning::TuningRun& run) {
  if (!run.composed) return tr(" · <i>not composed</i>: each kernel's best applies by itself");
  int64_t kept = 0;
  for (const tuning::CompositionStep& step : run.composition) kept += step.kept;
  if (run.composition.empty()) return tr(" · no configuration won: the defaults stay");
  return tr(" · composed: %1 of %2 bests kept, the module %3× the default's speed")
      .arg(kept)
      .arg(run.composition.size())
      .arg(run.module_speedup, 0, 'f', 2);
}

void TuningPanel::SelectRun(int index) {
  if (index < 0 || index >= static_cast<int>(runs_->size())) return;
  shown_run_ = index;
  {
    const QSignalBlocker blocker(run_box_);
    run_box_->setCurrentIndex(index);
  }
  const tuning::TuningRun& run = (*runs_)[static_cast<size_t>(index)];
  run_summary_->setText(tr("Snapshot %1 · %2 search over <tt>%3</tt> · %4 · %5 executor on %6")
                            .arg(run.snapshot_index)
                            .arg(Text(run.strategy), Text(run.space).toHtmlEscaped(),
                                 Text(run.settings).toHtmlEscaped(), Text(run.executor),
                                 Text(run.machine).toHtmlEscaped()) +
                        CompositionSummary(run));
  stack_->setCurrentIndex(1);
  plot_.reset();
  // Showing a run selects nothing elsewhere: only a row the user picks moves the graphs.
  following_ = true;
  model_->setData(TuningKernelRow::Of(run));
  table_->resizeColumnToContents(TuningKernelModel::kKernel);
  table_->setColumnWidth(TuningKernelModel::kKernel,
                         std::min(table_->columnWidth(TuningKernelModel::kKernel), 320));
  if (proxy_->rowCount() > 0) table_->setCurrentIndex(proxy_->index(0, 0));
  following_ = false;
  if (!plot_) {
    chart_->SetPlot(nullptr);
    heatmap_->SetPlot(nullptr);
    emit updated();
  }
}

bool TuningPanel::SelectKernel(const QString& kernel) {
  if (runs_->empty()) return false;
  if (!current_run() || model_->RowOf(kernel.toStdString()) < 0) {
    int run = -1;
    for (int i = static_cast<int>(runs_->size()) - 1; i >= 0 && run < 0; --i) {
      for (const tuning::Trial& trial : (*runs_)[static_cast<size_t>(i)].trials) {
        if (Text(trial.kernel) == kernel) run = i;
      }
    }
    if (run < 0) return false;
    SelectRun(run);
  }
  const int row = model_->RowOf(kernel.toStdString());
  if (row < 0) return false;
  const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
  if (table_->currentIndex().row() == index.row()) {
    SelectNode(kernel.toStdString());
  } else {
    table_->setCurrentIndex(index);
  }
  table_->scrollTo(index);
  return true;
}

void TuningPanel::ShowKernel(const QString& kernel) {
  const tuning::TuningRun* run = current_run();
  if (!run) return;
  plot_ =
      std::make_shared<const TuningKernelPlot>(BuildTuningKernelPlot(*run, kernel.toStdString()));
  picked_ = 0;
  {
    const QSignalBlocker x_blocker(x_knob_), y_blocker(y_knob_);
    x_knob_->setCurrentText(Text(plot_->x_knob));
    y_knob_->setCurrentText(Text(plot_->y_knob));
  }
  chart_->SetPlot(plot_);
  heatmap_->SetPlot(plot_);
  // The figures of the kernel's row: the best trial against the default runs timed beside it.
  const int row = model_->RowOf(plot_->kernel);
  const TuningKernelRow* figures = row >= 0 ? &model_->rows()[static_cast<size_t>(row)] : nullptr;
  QString summary = tr("<b>%1</b>").arg(kernel.toHtmlEscaped());
  if (figures) {
    summary += tr(" · %1 trials, %2 failed").arg(figures->trials).arg(figures->failed);
    if (!figures->best) {
      summary += tr(" · no trial ran correctly");
    } else if (figures->best->is_default) {
      summary += tr(" · no trial beat the default (%1 µs) by %2 % in enough paired runs")
                     .arg(figures->best_us, 0, 'f', 1)
                     .arg(tuning::kMinGain * 100, 0, 'f', 0);
    } else {
      summary += tr(" · best <tt>%1</tt>: %2 µs against the default's %3 µs timed beside it, "
                    "%4× faster")
                     .arg(Text(figures->best_config).toHtmlEscaped())
                     .arg(figures->best_us, 0, 'f', 1)
                     .arg(figures->default_us, 0, 'f', 1)
                     .arg(figures->speedup, 0, 'f', 2);
    }
  }
  for (const tuning::CompositionStep& step : run->composition) {
    if (step.kernel != plot_->kernel) continue;
    if (!step.ok) {
      summary +=
          tr(" · with the others' bests it failed: %1").arg(Text(step.error).toHtmlEscaped());
    } else {
      summary += tr(" · with the others' bests: module %1 → %2 µs, faster in %3 of %4 runs, "
                    "<b>%5</b>")
                     .arg(step.module_before_us, 0, 'f', 1)
                     .arg(step.module_us, 0, 'f', 1)
                     .arg(step.pairs_faster)
                     .arg(step.pairs)
                     .arg(step.kept ? tr("kept") : tr("dropped"));
    }
  }
  kernel_summary_->setText(summary);
  trial_label_->setText(
      tr("<i>Click a trial (a point or a cell) to see its lowering in the Kernel view.</i>"));
  SelectNode(kernel.toStdString());
  emit updated();
}

void TuningPanel::SetKnobs(const QString& x, const QString& y) {
  {
    const QSignalBlocker x_blocker(x_knob_), y_blocker(y_knob_);
    x_knob_->setCurrentText(x);
    y_knob_->setCurrentText(y);
  }
  RebuildPlot(x, y);
}

void TuningPanel::RebuildPlot(const QString& x_knob, const QString& y_knob) {
  const tuning::TuningRun* run = current_run();
  if (!run || !plot_) return;
  plot_ = std::make_shared<const TuningKernelPlot>(
      BuildTuningKernelPlot(*run, plot_->kernel, x_knob.toStdString(), y_knob.toStdString()));
  heatmap_->SetPlot(plot_);
  heatmap_->SetPicked(picked_);
  emit updated();
}

int64_t TuningPanel::InstructionOf(const std::string& kernel) const {
  const tuning::TuningRun* run = current_run();
  const recording::Recording* recording = context_->recording();
  if (!run || !recording || run->snapshot_index < 0 ||
      run->snapshot_index >= static_cast<int64_t>(recording->snapshots.size()))
    return -1;
  const recording::InstructionRecord* record =
      recording->snapshots[static_cast<size_t>(run->snapshot_index)].FindInstruction(kernel);
  return record ? record->id : -1;
}

// The kernel's node in the tuned snapshot, selected everywhere; the graphs move to the pass that
// made that snapshot, as the Kernel view's kernels do.
void TuningPanel::SelectNode(const std::string& kernel) {
  if (following_) return;
  const int64_t id = InstructionOf(kernel);
  const tuning::TuningRun* run = current_run();
  if (id < 0 || !run) return;
  const PassView* view = context_->pass_view();
  if (run->snapshot_index > 0 && (!view || view->pass_index() + 1 != run->snapshot_index)) {
    context_->SetPass(run->snapshot_index - 1);
  }
  if (context_->selection().instruction_id != id) {
    context_->SetSelection(Selection{id, GraphSide::kAfter, -1}, this);
  }
}

void TuningPanel::OnSelectionChanged(const WorkbenchContext& context) {
  FollowSelection(context.selection().instruction_id);
}

void TuningPanel::FollowSelection(int64_t instruction_id) {
  if (instruction_id < 0 || !current_run()) return;
  for (const TuningKernelRow& row : model_->rows()) {
    if (InstructionOf(row.kernel) != instruction_id) continue;
    if (Text(row.kernel) == current_kernel()) return;
    const QModelIndex index = proxy_->mapFromSource(model_->index(model_->RowOf(row.kernel), 0));
    following_ = true;
    table_->setCurrentIndex(index);
    table_->scrollTo(index);
    following_ = false;
    return;
  }
}

bool TuningPanel::PickTrial(int order) {
  const tuning::TuningRun* run = current_run();
  if (!plot_ || !run) return false;
  const TuningPoint* picked = nullptr;
  for (const TuningPoint& point : plot_->points) {
    if (point.order == order) picked = &point;
  }
  if (!picked) return false;
  picked_ = order;
  chart_->SetPicked(order);
  heatmap_->SetPicked(order);
  SelectNode(plot_->kernel);
  UpdateTrialLabel(tr("compiling its kernel…"));
  const recording::Recording* recording = context_->recording();
  if (!recording) return false;
  const tuning::Trial* trial = picked->trial;
  const QString origin =
      tr("tuning run %1, trial %2 of %3: %4%5 (compiled here from the recording's snapshot with "
         "this configuration; not stored)")
          .arg(run->run_id)
          .arg(order)
          .arg(plot_->points.size())
          .arg(ConfigOf(*trial))
          .arg(trial->ok ? tr(", %1 µs, %2 of the default")
                               .arg(trial->median_us, 0, 'f', 1)
                               .arg(picked->relative, 0, 'f', 3)
                         : tr(", failed in the search: %1").arg(Text(trial->error)));
  trial_runner_->Submit([this, recording = context_->shared_recording(), runs = runs_,
                         compiler = compiler_, run, trial, order,
                         origin]() -> LatestTaskRunner::Deliver {
    auto compiled = compiler->Compile(*recording, *run, *trial);
    std::shared_ptr<const KernelTimeline> timeline;
    QString error;
    if (compiled.ok()) {
      timeline = KernelTimeline::Build(std::move(compiled).value());
    } else {
      error = Text(compiled.message());
    }
    return [this, timeline = std::move(timeline), error, order, origin] {
      if (order != picked_) return;
      if (!timeline) {
        UpdateTrialLabel(tr("<span style=\"color:#b02020\">could not compile its kernel: "
                            "%1</span>")
                             .arg(error.toHtmlEscaped()));
        emit trialKernelFailed(error);
        return;
      }
      const recording::KernelRecord& kernel = timeline->kernel();
      UpdateTrialLabel(
          kernel.failed_stage.empty()
              ? tr("its %1 lowering stages are in the Kernel view").arg(kernel.stages.size())
              : tr("its lowering failed at %1 (the Kernel view shows where)")
                    .arg(Text(kernel.failed_stage)));
      emit trialKernelReady(timeline, origin);
    };
  });
  return true;
}

void TuningPanel::UpdateTrialLabel(const QString& state) {
  const TuningPoint* point = nullptr;
  if (plot_) {
    for (const TuningPoint& candidate : plot_->points) {
      if (candidate.order == picked_) point = &candidate;
    }
  }
  if (!point) return;
  const tuning::Trial& trial = *point->trial;
  QString text =
      tr("<b>Trial %1</b> · <tt>%2</tt>").arg(point->order).arg(ConfigOf(trial).toHtmlEscaped());
  if (trial.ok) {
    text += tr(" · %1 µs (%2–%3 over %4 runs) · %5 of the default")
                .arg(trial.median_us, 0, 'f', 1)
                .arg(trial.min_us, 0, 'f', 1)
                .arg(trial.max_us, 0, 'f', 1)
                .arg(trial.samples_us.size())
                .arg(point->relative, 0, 'f', 3);
    if (trial.baseline_us > 0) text += tr(" (paired %1 µs)").arg(trial.baseline_us, 0, 'f', 1);
    if (!trial.verdict.empty()) text += tr(" · output %1").arg(Text(trial.verdict).toHtmlEscaped());
  } else {
    text += tr(" · <span style=\"color:#b02020\">failed: %1</span>")
                .arg(Text(trial.error).toHtmlEscaped());
  }
  trial_label_->setText(text + QStringLiteral(" · <i>%1</i>").arg(state));
}

QStringList TuningPanel::KernelNames() const {
  std::set<QString> names;
  for (const tuning::TuningRun& run : *runs_) {
    for (const tuning::Trial& trial : run.trials) names.insert(Text(trial.kernel));
  }
  if (const recording::Recording* recording = context_->recording();
      recording && !recording->snapshots.empty()) {
    for (const recording::ComputationSnapshotPtr& computation :
         recording->snapshots.back().computations()) {
      if (!computation->is_entry) continue;
      for (const recording::InstructionRecordPtr& instruction : computation->instructions) {
        if (instruction->opcode == "fusion" || instruction->opcode == "dot" ||
            instruction->opcode == "convolution")
          names.insert(Text(instruction->name));
      }
    }
  }
  return QStringList(names.begin(), names.end());
}

void TuningPanel::ShowTuneDialog() {
  if (!tune_action_->isEnabled()) return;
  TuneRequest base;
  base.recording = context_->file_path();
  base.title = QFileInfo(base.recording).fileName();
  base.kernel = current_kernel();
  if (const tuning::TuningRun* run = current_run()) base.space = Text(run->space);
  TuneDialog dialog(base, KernelNames(), this);
  if (dialog.exec() == QDialog::Accepted) StartTune(dialog.request());
}

bool TuningPanel::StartTune(const TuneRequest& request) {
  if (!controller_->Start(request)) {
    emit tuneFailed(tr("A search is already running: stop it first."));
    return false;
  }
  return true;
}

void TuningPanel::CancelTune() {
  if (!controller_->busy()) return;
  progress_label_->setText(tr("stopping after the trial under way…"));
  controller_->Cancel();
}

void TuningPanel::OnTuneProgress(const WorkerStage& stage) {
  if (stage.kind == QLatin1String("trial") && stage.total > 0) {
    progress_bar_->setRange(0, stage.total);
    progress_bar_->setValue(stage.index);
    progress_bar_->setFormat(QStringLiteral("%v/%m"));
  } else {
    progress_bar_->setRange(0, 0);
  }
  const QString text = TuneController::Describe(stage);
  progress_label_->setText(text);
  emit tuneProgressed(text);
}

void TuningPanel::OnTuneFinished(const TuneOutcome& outcome) {
  progress_bar_->hide();
  progress_label_->setStyleSheet(QString());
  progress_label_->setText(outcome.Summary());
  progress_label_->setToolTip(outcome.command_line);
  UpdateActions();
  emit tuneFinished(outcome.Summary());
  if (outcome.stored && outcome.request.recording == context_->file_path()) {
    // The run just stored is the newest.
    LoadRuns(context_->file_path(), -1);
  }
}

}  // namespace fusescope::views
