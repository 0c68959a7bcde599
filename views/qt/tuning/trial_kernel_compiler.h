#ifndef FUSESCOPE_VIEWS_QT_TUNING_TRIAL_KERNEL_COMPILER_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TRIAL_KERNEL_COMPILER_H_

// The kernel a tuning trial measured, compiled again the way the trial built it: the tuned
// snapshot compiled for the CPU with that one kernel's configuration and every other kernel's
// default (tuning::KernelTuner's trials do the same), and that kernel's record, with its
// lowering stages, taken from the executable. Nothing is run. Compilers are kept between calls:
// after the first trial of a snapshot, another compiles its one changed kernel only.
//
// No Qt. Thread-safe: calls may come from any thread, one or several at once.

#include <memory>

#include "ir/status.h"
#include "recording/kernel_record.h"
#include "recording/recording.h"
#include "tuning/tuning_run.h"

namespace fusescope::runtime {
class KernelCompilerPool;
}

namespace fusescope::views {

class TrialKernelCompiler {
 public:
  // `compile_threads`: as runtime::CpuExecutableOptions::compile_threads (0: every core).
  explicit TrialKernelCompiler(int compile_threads = 0);
  ~TrialKernelCompiler();
  TrialKernelCompiler(const TrialKernelCompiler&) = delete;
  TrialKernelCompiler& operator=(const TrialKernelCompiler&) = delete;

  // `trial` of `run`, a run of `recording`. Errors: a snapshot the recording lacks or that does
  // not rebuild, a configuration that does not parse, a build without the MLIR kernel compiler,
  // no kernel of that name in the snapshot. A configuration that fails to lower is no error:
  // the record says where and why (failed_stage, error).
  StatusOr<recording::KernelRecord> Compile(const recording::Recording& recording,
                                            const tuning::TuningRun& run,
                                            const tuning::Trial& trial);

 private:
  int compile_threads_;
  std::shared_ptr<runtime::KernelCompilerPool> compilers_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TRIAL_KERNEL_COMPILER_H_
