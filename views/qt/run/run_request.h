#ifndef FUSESCOPE_VIEWS_QT_RUN_RUN_REQUEST_H_
#define FUSESCOPE_VIEWS_QT_RUN_RUN_REQUEST_H_

// What the workbench asks a worker to do with a recording's numbers: `fusescope run` (a
// snapshot against the original module), `fusescope bisect` (the first pass that changes the
// outputs) or `fusescope profile --save` (repeated runs, stored in the recording), and the
// command line that does it. Plain data.

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>

#include "views/qt/workers/worker_job.h"

namespace fusescope::views {

struct RunRequest {
  enum class Kind { kRun, kBisect, kProfile };

  Kind kind = Kind::kRun;
  QString recording;  // the .fsdb file the command reads (and a profile is saved into)
  QString title;      // names the recording for people: "mlp.fsdb"
  // Run and profile: the snapshot after this pass (-1: the input module); the final
  // snapshot when unset. Bisect runs them all.
  std::optional<int64_t> pass;
  // Run and profile: where the module runs, one of Devices().
  QString device = Devices().front();
  int reps = 10;   // profile: timed runs
  int warmup = 2;  // profile: untimed runs before them

  // "run", "bisect", "profile": the subcommand.
  QString Verb() const;
  // For people: "running pass 5 of mlp.fsdb", "bisecting mlp.fsdb".
  QString What() const;
  // The subcommand and its arguments with --json, without --progress: what a user reruns.
  QStringList Arguments() const;
  // Arguments() and --progress, the command's standard output going into `result_file`.
  WorkerJob ToWorkerJob(const QString& result_file) const;

  // The devices run and profile offer; the first is the default. A device the commands gain
  // (`--device cpu`) is one more entry here.
  static QStringList Devices();
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_RUN_RUN_REQUEST_H_
