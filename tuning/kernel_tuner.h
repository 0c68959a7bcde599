#ifndef FUSESCOPE_TUNING_KERNEL_TUNER_H_
#define FUSESCOPE_TUNING_KERNEL_TUNER_H_

// Measured search over how each kernel of a compiled CPU module is built (tuning/
// search_space.h). A trial compiles the module with one kernel's configuration changed (the
// other kernels are the defaults, compiled once and shared through one compiler pool, so a
// trial compiles one kernel), runs it on the same inputs as every other trial, judges the
// outputs against the reference interpreter's (and the exact f64 answer's), and times that
// kernel where it runs: inside the module, on the values its producers really made, with
// warm-up runs first and each timed run's time kept. A configuration that fails to compile or
// computes a wrong output is a trial with its error, never an abort.
//
// Each timed run of a trial is paired with a run of the default build beside it (before it,
// then after it, in turn: a library's threads that spin after its call slow whatever runs
// next, and the order must not always make that the other build), so the trial carries its
// own baseline measured under the same conditions (a busy machine, a CPU
// whose clock moves): speedups and the best configuration are judged on that ratio, not on
// times taken minutes apart.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/status.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/literal.h"
#include "tuning/search_space.h"
#include "tuning/search_strategy.h"
#include "tuning/tuning_run.h"

namespace fusescope::ir {
class Module;
}

namespace fusescope::tuning {

struct TunerOptions {
  int64_t reps = 20;
  int64_t warmup = 3;
  double rtol = 1e-5;
  double atol = 1e-5;
  // The build every trial starts from (its lowering is each kernel's default).
  runtime::CpuExecutableOptions base;
  const std::atomic<bool>* cancel = nullptr;
};

// A kernel of the default build and its time there.
struct KernelChoice {
  std::string name;
  std::string backend;  // KernelRecord::backend
  KernelKind kind = KernelKind::kFixed;
  double median_us = 0;
  double share = 0;  // of all kernels' median time
};

struct TuneRequest {
  std::vector<std::string> kernels;  // empty: the hottest that cover `coverage` of the time
  double coverage = 0.9;
  SearchSpace space;
  std::string strategy = "grid";
  int64_t trials = 0;  // per kernel; 0: every candidate
  uint64_t seed = 1;
  // After each trial: the trial, how many of the planned trials are done, and how many there are.
  std::function<void(const Trial&, int64_t done, int64_t total)> on_trial;
  // Whether a finished search puts the bests together (KernelTuner::Compose), and who hears
  // each step.
  bool compose = true;
  std::function<void(const CompositionStep&, int64_t done, int64_t total)> on_step;
};

class KernelTuner {
 public:
  // Computes the reference outputs (the interpreter, in the module's types and widened to f64)
  // and measures the default build once. `module` must outlive the tuner.
  static StatusOr<std::unique_ptr<KernelTuner>> Create(const ir::Module& module,
                                                       std::vector<runtime::Literal> inputs,
                                                       int64_t snapshot_index,
                                                       TunerOptions options = {});
  ~KernelTuner();

  // The default build's kernels, slowest first.
  const std::vector<KernelChoice>& kernels() const { return kernels_; }
  // The default build's trial of each kernel (is_default, in kernels() order).
  const std::vector<Trial>& default_trials() const { return default_trials_; }
  // The hottest tunable kernels whose median times add up to `coverage` of all kernels'.
  std::vector<std::string> HottestKernels(double coverage) const;
  // The kernel's kind, or an error naming the kernels there are.
  StatusOr<KernelKind> KindOfKernel(const std::string& kernel) const;

  // Timed and warm-up runs of the trials from now on.
  void SetRuns(int64_t reps, int64_t warmup) {
    options_.reps = reps < 1 ? 1 : reps;
    options_.warmup = warmup < 0 ? 0 : warmup;
  }
  // One configuration of one kernel.
  Trial RunTrial(const std::string& kernel, const runtime::KernelConfig& config);
  // Puts the kernels' bests among `trials` together: each kernel's win (Trial::IsWin), the
  // largest gain first, is added to the configurations kept so far, and kept only when the
  // whole module, timed in runs paired with the build of the kept ones, has the lower median
  // and was faster in enough pairs (PairsShowFaster). Fills run.composition, run.composed and
  // run.module_speedup (the kept build against the default, paired; a kept set that is not
  // faster than the default there, by the same test, is dropped whole). Stops early when
  // cancelled (run.composed stays false). `on_step` hears each step.
  void Compose(
      TuningRun& run,
      const std::function<void(const CompositionStep&, int64_t done, int64_t total)>& on_step = {});
  // What a search of `request` tries: per chosen kernel (each once, in the order asked; without
  // kernels, the hottest covering request.coverage), its strategy over the candidates of its
  // kind except the default build's own configuration, which the default trial measures. An
  // error names a kernel that does not exist or runs on the host.
  struct KernelSearch {
    std::string kernel;
    std::unique_ptr<SearchStrategy> strategy;
  };
  StatusOr<std::vector<KernelSearch>> Plan(const TuneRequest& request) const;
  // The search: the default trials of the chosen kernels, then each kernel's candidates in the
  // strategy's order. Stops early (with the trials so far) when cancelled.
  StatusOr<TuningRun> Tune(const TuneRequest& request);

 private:
  struct Measured;
  KernelTuner(const ir::Module& module, std::vector<runtime::Literal> inputs,
              int64_t snapshot_index, TunerOptions options);
  Status Prepare();
  // Compiles with `configs`, runs, judges and times every kernel; with `against`, each run is
  // preceded by a run of that build, whose times are kept beside. With `keep`, the build is
  // handed back.
  StatusOr<Measured> Measure(const std::map<std::string, runtime::KernelConfig>& configs,
                             runtime::CpuExecutable* against,
                             std::unique_ptr<runtime::CpuExecutable>* keep = nullptr);
  StatusOr<runtime::CpuExecutable*> DefaultBuild();
  StatusOr<std::unique_ptr<runtime::CpuExecutable>> Build(
      const std::map<std::string, runtime::KernelConfig>& configs) const;

  const ir::Module& module_;
  std::vector<runtime::Literal> inputs_;
  int64_t snapshot_index_;
  TunerOptions options_;
  std::shared_ptr<runtime::KernelCompilerPool> compilers_;
  std::unique_ptr<runtime::CpuExecutable> default_build_;
  std::vector<runtime::Literal> reference_;
  std::vector<runtime::Literal> exact_;
  std::vector<KernelChoice> kernels_;
  std::vector<Trial> default_trials_;
  std::string host_;
};

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_KERNEL_TUNER_H_
