#ifndef FUSESCOPE_VIEWS_QT_WORKERS_WORKER_FAILURE_H_
#define FUSESCOPE_VIEWS_QT_WORKERS_WORKER_FAILURE_H_

// A worker that did not deliver (crashed, failed, hung, ran out of memory), with what it
// takes to reproduce it outside the workbench: the input model as it was when the worker
// read it, the exact command line, and the worker's stderr tail. Taken when the worker
// ended, so it stays valid after the job's temporary files are gone.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "views/qt/workers/worker_outcome.h"

namespace fusescope::views {

class WorkerFailure {
 public:
  WorkerFailure(WorkerOutcome outcome, QByteArray input_text);

  const WorkerOutcome& outcome() const { return outcome_; }
  const QByteArray& input_text() const { return input_text_; }
  QString Message() const { return outcome_.Message(); }

  // Writes the reproducer into `folder` (created when missing): kModelFile, the input
  // model; kCommandFile, what happened, the exact command line and one that reruns it on
  // the saved model; kErrorsFile, the stderr tail. Returns an error message, empty on
  // success.
  QString SaveReproducer(const QString& folder) const;
  // The command line that reruns the job from the reproducer folder.
  QString RerunCommandLine() const;

  static constexpr const char* kModelFile = "model.hlo";
  static constexpr const char* kCommandFile = "command.txt";
  static constexpr const char* kErrorsFile = "stderr.txt";

 private:
  WorkerOutcome outcome_;
  QByteArray input_text_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKERS_WORKER_FAILURE_H_
