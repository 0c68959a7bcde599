#ifndef FUSESCOPE_VIEWS_QT_RUN_RUN_RESULT_H_
#define FUSESCOPE_VIEWS_QT_RUN_RUN_RESULT_H_

// What a run, bisect or profile worker answered: its command's --json output
// (app/cli/run_command.cpp, bisect_command.cpp, profile_command.cpp) read into plain structs,
// with the command line that produced it. Errors are given as the largest finite double by
// the commands (JSON has no infinity); they read back as infinity here.

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "views/qt/run/run_request.h"

namespace fusescope::views {

// One output of `fusescope run`; compared with the original module's when the run was of a
// recording.
struct RunOutput {
  int64_t index = 0;
  QString shape;  // "f32[32,10]"
  bool compared = false;
  bool same_shape = true;
  double max_abs_error = 0;
  double max_rel_error = 0;
  bool ok = true;
  // "ok", "ok (exact)", "ill-conditioned" or "MISMATCH" (runtime/output_judgement.h).
  QString verdict;
  // Max abs distances of this run and of the original module to the exact (f64) answer.
  std::optional<double> to_exact;
  std::optional<double> original_to_exact;
};

struct RunReport {
  QString model;
  std::optional<int64_t> pass;
  double seconds = 0;
  std::optional<double> original_seconds;
  std::vector<RunOutput> outputs;
  std::optional<bool> match;  // no output is a MISMATCH; unset when nothing was compared
  QString verdict;            // the worst output's
};

// One pass of `fusescope bisect`: its module's outputs against the input module's.
struct BisectPass {
  int64_t index = 0;
  QString name;
  bool ran = false;
  bool reused = false;  // the pass changed nothing: the previous module's numbers
  bool ok = true;
  QString verdict;  // as RunOutput's
  double max_abs_error = 0;
  double max_rel_error = 0;
  double to_exact = 0;
  double input_to_exact = 0;
  double seconds = 0;
  QString error;
};

struct BisectReport {
  QString model;
  double rtol = 0;
  double atol = 0;
  int64_t outputs = 0;
  double input_seconds = 0;
  std::vector<BisectPass> passes;
  int first_bad = -1;  // the row of `passes` that first differs; -1 when none does
};

// The summary of a profile the worker measured and saved into the recording.
struct ProfileReport {
  QString module;
  QString device;
  int64_t snapshot = 0;
  int64_t runs = 0;
  double p50_us = 0;
  double p95_us = 0;
  double p99_us = 0;
  double runs_per_second = 0;
  int64_t kernels = 0;
};

struct RunResult {
  RunRequest request;
  QString command_line;  // the command that reproduces it headless, without --progress
  // The worker read a temporary copy of a recording not saved anywhere: the command line
  // names a file that is gone.
  bool temporary_copy = false;
  RunReport run;          // request.kind == kRun
  BisectReport bisect;    // kBisect
  ProfileReport profile;  // kProfile

  // Reads `json`, the standard output of the command `request` names, into `result`; returns
  // an error message, empty on success.
  static QString Parse(const RunRequest& request, const QByteArray& json, RunResult* result);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_RUN_RUN_RESULT_H_
