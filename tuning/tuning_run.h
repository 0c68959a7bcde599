#ifndef FUSESCOPE_TUNING_TUNING_RUN_H_
#define FUSESCOPE_TUNING_TUNING_RUN_H_

// A tuning run as a recording keeps it: every trial in search order, failures included, with
// the time of its kernel (each timed run's, not averaged away) and how its output compared
// with the reference. Plain data.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fusescope::tuning {

struct Trial {
  std::string kernel;  // the kernel's instruction name in the tuned snapshot
  std::string config;  // runtime::KernelConfig text; "" is the executable's default
  bool is_default = false;  // the default build's measurement: the baseline of speedups
  bool ok = false;          // compiled, ran, and its output was judged right
  std::string error;        // why not, when !ok (a compile stage's error, a wrong output, ...)
  std::vector<double> samples_us;  // the kernel's time in each timed run
  double median_us = 0;
  double min_us = 0;
  double max_us = 0;
  // The default build's median for this kernel, from runs interleaved with this trial's (0
  // when not measured so): what the trial's speedup is measured against.
  double baseline_us = 0;
  // median_us / baseline_us: below 1 is faster than the default; the raw median where no
  // baseline was measured.
  double Relative() const { return baseline_us > 0 ? median_us / baseline_us : median_us; }
  // The whole module's median (every kernel's time in a run, added up) in the trial's runs and
  // in the paired default runs (0 when not measured so). A configuration can speed its own
  // kernel up and slow the others down (a library whose threads keep spinning after its call
  // takes the cores from the next kernels): the best is never one that slowed the module.
  double module_us = 0;
  double module_baseline_us = 0;
  // Whether the module got slower by more than the kernel gained, beyond 5 % of the module.
  bool SlowsTheModule() const {
    if (module_us <= 0 || module_baseline_us <= 0) return false;
    const double lost = module_us - module_baseline_us;
    return lost > 0.05 * module_baseline_us && lost > baseline_us - median_us;
  }
  // The module's outputs against the reference (runtime/output_judgement.h): its verdict
  // ("ok", "ok (exact)", "ill-conditioned", "MISMATCH") and the largest absolute difference.
  std::string verdict;
  double max_abs_error = 0;
  double compile_seconds = 0;  // this kernel's compile
  std::string worker;          // the host (or cluster node) that ran it
  int64_t attempts = 1;        // more than one when a worker was lost and it ran again
};

struct TuningRun {
  int64_t run_id = -1;  // set once stored
  int64_t snapshot_index = -1;
  std::string strategy;  // "grid", "random", "evolutionary"
  std::string space;     // SearchSpace::ToString()
  std::string executor;  // "local" or "ray"
  std::string machine;   // profiler::MachineInfo::Key()
  std::string settings;  // "reps=20 warmup=3 seed=1 ..."
  std::string created_at;
  std::vector<Trial> trials;  // in search order, the defaults first
};

// The best ok trial per kernel (lowest Relative(), the default trial counting as 1), and the
// default trial.
struct KernelBest {
  const Trial* best = nullptr;
  const Trial* baseline = nullptr;  // nullptr when the run has no default trial of the kernel
  int64_t trials = 0;               // trials of this kernel, failed ones included
  int64_t failed = 0;
  // The best trial's paired baseline over its median (1 when the default is best or nothing
  // was measured).
  double Speedup() const;
};
// A trial's time relative to its kernel's default: Relative() for paired trials, 1 for the
// default trial itself, median / default median otherwise.
// Inline: the views draw it without linking the tuner.
inline double RelativeTime(const Trial& trial, const Trial* default_trial) {
  if (trial.is_default) return 1;
  if (trial.baseline_us > 0) return trial.median_us / trial.baseline_us;
  if (default_trial && default_trial->median_us > 0) return trial.median_us / default_trial->median_us;
  return 1;
}
std::map<std::string, KernelBest> BestPerKernel(const std::vector<Trial>& trials);

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_TUNING_RUN_H_
