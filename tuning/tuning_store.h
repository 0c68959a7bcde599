#ifndef FUSESCOPE_TUNING_TUNING_STORE_H_
#define FUSESCOPE_TUNING_TUNING_STORE_H_

// Tuning runs inside a recording file: two tables of their own (tuning_runs, tuning_trials),
// created when the first run is added. Adding a run is one transaction on the existing file:
// a failure or a kill leaves the recording and its earlier runs as they were.

#include <map>
#include <string>
#include <vector>

#include "ir/status.h"
#include "runtime/cpu/kernel_config.h"
#include "tuning/tuning_run.h"

namespace fusescope::tuning {

// Stores `run` in the recording at `path`; returns its id. Its snapshot must exist there.
StatusOr<int64_t> AddTuningRun(const std::string& path, const TuningRun& run);
// Keeps none of run `run_id`'s composed configurations (its steps stay, marked not kept),
// with `module_speedup` as the kept set's measured speed against the default: what `run
// --tuned` applies becomes the defaults. One transaction; an error leaves the file as it was.
Status DropKeptConfigurations(const std::string& path, int64_t run_id, double module_speedup);
// Every tuning run of the recording, by id; none when it has no tuning tables.
StatusOr<std::vector<TuningRun>> LoadTuningRuns(const std::string& path);

// The configuration per kernel of `snapshot_index` that `run --tuned` applies. The latest of
// the recording's runs of it that tuned a kernel decides it: a composed run (TuningRun::
// composed) gives its kept steps and the default for the rest; a run that was not composed (a
// cancelled search) gives each kernel's win (Trial::IsWin), the default where none won.
struct TunedKernel {
  runtime::KernelConfig config;
  std::string config_text;
  double relative = 1;  // the best trial's time over its default's
  double median_us = 0;
  double default_median_us = 0;  // 0 when no run measured the default
  int64_t run_id = -1;
};
StatusOr<std::map<std::string, TunedKernel>> BestConfigs(const std::string& path,
                                                         int64_t snapshot_index);

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_TUNING_STORE_H_
