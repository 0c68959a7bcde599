#ifndef FUSESCOPE_VIEWS_QT_TUNING_TUNING_PANEL_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TUNING_PANEL_H_

// The Tuning dock: the tuning runs stored in the open recording's file (tuning/tuning_store.h).
// Left, the chosen run's kernels with what `fusescope tune --list` prints for each (trials,
// failed, default and best time, speedup, best configuration); a row selects its node
// everywhere, and a node selected elsewhere selects its row. Right, the selected kernel's trials
// in search order (views::BuildTuningKernelPlot: time relative to the default, the best so far,
// failures along the top) and a heatmap over two knobs chosen in the combo boxes. Picking a
// trial (a point or a cell) compiles that kernel with that configuration on a worker and hands
// its lowering stages to the Kernel view (trialKernelReady). Tune… runs `fusescope tune` in a
// worker process with progress and Cancel (TuneController); the runs are read again when it
// ends, a cancelled search's stored trials included.

#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "tuning/tuning_run.h"
#include "views/qt/context_observer.h"
#include "views/tuning_plot.h"

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace fusescope::views {

class KernelTimeline;
class LatestTaskRunner;
class TrialKernelCompiler;
class TuneController;
class TuningHeatmap;
class TuningKernelModel;
class TuningTrialChart;
class WorkbenchContext;
struct TuneOutcome;
struct TuneRequest;
struct WorkerStage;

class TuningPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit TuningPanel(WorkbenchContext* context, QWidget* parent = nullptr);
  ~TuningPanel() override;

  QComboBox* run_box() const { return run_box_; }
  QTableView* kernel_table() const { return table_; }
  TuningKernelModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  TuningTrialChart* chart() const { return chart_; }
  TuningHeatmap* heatmap() const { return heatmap_; }
  QComboBox* x_knob_box() const { return x_knob_; }
  QComboBox* y_knob_box() const { return y_knob_; }
  // The line shown instead of the runs when there are none, and why.
  QLabel* placeholder() const { return placeholder_; }
  QLabel* run_summary() const { return run_summary_; }
  QLabel* kernel_summary() const { return kernel_summary_; }
  QLabel* trial_label() const { return trial_label_; }
  QLabel* progress_label() const { return progress_label_; }
  QProgressBar* progress_bar() const { return progress_bar_; }
  // Opens the Tune dialog; disabled without a recording file or while a search runs.
  QAction* tune_action() const { return tune_action_; }
  QAction* cancel_action() const { return cancel_action_; }
  // Reads the recording's tuning runs again (runs stored by `fusescope tune` meanwhile).
  QAction* reload_action() const { return reload_action_; }
  TuneController* controller() const { return controller_; }

  const std::vector<tuning::TuningRun>& runs() const;
  // The run shown; null when there is none.
  const tuning::TuningRun* current_run() const;
  QString current_kernel() const;
  // The selected kernel's chart and heatmap data; null when no kernel is selected.
  const TuningKernelPlot* plot() const { return plot_.get(); }
  // The trial picked last (TuningPoint::order of the selected kernel); 0 when none.
  int picked_trial() const { return picked_; }
  // Reading runs or compiling a picked trial's kernel is under way.
  bool busy() const;
  // A search runs in a worker.
  bool tuning() const;

  // Shows run `index` of runs() (its kernels, the hottest selected).
  void SelectRun(int index);
  // Selects `kernel` in the shown run, else in the latest run that has it; its node is
  // selected everywhere. False when no run has it.
  bool SelectKernel(const QString& kernel);
  // Rebuilds the heatmap over knobs `x` and `y` (tile, vector, unroll, gemm).
  void SetKnobs(const QString& x, const QString& y);
  // Picks trial `order` of the selected kernel: compiles its kernel with its configuration on a
  // worker, then trialKernelReady() or trialKernelFailed(). False when there is no such trial.
  bool PickTrial(int order);
  // Asks what to search (TuneDialog), then StartTune().
  void ShowTuneDialog();
  // Runs `request` in a worker; false (with the reason in tuneFailed) when it cannot start.
  bool StartTune(const TuneRequest& request);
  void CancelTune();
  void Reload();

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

 signals:
  // The tuning runs of the open recording were read; `count` of them.
  void runsLoaded(int count);
  // The chart and heatmap show the selected kernel (or nothing).
  void updated();
  // Reading runs or compiling a trial's kernel started or ended.
  void busyChanged(bool busy);
  // A picked trial's kernel is compiled: for the Kernel view. `origin` says which trial it is.
  void trialKernelReady(std::shared_ptr<const fusescope::views::KernelTimeline> timeline,
                        const QString& origin);
  void trialKernelFailed(const QString& message);
  void tuneStarted(const QString& what);
  void tuneProgressed(const QString& text);
  // The search ended, finished or stopped early (its trials so far stored); the runs are being
  // read again.
  void tuneFinished(const QString& summary);
  void tuneFailed(const QString& message);

 private:
  void setupHeader();
  void setupTable();
  void setupPlots();
  void setupLayout();
  void setupController();
  void ShowPlaceholder(const QString& text);
  void LoadRuns(const QString& path, int64_t select_run_id);
  void ShowKernel(const QString& kernel);
  static QString CompositionSummary(const tuning::TuningRun& run);
  void RebuildPlot(const QString& x_knob, const QString& y_knob);
  void UpdateTrialLabel(const QString& state);
  void FollowSelection(int64_t instruction_id);
  void SelectNode(const std::string& kernel);
  int64_t InstructionOf(const std::string& kernel) const;
  void UpdateActions();
  void OnTuneFinished(const TuneOutcome& outcome);
  void OnTuneProgress(const WorkerStage& stage);
  QStringList KernelNames() const;

  WorkbenchContext* context_;
  TuningKernelModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  TuningTrialChart* chart_;
  TuningHeatmap* heatmap_;
  QComboBox* run_box_;
  QComboBox* x_knob_;
  QComboBox* y_knob_;
  QLabel* placeholder_;
  QLabel* run_summary_;
  QLabel* kernel_summary_;
  QLabel* trial_label_;
  QLabel* progress_label_;
  QProgressBar* progress_bar_;
  QToolButton* tune_button_;
  QToolButton* cancel_button_;
  QStackedWidget* stack_;
  QAction* tune_action_;
  QAction* cancel_action_;
  QAction* reload_action_;
  LatestTaskRunner* runs_runner_;
  LatestTaskRunner* trial_runner_;
  TuneController* controller_;
  // Shared with the workers that compile trials; replaced when another recording opens.
  std::shared_ptr<const std::vector<tuning::TuningRun>> runs_;
  std::shared_ptr<TrialKernelCompiler> compiler_;
  int shown_run_ = -1;
  std::shared_ptr<const TuningKernelPlot> plot_;
  int picked_ = 0;
  // Set while the panel selects a row that must not move the graphs: one it shows on its own
  // (a run read, a run chosen) or one that follows a node selected elsewhere.
  bool following_ = false;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TUNING_PANEL_H_
