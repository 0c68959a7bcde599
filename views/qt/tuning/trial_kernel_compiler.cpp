#include "views/qt/tuning/trial_kernel_compiler.h"

#include "ir/module.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/cpu/kernel_config.h"

namespace fusescope::views {

TrialKernelCompiler::TrialKernelCompiler(int compile_threads)
    : compile_threads_(compile_threads),
      compilers_(std::make_shared<runtime::KernelCompilerPool>()) {}

TrialKernelCompiler::~TrialKernelCompiler() = default;

StatusOr<recording::KernelRecord> TrialKernelCompiler::Compile(
    const recording::Recording& recording, const tuning::TuningRun& run,
    const tuning::Trial& trial) {
  if (!runtime::KernelCompilerAvailable())
    return Status::Error("this build has no MLIR kernel compiler: no kernel can be compiled");
  if (run.snapshot_index < 0 ||
      run.snapshot_index >= static_cast<int64_t>(recording.snapshots.size())) {
    return Status::Error("tuning run " + std::to_string(run.run_id) + " tuned snapshot " +
                         std::to_string(run.snapshot_index) + ", which the recording lacks");
  }
  runtime::CpuExecutableOptions options;
  options.snapshot = static_cast<int>(run.snapshot_index);
  options.compilers = compilers_;
  options.compile_threads = compile_threads_;
  // The default trial is the default build's kernel: no configuration of its own.
  if (!trial.is_default) {
    auto config = runtime::KernelConfig::Parse(trial.config);
    if (!config.ok()) return Status::Error("trial " + trial.config + ": " + config.message());
    options.kernel_configs[trial.kernel] = *config;
  }
  auto module = recording.snapshots[static_cast<size_t>(run.snapshot_index)].ToModule();
  if (!module.ok()) return module.status();
  auto executable = runtime::CpuExecutable::Compile(**module, std::move(options));
  if (!executable.ok()) return executable.status();
  for (const recording::KernelRecord& record : (*executable)->kernels()) {
    if (record.kernel != trial.kernel) continue;
    return record;
  }
  return Status::Error("snapshot " + std::to_string(run.snapshot_index) + " has no kernel named '" +
                       trial.kernel + "'");
}

}  // namespace fusescope::views
