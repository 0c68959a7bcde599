// The kernel compiler where MLIR 19 was not found at build time: every kernel reports that it
// cannot be compiled, and the executable runs it on the host instead.

#include "runtime/cpu/kernel_compiler.h"
#include "runtime/cuda/ptx_compiler.h"

namespace fusescope::runtime {

bool KernelCompilerAvailable() { return false; }

unsigned FullUnrollThreshold() { return 0; }
bool LlvmUnrollsPartially() { return false; }

KernelCompilation CompileKernelText(const std::string& mlir_text, const std::string& function,
                                    const LoweringOptions& options, bool keep_stages) {
  return CompileKernelText(mlir_text, function, options, keep_stages, nullptr);
}

KernelCompilation CompileKernelText(const std::string& mlir_text, const std::string&,
                                    const LoweringOptions& options, bool keep_stages,
                                    KernelDiskCache*) {
  KernelCompilation result;
  result.record.backend = "mlir-cpu";
  result.record.options = options.ToString();
  if (keep_stages) result.record.stages.push_back({"input", mlir_text});
  result.record.failed_stage = "input";
  result.record.error = "this build has no MLIR (MLIR 19 was not found when it was configured)";
  return result;
}

std::vector<KernelCompilation> CompileKernelTexts(const std::vector<KernelJob>& jobs,
                                                  bool keep_stages, int threads) {
  return CompileKernelTexts(jobs, keep_stages, threads, nullptr);
}

std::vector<KernelCompilation> CompileKernelTexts(const std::vector<KernelJob>& jobs,
                                                  bool keep_stages, int, KernelDiskCache* cache) {
  std::vector<KernelCompilation> results;
  for (const KernelJob& job : jobs)
    results.push_back(CompileKernelText(*job.text, *job.function, job.options, keep_stages, cache));
  return results;
}

bool PtxCompilerAvailable() { return false; }

// Without MLIR nothing lowers to PTX either: the CUDA executable runs such kernels on the host.
StatusOr<PtxKernel> CompileToPtx(const std::string& mlir_text, const std::string&,
                                 const PtxOptions&, recording::KernelRecord* partial, int) {
  const std::string error = "this build has no MLIR (MLIR 19 was not found when it was configured)";
  if (partial != nullptr) {
    partial->backend = "nvptx";
    partial->stages = {{"input", mlir_text}};
    partial->failed_stage = "input";
    partial->error = error;
  }
  return Status::Error("failed at input: " + error);
}

}  // namespace fusescope::runtime
