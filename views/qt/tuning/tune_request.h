#ifndef FUSESCOPE_VIEWS_QT_TUNING_TUNE_REQUEST_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TUNE_REQUEST_H_

// What the workbench asks `fusescope tune` to search: the recording whose trials it keeps, a
// kernel (or the hottest ones), the search space, strategy, number of trials and timed runs,
// and the command line that does it. Plain data.

#include <QString>
#include <QStringList>

#include "views/qt/workers/worker_job.h"

namespace fusescope::views {

struct TuneRequest {
  QString recording;  // the .fsdb file the trials are stored in
  QString title;      // names the recording for people: "mlp.fsdb"
  QString kernel;     // empty: the hottest kernels (the command's --coverage)
  QString space;      // empty: the command's default space
  QString strategy = QStringLiteral("grid");
  int trials = 0;  // per kernel; 0: every candidate
  int reps = 0;    // timed runs per trial; 0: the command's default

  // For people: "tuning fusion.3 of mlp.fsdb".
  QString What() const;
  // The subcommand and its arguments, without --progress: what a user reruns.
  QStringList Arguments() const;
  // Arguments() and --progress.
  WorkerJob ToWorkerJob() const;
  // Empty when the request can be run; else what is wrong with it, in one line (a space that
  // does not parse names the word).
  QString Check() const;

  // The strategies `fusescope tune --strategy` takes; the first is the default.
  static QStringList Strategies();
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TUNE_REQUEST_H_
