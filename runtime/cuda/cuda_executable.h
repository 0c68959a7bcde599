#ifndef FUSESCOPE_RUNTIME_CUDA_CUDA_EXECUTABLE_H_
#define FUSESCOPE_RUNTIME_CUDA_CUDA_EXECUTABLE_H_

// A compiled module snapshot for an NVIDIA GPU, planned like runtime/cpu_executable.h.
// Compile() needs no GPU: it walks the entry computation once and decides how each
// instruction runs:
//   - loop/input fusions and lone elementwise-like instructions: the CPU emitter's kernel
//     lowered to PTX with a launch plan (runtime/ptx_compiler.h), "nvptx", the PTX and the
//     plan kept as stages;
//   - f32/f64 dots, as one strided-batched GEMM each (runtime/gemm_plan.h; an operand in an
//     order the GEMM cannot read is transposed by a PTX kernel first), and output fusions of
//     one with an elementwise epilogue: cuBLAS, the epilogue as a PTX kernel reading the
//     GEMM's result, "cublas" (the transposes' PTX kept as stages too);
//   - parameters, constants, tuples, get-tuple-element, reshapes, copies and bitcasts between
//     row-major layouts: device buffers (constants uploaded once, at the first run; the others
//     alias their operands' buffers: values are held in logical row-major order), no kernel;
//   - while, conditional, call, and everything not lowered (what the emitter refuses or PTX
//     lowering fails on, convolutions, dots of other types): the operands
//     copied to the host, the reference interpreter, the result copied back, "host", with a
//     note saying why.
// Run() needs the GPU (the driver's sentence otherwise): it loads the PTX and cuBLAS on first
// use, then runs the steps in order with one device buffer per value, which stays on the
// device from kernel to kernel; a value is released after its last use, and a value that
// would take the live device bytes past the limit is refused before it is allocated. Each
// kernel is timed to its completion (the device is synchronised after it). No CUDA type
// appears here.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "recording/kernel_record.h"
#include "runtime/executable_planning.h"
#include "runtime/cuda/gemm_plan.h"
#include "runtime/literal.h"
#include "runtime/cuda/ptx_compiler.h"

namespace fusescope::runtime {

struct CudaExecutableOptions {
  PtxOptions ptx;
  // Refuse a value that would take the device bytes held by live values past this.
  int64_t max_live_bytes = int64_t{4} << 30;
  // Recorded in each KernelRecord: the snapshot index the module came from (-1: unknown).
  int snapshot = -1;
  // The host interpreter's limit for while loops run on the host.
  int64_t max_while_iterations = 1'000'000;
  // When a kernel fails to lower to PTX: run it on the host (its record keeps the failure),
  // or make Compile() fail with the kernel's failing stage.
  bool host_fallback_on_compile_failure = true;
  // Called on the running thread just before a kernel's launches or GEMM are queued and just
  // after they finished, with the kernel's index in kernels(): an instrumentation point (the
  // profiler tags the launches between them with the kernel, runtime code never sees it).
  std::function<void(size_t kernel)> before_kernel;
  std::function<void(size_t kernel)> after_kernel;
};

class CudaExecutable {
 public:
  ~CudaExecutable();
  CudaExecutable(const CudaExecutable&) = delete;
  CudaExecutable& operator=(const CudaExecutable&) = delete;

  // Plans and lowers `module` (which must outlive the executable); needs no GPU. Errors: a
  // module that does not verify, no entry computation, and (without host fallback) a kernel
  // that fails to lower.
  static StatusOr<std::unique_ptr<CudaExecutable>> Compile(const ir::Module& module,
                                                           CudaExecutableOptions options = {});

  // Runs the entry computation on one argument per parameter: the root's value (a tuple for
  // a tuple root). Fills last_timings(): one entry per kernel. Without a GPU: the driver's
  // "no NVIDIA driver/GPU found: ..." sentence.
  StatusOr<Literal> Run(const std::vector<Literal>& arguments);

  // One record per kernel, in execution order.
  const std::vector<recording::KernelRecord>& kernels() const;
  const std::vector<KernelTiming>& last_timings() const;
  // Kernel `kernel`'s lowering: its PTX and launch plan (null unless it runs PTX: "nvptx",
  // or the epilogue of a "cublas" fusion), and its GEMM (null unless "cublas").
  const PtxKernel* ptx(size_t kernel) const;
  const GemmPlan* gemm(size_t kernel) const;
  // The PTX entry names kernel `kernel` launches (its operand transposes first), in order: the
  // table GPU activity is named by (cuBLAS's own kernels carry cuBLAS's names).
  std::vector<std::string> LaunchNames(size_t kernel) const;
  // Seconds Compile() took, all kernels together.
  double compile_seconds() const;
  // "12 kernels: 9 nvptx, 2 cublas, 1 host (while)".
  std::string KernelSummary() const;

 private:
  class Impl;
  explicit CudaExecutable(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CUDA_CUDA_EXECUTABLE_H_
