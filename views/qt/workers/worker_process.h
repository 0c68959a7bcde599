#ifndef FUSESCOPE_VIEWS_QT_WORKERS_WORKER_PROCESS_H_
#define FUSESCOPE_VIEWS_QT_WORKERS_WORKER_PROCESS_H_

// Runs one WorkerJob in a child process (the `fusescope` executable itself) so that a crash,
// a hang or a runaway allocation in a pipeline ends that process and not the window. Reads
// the worker's stderr as it comes: "progress: pass 7/15 NAME" lines become stageStarted(),
// the rest is kept as the tail a reproducer carries. Enforces the WorkerLimits: the time
// limit from here, the address-space limit with setrlimit in the child.
//
// Lives on the GUI thread. finished() comes exactly once after Start(), also when the program
// cannot be started; not when the object is destroyed first (which kills the worker).

#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

#include "views/qt/workers/worker_job.h"
#include "views/qt/workers/worker_limits.h"
#include "views/qt/workers/worker_outcome.h"

namespace fusescope::views {

class WorkerProcess : public QObject {
  Q_OBJECT

 public:
  WorkerProcess(WorkerJob job, WorkerLimits limits, QObject* parent = nullptr);
  ~WorkerProcess() override;

  void Start(const QString& program);
  // Stops the worker: SIGTERM, then SIGKILL after the grace period. finished() follows with
  // kCanceled once the process is gone.
  void Cancel();
  // Blocks until the worker has exited or `timeout` has passed; true when it has exited. For a
  // window that is closing and lets a worker it stopped finish its work.
  bool WaitForExit(std::chrono::milliseconds timeout);
  bool running() const { return process_->state() != QProcess::NotRunning; }
  // 0 when not running.
  qint64 pid() const { return process_->processId(); }
  const WorkerJob& job() const { return outcome_.job; }

 signals:
  void stageStarted(const fusescope::views::WorkerStage& stage);
  void finished(const fusescope::views::WorkerOutcome& outcome);

 private:
  enum class StopReason { kNone, kCanceled, kTimedOut };

  void setupProcess();
  void Stop(StopReason reason);
  void ReadErrors();
  void TakeLine(const QString& line);
  void OnFinished(int exit_code, QProcess::ExitStatus status);
  void OnError(QProcess::ProcessError error);
  bool SaysOutOfMemory() const;
  void Finish();

  QProcess* process_;
  QTimer time_limit_;
  QTimer grace_;
  WorkerOutcome outcome_;
  QByteArray partial_line_;
  StopReason stop_reason_ = StopReason::kNone;
  bool finished_ = false;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKERS_WORKER_PROCESS_H_
