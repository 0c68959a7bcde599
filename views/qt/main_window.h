#ifndef FUSESCOPE_VIEWS_QT_MAIN_WINDOW_H_
#define FUSESCOPE_VIEWS_QT_MAIN_WINDOW_H_

// The workbench window: the side-by-side graphs in the middle, panels docked around them,
// all observing one WorkbenchContext. Opens HLO files, built-in samples, .fsdb recordings
// and XLA dump folders (menu, recent files, drag and drop, command line), compiles with the cpu or
// gpu pipeline in a worker process with progress and cancel, and saves recordings. A worker that
// crashes, hangs or runs out of memory is reported in a banner with a reproducer to save, while the
// last good recording stays on display. The Run menu runs, bisects and profiles the recording in
// worker processes too (the Run dock). Compile ▸ What If… compiles the model again with
// other options and compares the two (the What If dock). Compile ▸ Tune Kernels… searches how
// the kernels are built in a worker and shows the trials (the Tuning dock), a picked trial's
// kernel compiled into the Kernel dock.

#include <QFont>
#include <QMainWindow>
#include <QPalette>
#include <QStringList>
#include <memory>

#include "passes/pipeline_options.h"
#include "recording/recording.h"
#include "views/qt/context_observer.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTemporaryDir;
class QStackedWidget;
class QToolButton;

namespace fusescope::views {

class ComparePanel;
class FusionDecisionsPanel;
class GraphDiffPanel;
class InspectorPanel;
class IrTextPanel;
class KernelPanel;
class LessonPanel;
struct Lesson;
class PassActions;
class PassTimelinePanel;
class ProfilePanel;
class RecordingLoader;
class RunPanel;
class SearchPanel;
class StageStripPanel;
class TuningPanel;
class WhatIfPanel;
class WorkbenchContext;
class WorkerFailure;
class WorkerReportBanner;
class XlaComparisonPanel;

class MainWindow : public QMainWindow, public ContextObserver {
  Q_OBJECT

