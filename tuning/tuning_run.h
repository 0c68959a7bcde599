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
  // The default build's time of this kernel in each paired run, in the order of samples_us
  // (empty when not measured so): the pairs the sign test of IsWin() counts.
  std::vector<double> baseline_samples_us;
  // Whether the trial beat its default by more than noise: ok, no slower module, at least
  // kMinGain faster by the paired medians, and faster in enough of the paired runs that
  // chance is ruled out (PairsShowFaster). A trial without paired samples is judged on the
  // medians alone.
  bool IsWin() const;
  // The module's outputs against the reference (runtime/output_judgement.h): its verdict
  // ("ok", "ok (exact)", "ill-conditioned", "MISMATCH") and the largest absolute difference.
  std::string verdict;
  double max_abs_error = 0;
  double compile_seconds = 0;  // this kernel's compile
  std::string worker;          // the host (or cluster node) that ran it
  int64_t attempts = 1;        // more than one when a worker was lost and it ran again
};

// The smallest gain a configuration must show over its default (or over the configurations
// kept before it) to count: below it, a paired median is within the noise of a quiet machine.
inline constexpr double kMinGain = 0.02;
// Whether `faster` of `pairs` paired runs being faster is more than chance would give: the
// one-sided sign test at 5 % (each pair is a coin toss when nothing changed). 20 pairs need 15.
bool PairsShowFaster(int64_t faster, int64_t pairs);
// How many of the pairs (a[i], b[i]) have a[i] < b[i].
int64_t CountFaster(const std::vector<double>& a, const std::vector<double>& b);

// One step of putting the kernels' bests together (KernelTuner::Compose): a kernel's best
// configuration added to the ones kept so far, the whole module timed in runs paired with the
// build of the kept ones, and whether it stayed. Per-kernel bests do not compose by
// themselves: two libraries' thread pools fight, a faster kernel leaves a colder cache.
struct CompositionStep {
  std::string kernel;
  std::string config;
  double kernel_gain_us = 0;  // what the kernel's own trial gained over its default
  bool ok = false;            // compiled, ran, and the module's outputs were right
  std::string error;
  double module_us = 0;         // the module's median with it
  double module_before_us = 0;  // the paired median of the build of the kept ones
  int64_t pairs = 0;
  int64_t pairs_faster = 0;
  bool kept = false;
  // module_us / module_before_us (1 when not measured).
  double Relative() const { return module_before_us > 0 ? module_us / module_before_us : 1; }
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
  // Whether the bests were put together (a finished search does; a cancelled one does not),
  // and the steps. A composed run applies only the kept configurations (tuning_store.h).
  bool composed = false;
  std::vector<CompositionStep> composition;
  // The module's median with the kept configurations over the default build's, paired (1
  // when nothing was kept or the run was not composed).
  double module_speedup = 1;
};

// The best trial per kernel: the win (Trial::IsWin) with the lowest Relative(), or the
// default trial where no configuration won; and the default trial.
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
inline double RelativeTime(const Trial& trial, const Trial* default_trial) {
  if (trial.is_default) return 1;
  if (trial.baseline_us > 0) return trial.median_us / trial.baseline_us;
  if (default_trial && default_trial->median_us > 0) return trial.median_us / default_trial->median_us;
  return 1;
}
std::map<std::string, KernelBest> BestPerKernel(const std::vector<Trial>& trials);

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_TUNING_RUN_H_
