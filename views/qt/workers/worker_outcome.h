#ifndef FUSESCOPE_VIEWS_QT_WORKERS_WORKER_OUTCOME_H_
#define FUSESCOPE_VIEWS_QT_WORKERS_WORKER_OUTCOME_H_

// How a worker process ended, with what it last said: the stage it reported last (from its
// "progress: pass 7/15 priority-fusion" lines) and the tail of its stderr. Plain data and
// the one-line sentence the window shows for it.

#include <QString>
#include <QStringList>

#include "views/qt/workers/worker_job.h"
#include "views/qt/workers/worker_limits.h"

namespace fusescope::views {

// A step the worker reported: a pass of a pipeline it starts, a snapshot a bisection starts
// running, the instructions a run has done, the repetitions a profile has done.
struct WorkerStage {
  QString kind;    // "pass", "snapshot", "instruction", "rep", "save"
  int index = -1;  // numbered from 0, as `fusescope passes` lists passes; -1: none yet
  int total = 0;
  QString name;  // "priority-fusion"

  bool known() const { return index >= 0; }
  // Reads one "progress: KIND INDEX/TOTAL NAME" line; nullopt-like (index -1) otherwise.
  static WorkerStage Parse(const QString& line);
};

struct WorkerOutcome {
  enum class Kind {
    kSucceeded,
    kFailed,       // exited with a non-zero code
    kCrashed,      // ended by a signal it did not get from us
    kOutOfMemory,  // an allocation failed (the address-space limit, or the machine)
    kTimedOut,     // stopped after the time limit
    kCanceled,     // stopped on request
    kNotStarted,   // the program could not be started
  };

  Kind kind = Kind::kSucceeded;
  int exit_code = 0;        // kFailed, kOutOfMemory
  int signal = 0;           // kCrashed, and kOutOfMemory when it ended by a signal
  WorkerStage stage;        // the last stage the worker reported
  QStringList error_lines;  // the last lines it wrote on stderr, progress lines included
  QString start_error;      // kNotStarted: why
  QString program;
  WorkerJob job;
  WorkerLimits limits;

  bool failed() const { return kind != Kind::kSucceeded && kind != Kind::kCanceled; }
  // One line for the status bar and the banner: "The worker compiling sample:mlp crashed
  // with SIGSEGV in pass 12 scheduler (cpu pipeline)".
  QString Message() const;
  // The last stderr line that is not a progress line: usually the worker's own error.
  QString LastErrorLine() const;
  // The program and its arguments as a shell would take them.
  QString CommandLine() const;

  static QString SignalName(int signal);
};

// Quotes `argument` for a POSIX shell when it needs it.
QString ShellQuoted(const QString& argument);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKERS_WORKER_OUTCOME_H_