 public:
  // `use_settings` false: neither read nor write QSettings (screenshots and tests get the
  // default layout whatever the user's last session looked like).
  explicit MainWindow(bool use_settings = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Errors go to dialogs when interactive, else to stderr and the status bar (screenshots,
  // tests): nothing may wait for a click that never comes.
  void set_interactive(bool interactive) { interactive_ = interactive; }
  // The pass the next opened recording starts on (the --pass option); -1: the default.
  void set_initial_pass(int64_t pass) { initial_pass_ = pass; }

  // Anything a user can name (importers/input_kind.h): a model, a recording, another
  // compiler's dump, `sample:NAME`, a lesson.
  void OpenPath(const QString& path);
  void OpenSample(const QString& name);
  // `file_path`: the .fsdb file it was read from (its profiles live there); empty if none.
  void ShowRecording(std::shared_ptr<const recording::Recording> recording, const QString& title,
                     const QString& file_path = {});
  // Compiles the open recording's input again with the chosen pipeline.
  void Recompile();
  // Asks what B changes (WhatIfDialog) and runs the what-if experiment on the open recording.
  void ShowWhatIfDialog();
  // Compiles the open recording's input with `b_options` in a worker and shows the comparison
  // in the What If dock; whatIfReady() follows.
  void RunWhatIf(const passes::PipelineOptions& b_options);
  // Saves the open recording as .fsdb on a worker; savedRecording() or an error follows.
  void SaveRecording(const QString& path);
  // Saves the reproducer of the failure the banner shows into `folder`; false (and an
  // error reported) when there is none or it cannot be written.
  bool SaveReproducer(const QString& folder);
  // Stops the running compile or load; the window keeps what it shows.
  void CancelWork();
  QString pipeline_target() const;
  void SetPipelineTarget(const QString& target);
  // True when nothing is loading, the pass's data is ready and the graphs are laid out.
  bool IsSettled() const;
  // Brings the Kernel dock to the front on kernel `name` (KernelPanel::FocusKernel); false when
  // the open recording has no such kernel.
  bool FocusKernel(const QString& name, const QString& stage = {});
  // Brings the Tuning dock to the front on kernel `name` of the recording's tuning runs
  // (TuningPanel::SelectKernel); false when no run has it.
  bool FocusTuningKernel(const QString& name);
  // Selects the instruction named `name` in the shown pass (the after graph first, as a click
  // on its node would) and, when the file holds comparisons, brings the Compare dock to the
  // front on it; false when neither side has it.
  bool SelectInstruction(const QString& name);

  WorkbenchContext* context() const { return context_; }
  PassActions* pass_actions() const { return pass_actions_; }
  GraphDiffPanel* graph_panel() const { return graph_panel_; }
  PassTimelinePanel* timeline_panel() const { return timeline_panel_; }
  IrTextPanel* text_panel() const { return text_panel_; }
  InspectorPanel* inspector_panel() const { return inspector_panel_; }
  FusionDecisionsPanel* decisions_panel() const { return decisions_panel_; }
  SearchPanel* search_panel() const { return search_panel_; }
  ProfilePanel* profile_panel() const { return profile_panel_; }
  KernelPanel* kernel_panel() const { return kernel_panel_; }
  XlaComparisonPanel* xla_panel() const { return xla_panel_; }
  ComparePanel* compare_panel() const { return compare_panel_; }
  RunPanel* run_panel() const { return run_panel_; }
  LessonPanel* lesson_panel() const { return lesson_panel_; }
  TuningPanel* tuning_panel() const { return tuning_panel_; }
  // N stages side by side in the middle of the window, in place of the pass's two graphs
  // while stage_strip_action() is checked (View ▸ Stage Strip, Ctrl+Shift+S).
  StageStripPanel* stage_strip_panel() const { return stage_strip_panel_; }
  QAction* stage_strip_action() const { return stage_strip_action_; }
  WhatIfPanel* what_if_panel() const { return what_if_panel_; }
  RecordingLoader* loader() const { return loader_; }
  WorkerReportBanner* worker_report() const { return worker_report_; }
  QStringList recent_files() const { return recent_; }
  // What the last load had to leave out (files of a dump that would not parse).
  QStringList load_warnings() const { return warnings_; }

  // Opens a lesson (`lesson:NAME` or a .lesson file): prepared by a worker, then shown with
  // the Lesson panel on its first step; lessonReady() follows, or loadFailed().
  void OpenLesson(const QString& what);
  // Large fonts, high-contrast colours, the Lesson panel and one graph pane; off restores the
  // window as it was.
  void SetPresenterMode(bool on);
  bool presenter_mode() const { return presenter_; }
  QAction* presenter_action() const { return presenter_action_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;

 signals:
  // After a load, once the graphs are settled; and when a load failed.
  void settled();
  void loadFailed(const QString& message);
  void savedRecording(const QString& path, bool ok);
  // A lesson's recording is shown and its first step applied.
  void lessonReady();
  // A what-if's B is compiled and compared with the open recording (the What If dock shows
  // the comparison); for panels that show a second recording beside the open one.
  void whatIfReady(std::shared_ptr<const fusescope::recording::Recording> b);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void setupPanels();
  QDockWidget* AddDock(QWidget* panel, const QString& title, const QString& name,
                       Qt::DockWidgetArea area, const QString& icon);
  void setupDefaultLayout();
  // Widens the Passes dock to what its names need (PassTimelinePanel::WidthForNames).
  void FitPassesToNames();
  void setupActions();
  void setupFileMenu();
  void setupCompileMenu();
  void setupRunMenu();
  void setupNavigateMenu();
  void setupViewMenu();
  void setupHelpMenu();
  void setupStageStrip();
  void setupToolBar();
  void setupStatusBar();
  void setupLoader();
  void setupWorkerReport();
  void setupProfile();
  void setupXlaComparison();
  void setupRun();
  void setupTuning();
  // main_window_lessons.cpp: the Lesson dock, its menus and presenter mode.
  void setupLessons();
  void ShowOpenLessonDialog();
  // The loaded recording is the prepared lesson's: shows both and returns true.
  bool TakeLesson(std::shared_ptr<const recording::Recording> recording, const QString& title,
                  const QString& path);
  void ShowLessonView(int view, const QString& kernel, const QString& stage);
  void setupWhatIf();
  void RaiseDock(QWidget* panel);
  void ShowWorkerFailure(std::shared_ptr<const WorkerFailure> failure);
  void ShowReproducerDialog();
  void RestoreSettings();
  void SaveSettings() const;

  void ShowOpenDialog();
  void ShowOpenFolderDialog();
  void ShowSaveDialog();
  void AddRecent(const QString& path);
  void RebuildRecentMenu();
  void ReportError(const QString& title, const QString& message);
  void ReportWarnings(const QStringList& warnings);
  void SetBusy(bool busy, const QString& what = {});
  void UpdatePassStatus();
  void ShowAbout();
  void ShowShortcuts();

  WorkbenchContext* context_;
  RecordingLoader* loader_;
  PassActions* pass_actions_ = nullptr;
  GraphDiffPanel* graph_panel_ = nullptr;
  PassTimelinePanel* timeline_panel_ = nullptr;
  IrTextPanel* text_panel_ = nullptr;
  InspectorPanel* inspector_panel_ = nullptr;
  FusionDecisionsPanel* decisions_panel_ = nullptr;
  SearchPanel* search_panel_ = nullptr;
  ProfilePanel* profile_panel_ = nullptr;
  KernelPanel* kernel_panel_ = nullptr;
  XlaComparisonPanel* xla_panel_ = nullptr;
  ComparePanel* compare_panel_ = nullptr;
  RunPanel* run_panel_ = nullptr;
  LessonPanel* lesson_panel_ = nullptr;
  TuningPanel* tuning_panel_ = nullptr;
  // The lesson being prepared, and where its recording lives while it is shown.
  std::shared_ptr<Lesson> pending_lesson_;
  QString pending_lesson_path_;
  std::unique_ptr<QTemporaryDir> lesson_folder_;
  QAction* presenter_action_ = nullptr;
  QList<QAction*> presenter_only_actions_;
  bool presenter_ = false;
  QByteArray presenter_saved_state_;
  QFont presenter_saved_font_;
  QPalette presenter_saved_palette_;
  StageStripPanel* stage_strip_panel_ = nullptr;
  QStackedWidget* graphs_ = nullptr;  // the pass's two graphs or the stage strip
  QAction* stage_strip_action_ = nullptr;
  WhatIfPanel* what_if_panel_ = nullptr;
  WorkerReportBanner* worker_report_ = nullptr;
  QList<QDockWidget*> docks_;
  QByteArray default_state_;

  QMenu* view_menu_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QMenu* samples_menu_ = nullptr;
  QAction* open_ = nullptr;
  QAction* open_folder_ = nullptr;
  QAction* save_ = nullptr;
  QAction* recompile_ = nullptr;
  QAction* what_if_ = nullptr;
  QAction* cancel_ = nullptr;
  QActionGroup* targets_ = nullptr;
  QLabel* pass_status_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QToolButton* cancel_button_ = nullptr;

  QStringList recent_;
  QStringList warnings_;
  bool use_settings_;
  bool interactive_ = true;
  bool waiting_for_settle_ = false;
  int64_t initial_pass_ = -1;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_MAIN_WINDOW_H_
