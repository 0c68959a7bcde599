#ifndef FUSESCOPE_VIEWS_QT_TUNING_TUNE_CONTROLLER_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TUNE_CONTROLLER_H_

// Runs `fusescope tune` (a TuneRequest) in a worker process, one at a time, passing on its
// progress lines ("progress: trial 7/24 NAME CONFIG: 12.3 us"). The worker stores its trials in
// the recording itself. Cancel() sends SIGTERM: the command finishes the trial under way,
// stores the trials so far and exits 130, which is a finished (partial) run, not a failure;
// only when it ignores the signal past the grace period is it killed, and then nothing of the
// run is stored. A worker that fails, crashes or runs out of memory is one line with the step
// it was in and its last error line.
//
// Lives on the GUI thread. After a Start() that returned true, exactly one of finished() or
// failed() follows, always from the event loop; none when the controller is destroyed first,
// which stops a running search as Cancel() does and waits, at most the grace period, for it to
// store its trials.

#include <QObject>
#include <QString>

#include "views/qt/tuning/tune_request.h"
#include "views/qt/workers/worker_limits.h"
#include "views/qt/workers/worker_outcome.h"

namespace fusescope::views {

class WorkerProcess;

struct TuneOutcome {
  TuneRequest request;
  // Stopped on request (or by a signal the command handled) before the search was done.
  bool stopped_early = false;
  // The command stored its trials (all of them, or those made before it was stopped).
  bool stored = false;
  int trials_done = 0;  // trials the worker reported
  QString command_line;
  // One line for people: "tuned 24 trials of mlp.fsdb", "stopped after 7 of 24 trials: the
  // trials so far are stored".
  QString Summary() const;
};

class TuneController : public QObject {
  Q_OBJECT

 public:
  explicit TuneController(QObject* parent = nullptr);
  ~TuneController() override;

  // False (and nothing follows) while a run is under way. A request that fails Check() is
  // refused with failed().
  bool Start(const TuneRequest& request);
  void Cancel();
  bool busy() const { return worker_ != nullptr; }
  // The running worker's process id; 0 when none runs.
  qint64 worker_pid() const;

  // The executable run as the worker: FUSESCOPE_WORKER when set, else this program.
  QString worker_program() const { return worker_program_; }
  void set_worker_program(const QString& program) { worker_program_ = program; }
  // A search runs as long as it takes (there is a Cancel); the grace period is long enough
  // for the trial under way to finish and the trials to be stored.
  const WorkerLimits& worker_limits() const { return limits_; }
  void set_worker_limits(const WorkerLimits& limits) { limits_ = limits; }

  // "trial 7/24: fusion.3 tile=16 vector=8: 12.3 us": a progress line for people.
  static QString Describe(const WorkerStage& stage);

 signals:
  void started(const fusescope::views::TuneRequest& request, const QString& command_line);
  void progress(const fusescope::views::WorkerStage& stage);
  void finished(const fusescope::views::TuneOutcome& outcome);
  void failed(const QString& message);

 private:
  void OnWorkerFinished(const WorkerOutcome& outcome);
  QString CommandLine(const TuneRequest& request) const;

  WorkerProcess* worker_ = nullptr;  // a child of this; null once it has finished
  TuneRequest request_;
  int trials_done_ = 0;
  QString worker_program_;
  WorkerLimits limits_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TUNE_CONTROLLER_H_
