#ifndef FUSESCOPE_RUNTIME_CUDA_PTX_COMPILER_H_
#define FUSESCOPE_RUNTIME_CUDA_PTX_COMPILER_H_

// Lowering a kernel to PTX for NVIDIA GPUs through MLIR's GPU dialect and LLVM's NVPTX
// target, and the launch plan a host runs it by. Needs no GPU, driver or CUDA toolkit: the
// PTX is text (ptxas, where installed, checks it; the driver JIT-compiles it at load).
//
// The input is a kernel function as the CPU backend's emitter writes it: `func.func @NAME`
// on static-shaped tensors (linalg, tensor, arith, math). Its lowering, each stage recorded:
// one-shot bufferization with results turned into out-parameters, linalg to parallel loops,
// each outermost parallel loop tiled so its innermost dimension fills a thread block,
// parallel loops mapped to blocks and threads, kernels outlined, NVVM, PTX for `chip`.
// What the host runs is a list of launches with constant grid/block sizes whose arguments
// are the function's buffers (inputs, then outputs), temporaries or constants; a host
// function that needs anything else is refused with the operation named.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/status.h"
#include "recording/kernel_record.h"

namespace fusescope::runtime {

struct PtxOptions {
  std::string chip = "sm_90";        // LLVM 19 emits valid PTX up to sm_90(a)
  std::string features = "+ptx80";  // PTX ISA 8.0, accepted by CUDA 12/13 drivers
  int opt_level = 3;
  int64_t threads_per_block = 256;   // the innermost parallel dimension's tile
  std::string ToString() const;
};

// One argument of a launch, in the order the kernel's parameters take them. A buffer
// expands to its memref descriptor (allocated pointer, aligned pointer, offset, sizes,
// strides): 3 + 2 * rank parameters of 8 bytes.
struct PtxArgument {
  enum class Kind { kIndex, kFloat32, kFloat64, kInteger, kBuffer };
  Kind kind = Kind::kIndex;
  int64_t integer = 0;  // kIndex/kInteger value
  double real = 0;      // kFloat32/kFloat64 value
  int bit_width = 64;   // kInteger
  // kBuffer: the function argument it is (inputs first, then outputs), or, when negative,
  // temporary -(buffer + 1).
  int buffer = 0;
  std::vector<int64_t> shape;    // kBuffer, row-major, identity layout
  int64_t element_bytes = 0;     // kBuffer
};

struct PtxLaunch {
  // A device-to-device copy of arguments[0] into arguments[1] (a reshape's data movement)
  // instead of a kernel launch.
  bool is_copy = false;
  std::string module;  // the gpu.module the kernel is in (its own PTX)
  std::string kernel;  // the entry's name in that PTX
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  std::vector<PtxArgument> arguments;
};

struct PtxTemporary {
  std::vector<int64_t> shape;
  int64_t element_bytes = 0;
};

struct PtxKernel {
  recording::KernelRecord record;  // stages "input" … "ptx"; backend "nvptx"
  // The PTX of each gpu.module, by name (each launch names its module).
  std::vector<std::pair<std::string, std::string>> ptx;
  std::vector<PtxLaunch> launches;
  std::vector<PtxTemporary> temporaries;
  int inputs = 0;   // function arguments that are inputs
  int outputs = 0;  // …followed by this many outputs
  std::string PlanText() const;  // the launch plan as text (also the "launch-plan" stage)
};

// Lowers `mlir_text` (one kernel function named `function`) to PTX. The function either takes
// tensors and returns its outputs, or (as the CPU emitter writes kernels) takes memrefs, the
// first `inputs` of them inputs and the rest outputs it writes. On failure the error names
// the stage, and `partial` (when given) receives the record with the stages before it.
StatusOr<PtxKernel> CompileToPtx(const std::string& mlir_text, const std::string& function,
                                 const PtxOptions& options = {},
                                 recording::KernelRecord* partial = nullptr, int inputs = -1);

// Whether this build can lower to PTX (MLIR with the NVPTX target).
bool PtxCompilerAvailable();

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CUDA_PTX_COMPILER_H_
