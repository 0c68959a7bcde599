#ifndef FUSESCOPE_RUNTIME_CPU_CPU_EXECUTABLE_H_
#define FUSESCOPE_RUNTIME_CPU_CPU_EXECUTABLE_H_

// A compiled module snapshot for the host CPU. Compile() walks the entry computation once and
// decides how each instruction runs:
//   - loop/input fusions and lone elementwise-like instructions: a kernel emitted as MLIR
//     (runtime/kernel_emitter.h) and JIT-compiled (runtime/kernel_compiler.h), "mlir-cpu";
//   - f32/f64 dots and convolutions (im2col), and output fusions of one with an elementwise
//     epilogue: OpenBLAS GEMM, the epilogue as a compiled kernel reading the GEMM's result,
//     "openblas";
//   - parameters, constants, tuples, get-tuple-element and bitcasts: values on the host, no
//     kernel;
//   - while, conditional and call: the loop and branch choice on the host, their
//     computations planned the same way (their kernels compiled, recorded and timed);
//   - everything else (sort, scatter, custom-calls, and
//     what the emitter refuses or the compiler fails on): the reference interpreter on the
//     host, "host", with a note saying why.
// Kernels are emitted while planning and compiled afterwards, the distinct texts concurrently
// (CpuExecutableOptions::compile_threads), each result then attached to its steps in plan
// order. Run() then executes the steps in order with one buffer per value, releasing each
// after its last use and refusing a value that would take the live bytes past the limit
// before allocating it. No MLIR type appears here.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "recording/kernel_record.h"
#include "runtime/cpu/blas_dot.h"
#include "runtime/executable_planning.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/cpu/kernel_config.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

// The note of a small convolution compiled as a loop nest of our own
// (CpuExecutableOptions::emitted_convolution_max_macs): how a tuner tells it from other loop
// kernels, since naming a library in its configuration sends it back to that library.
inline constexpr char kSmallConvolutionNote[] =
    "a small convolution, compiled as a loop nest: a library call would cost more";

struct CpuExecutableOptions {
  LoweringOptions lowering;
  // Per kernel, by instruction name (a tuner's trial, `run --tuned`): its lowering and GEMM
  // library; kernels not named use `lowering` and the default library.
  std::map<std::string, KernelConfig> kernel_configs;
  // Compilers shared with other executables, so that their identical kernels compile once
  // (null: this executable's own).
  std::shared_ptr<KernelCompilerPool> compilers;
  // Refuse a value that would take the bytes held by live values past this.
  int64_t max_live_bytes = int64_t{4} << 30;
  // Recorded in each KernelRecord: the snapshot index the module came from (-1: unknown).
  int snapshot = -1;
  // Refuse a while loop that has not ended after this many iterations.
  int64_t max_while_iterations = 1'000'000;
  // When a kernel fails to compile: run it on the host (its record keeps the failure), or
  // make Compile() fail with the kernel's failing stage.
  bool host_fallback_on_compile_failure = true;
  // f32 dots and convolutions: cblas_dgemm on widened operands by default (the interpreter's
  // numbers, so that comparing with it checks the kernels rather than rounding), or cblas_sgemm
  // (kNative: single-precision speed, differences of about 1e-5 where products cancel).
  BlasPrecision f32_dot_precision = BlasPrecision::kWidened;
  // Threads that compile kernels (each distinct kernel text once): 0 uses every core, 1
  // compiles on the calling thread. The records do not depend on it.
  int compile_threads = 0;
  // Each compiled kernel's record keeps the text after every lowering stage, for `fusescope
  // kernel`, the Kernel view and the recording. Off (a run or profile that stores no
  // kernels), the records have no stages and compiling prints none of them.
  bool keep_lowering_stages = true;
  // A while loop whose state is arrays and whose condition and body are kernels, library
  // calls and constants runs on buffers of its own, planned once; off, every loop runs value
  // by value, as a loop that cannot always does.
  bool flat_loops = true;
  // Dots whose kernel configuration names no library: f32 ones at native precision of at
  // least 64^3 multiply-adds per GEMM through oneDNN on every core, the rest through OpenBLAS
  // (Impl::ChooseDotLibrary says why); off, every such dot through OpenBLAS.
  bool onednn_for_large_gemms = true;
  // Fused kernels of at least this many bytes of arguments whose rows are independent
  // (runtime/row_blocks.h) run cut into blocks of rows, one per thread of the team oneDNN runs
  // on (runtime/cpu/thread_team.h), as XLA:CPU splits a loop fusion's outer loop; 0: never.
  int64_t row_block_min_bytes = int64_t{256} << 10;
  // The threads blocks of rows are cut for; 0: the team's (this process's cores).
  int64_t row_block_threads = 0;
  // Convolutions of at most this many multiply-adds (f32 at native precision, or f64) whose
  // kernel configuration names no library are compiled as loop nests of our own, with their
  // fusion's epilogue, instead of calling a library; 0: never.
  int64_t emitted_convolution_max_macs = int64_t{1} << 18;
  // The same bound for a convolution whose loop nest MLIR cannot vectorize (a strided or
  // dilated window): it runs one multiply-add at a time. A U-Net block's 3x3 stride-2
  // convolution of 147k multiply-adds took 28-31 us as our loop nest, and 15 ms of the
  // block's 144 ms build; through oneDNN, 12-13 us.
  int64_t emitted_unvectorized_convolution_max_macs = int64_t{1} << 15;
};

class CpuExecutable {
 public:
  ~CpuExecutable();
  CpuExecutable(const CpuExecutable&) = delete;
  CpuExecutable& operator=(const CpuExecutable&) = delete;

  // Compiles `module` (which must outlive the executable). Errors: a module that does not
  // verify, no entry computation, and (without host fallback) a kernel that fails to compile.
  static StatusOr<std::unique_ptr<CpuExecutable>> Compile(const ir::Module& module,
                                                          CpuExecutableOptions options = {});

  // Runs the entry computation on one argument per parameter: the root's value (a tuple for
  // a tuple root). Fills last_timings(): one entry per kernel.
  StatusOr<Literal> Run(const std::vector<Literal>& arguments);

  // One record per kernel, in execution order.
  const std::vector<recording::KernelRecord>& kernels() const;
  const std::vector<KernelTiming>& last_timings() const;
  // Seconds Compile() took, all kernels together.
  double compile_seconds() const;
  // Per-kernel clocks around every step (on by default). Off, Run() reads no clock and
  // last_timings() stays zero: the plain run that profiling's overhead is measured against.
  void set_kernel_timing(bool on);
  // Values of the entry computation that kernels and library calls write into buffer
  // assignment's allocations (passes/buffer_assignment), and how many of them found their
  // allocation's bytes free in the last run (from the second run on, most do: no allocation,
  // no page faults).
  int64_t assigned_values() const;
  int64_t reused_values() const;
  // Output fusions of the last run whose library product went into bytes an earlier product
  // left (from the second run on, all of them), not into new zeroed ones.
  int64_t reused_products() const;
  // "12 kernels: 9 mlir-cpu, 2 openblas, 1 host (while)".
  std::string KernelSummary() const;
  // How each while loop runs: "while.6 on its own buffers", or "value by value: " and why
  // (a step on the host, a tuple in the state, ...); "; " between loops, empty without any.
  std::string LoopSummary() const;

 private:
  class Impl;
  explicit CpuExecutable(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_CPU_EXECUTABLE_H_
