#ifndef FUSESCOPE_VIEWS_QT_RUN_RUN_PANEL_H_
#define FUSESCOPE_VIEWS_QT_RUN_RUN_PANEL_H_

// The Run dock: puts the open recording's numbers to work in a worker process (RunController)
// — the current pass against the original module, a bisection over every pass, or a profile
// saved into the recording — with the worker's progress and a Cancel that stops it. Then it
// shows the answer: each output's errors, or each pass's with the first that differs
// highlighted (a click on a row goes to that pass), and the command line that reproduces it
// headless. A worker that fails is one line in red here; the window and its recording carry
// on.

#include <QWidget>
#include <optional>

#include "views/qt/context_observer.h"
#include "views/qt/run/run_request.h"
#include "views/qt/run/run_result.h"

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTableView;
class QToolButton;

namespace fusescope::views {

class BisectModel;
class RunController;
class RunOutputModel;
class WorkbenchContext;
struct WorkerStage;

class RunPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit RunPanel(WorkbenchContext* context, QWidget* parent = nullptr);
  ~RunPanel() override;

  // Runs the current pass's snapshot against the original module.
  void StartRun();
  // Runs every pass's snapshot against the input module.
  void StartBisect();
  // Profiles the current pass's snapshot and saves the profile into the recording's file;
  // refused, with the reason shown, for a recording that lives in no file.
  void StartProfile(int reps, int warmup);
  // Asks the repetitions and warm-up runs in a small dialog, then StartProfile().
  void ShowProfileDialog();
  void Cancel();
  bool busy() const;
  QString device() const;

  QAction* run_action() const { return run_action_; }
  QAction* bisect_action() const { return bisect_action_; }
  QAction* profile_action() const { return profile_action_; }
  QAction* cancel_action() const { return cancel_action_; }
  QComboBox* device_box() const { return device_box_; }
  QTableView* table() const { return table_; }
  RunOutputModel* outputs_model() const { return outputs_model_; }
  BisectModel* bisect_model() const { return bisect_model_; }
  QLabel* summary() const { return summary_; }
  QLabel* error_label() const { return error_; }
  QLabel* progress_label() const { return progress_label_; }
  QProgressBar* progress_bar() const { return progress_bar_; }
  QLineEdit* command_line() const { return command_line_; }
  RunController* controller() const { return controller_; }
  // The last answer shown; unset before the first and after a new recording opens.
  const std::optional<RunResult>& result() const { return result_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;

 signals:
  void started(const QString& what);
  void progressed(const QString& text);
  void finished(const QString& summary);
  void failed(const QString& message);
  void canceled();
  // A profile was saved into `path`, the open recording's file.
  void profileSaved(const QString& path);

 private:
  void setupActions();
  void setupTable();
  void setupLayout();
  void setupController();
  RunRequest Request(RunRequest::Kind kind) const;
  // A profile is saved into the recording's file: for a recording that lives in none, shows
  // why not and returns true.
  bool RefuseUnsavedProfile();
  void Launch(const RunRequest& request);
  void SetBusy(bool busy);
  void ShowProgress(const WorkerStage& stage);
  void ShowResult(const RunResult& result);
  void ShowRun(const RunReport& report);
  void ShowBisect(const BisectReport& report);
  void ShowProfile(const ProfileReport& report);
  void ShowError(const QString& message);
  void ClearResult();
  void GoToPass(const QModelIndex& index);

  WorkbenchContext* context_;
  RunController* controller_;
  RunOutputModel* outputs_model_;
  BisectModel* bisect_model_;
  QAction* run_action_;
  QAction* bisect_action_;
  QAction* profile_action_;
  QAction* cancel_action_;
  QComboBox* device_box_;
  QLabel* summary_;
  QLabel* error_;
  QLabel* progress_label_;
  QProgressBar* progress_bar_;
  QToolButton* cancel_button_;
  QWidget* progress_row_;
  QLineEdit* command_line_;
  QToolButton* copy_button_;
  QTableView* table_;
  RunRequest running_;
  std::optional<RunResult> result_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_RUN_RUN_PANEL_H_
