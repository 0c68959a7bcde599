#ifndef FUSESCOPE_VIEWS_QT_WORKER_JOB_H_
#define FUSESCOPE_VIEWS_QT_WORKER_JOB_H_

// One piece of heavy work for a worker process: a `fusescope` subcommand line (compile now;
// run and profile alike) whose result comes back as a recording file. Plain data.

#include <QString>
#include <QStringList>

namespace fusescope::views {

struct WorkerJob {
  QStringList arguments;  // the subcommand and its arguments, without the program
  QString input;          // the model file the command reads; a reproducer copies it
  QString output;         // the recording the command writes
  QString what;           // for people: "compiling sample:mlp"
  QString pipeline;       // "cpu" or "gpu"; empty when the job runs no pipeline
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKER_JOB_H_
