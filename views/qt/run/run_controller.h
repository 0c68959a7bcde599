#ifndef FUSESCOPE_VIEWS_QT_RUN_RUN_CONTROLLER_H_
#define FUSESCOPE_VIEWS_QT_RUN_RUN_CONTROLLER_H_

// Runs RunRequests in worker processes (the `fusescope` executable, as compiles are), one at
// a time: a new request stops the running one and its result is dropped. Passes on the
// worker's progress lines; reads its answer from the command's --json output. A worker that
// exits with an error, crashes, hangs past its time limit or runs out of memory is reported
// in one line with the step it was in and its last error line; Cancel() stops it for real
// (SIGTERM, then SIGKILL after the grace period). A recording that lives in no file is first
// saved into the job's temporary folder for the worker to read, off the GUI thread.
//
// Lives on the GUI thread. After Start(), exactly one of finished(), failed() or canceled()
// follows, always from the event loop; none for a job superseded by a newer one.

#include <QObject>
#include <QString>
#include <memory>

#include "recording/recording.h"
#include "views/qt/run/run_request.h"
#include "views/qt/run/run_result.h"
#include "views/qt/workers/worker_limits.h"
#include "views/qt/workers/worker_outcome.h"

namespace fusescope::views {

class RunController : public QObject {
  Q_OBJECT

 public:
  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;

  // `unsaved`: the recording to save for the worker when `request.recording` is empty.
  void Start(RunRequest request, std::shared_ptr<const recording::Recording> unsaved = nullptr);
  void Cancel();
  bool busy() const { return job_ != nullptr; }
  // The running worker's process id; 0 when none runs (also while an unsaved recording is
  // being written for it).
  qint64 worker_pid() const;

  // The executable run as the worker: FUSESCOPE_WORKER when set, else this program.
  QString worker_program() const { return worker_program_; }
  void set_worker_program(const QString& program) { worker_program_ = program; }
  const WorkerLimits& worker_limits() const { return limits_; }
  void set_worker_limits(const WorkerLimits& limits) { limits_ = limits; }

  // "bisect: snapshot 7/18 (priority-fusion)": a progress line for people.
  static QString Describe(const RunRequest& request, const WorkerStage& stage);

 signals:
  // `command_line`: what the worker runs, without --progress (a temporary copy of an unsaved
  // recording already named).
  void started(const fusescope::views::RunRequest& request, const QString& command_line);
  void progress(const fusescope::views::WorkerStage& stage);
  void finished(const fusescope::views::RunResult& result);
  // One line: what the worker was doing, how it ended, where, and its last error line.
  void failed(const QString& message);
  void canceled();

 private:
  struct Job;

  void Abandon();
  void FailLater(const std::shared_ptr<Job>& job, const QString& message);
  void SaveThenStart(const std::shared_ptr<Job>& job,
                     std::shared_ptr<const recording::Recording> recording);
  void StartWorker(const std::shared_ptr<Job>& job);
  void OnWorkerFinished(const std::shared_ptr<Job>& job, const WorkerOutcome& outcome);
  QString CommandLine(const Job& job) const;

  std::shared_ptr<Job> job_;
  QString worker_program_;
  WorkerLimits limits_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_RUN_RUN_CONTROLLER_H_
