#ifndef FUSESCOPE_VIEWS_QT_WORKER_JOB_H_
#define FUSESCOPE_VIEWS_QT_WORKER_JOB_H_

// One piece of heavy work for a worker process: a `fusescope` subcommand line whose result
// comes back as a file: a recording (compile), or the command's --json output (run, bisect,
// profile). Plain data.

#include <QString>
#include <QStringList>

namespace fusescope::views {

struct WorkerJob {
  QStringList arguments;  // the subcommand and its arguments, without the program
  QString input;          // the model file the command reads; a reproducer copies it
  QString output;         // the recording the command writes
  QString result_file;    // where the command's standard output goes; discarded when empty
  QString what;           // for people: "compiling sample:mlp"
  QString pipeline;       // "cpu" or "gpu"; empty when the job runs no pipeline
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKER_JOB_H_
