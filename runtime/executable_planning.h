#ifndef FUSESCOPE_RUNTIME_EXECUTABLE_PLANNING_H_
#define FUSESCOPE_RUNTIME_EXECUTABLE_PLANNING_H_

// What the compiled executables (runtime/cpu_executable.h, runtime/cuda_executable.h) decide
// alike when they plan a module snapshot: which instructions are values without a kernel,
// which fusions are a library contraction plus an epilogue, and how such a fusion splits into
// its dot and an epilogue kernel. Backend-neutral: the library check is the caller's.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/instruction.h"
#include "ir/shape.h"
#include "ir/status.h"
#include "recording/kernel_record.h"
#include "runtime/kernel_emitter.h"

namespace fusescope::runtime {

// Wall time of one kernel in the last run, summed over its executions (a kernel inside a
// while loop runs once per iteration).
struct KernelTiming {
  size_t kernel = 0;  // index into the executable's kernels()
  double seconds = 0;
  int64_t executions = 0;
};

// Bytes of a value of `shape` (a tuple: its elements'), -1 on overflow or a negative size.
int64_t ShapeBytes(const ir::Shape& shape);

// "12 kernels: 9 mlir-cpu, 2 openblas, 1 host (while)": the records counted by backend, the
// host's by opcode.
std::string SummarizeKernels(const std::vector<recording::KernelRecord>& records,
                             const std::map<std::string, int64_t>& host_opcodes);

// Parameters, constants, tuples, get-tuple-element and bitcasts: values, no kernel.
bool IsValueOpcode(ir::Opcode opcode);

// Output fusions, and custom ones holding a dot or convolution (XLA's library fusions around
// a dot): a library call plus an epilogue kernel.
bool IsContractionFusion(const ir::Instruction& fusion);

// A contraction fusion split into its one dot or convolution, which the library computes from
// two fusion operands, and the rest as an epilogue kernel whose inputs are the fusion's
// parameters followed by the contraction's result.
struct ContractionFusion {
  const ir::Instruction* contraction = nullptr;
  int64_t lhs = -1;  // the fusion operands that are its operands
  int64_t rhs = -1;
  bool tuple_result = false;
  EmittedKernel epilogue;
};

// `library_check` says whether the backend's library takes the contraction (its refusal is
// the error). Errors: no or several contractions, an operand computed inside the fusion, and
// the emitter's refusal of the epilogue.
StatusOr<ContractionFusion> SplitContractionFusion(
    const ir::Instruction& fusion,
    const std::function<Status(const ir::Instruction&)>& library_check);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_EXECUTABLE_PLANNING_H_
