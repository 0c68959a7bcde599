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

// The best ok trial per kernel (lowest median), and the default trial it is measured against.
struct KernelBest {
  const Trial* best = nullptr;
  const Trial* baseline = nullptr;  // nullptr when the run has no default trial of the kernel
  int64_t trials = 0;               // trials of this kernel, failed ones included
  int64_t failed = 0;
  // baseline median / best median (1 when either is missing).
  double Speedup() const;
};
std::map<std::string, KernelBest> BestPerKernel(const std::vector<Trial>& trials);

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_TUNING_RUN_H_
