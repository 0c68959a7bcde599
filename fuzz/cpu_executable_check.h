#ifndef FUSESCOPE_FUZZ_CPU_EXECUTABLE_CHECK_H_
#define FUSESCOPE_FUZZ_CPU_EXECUTABLE_CHECK_H_

// What every module the interpreter can run must survive on the CPU backend: our CPU
// pipeline, runtime::CpuExecutable compiling its final snapshot, and a run on seeded inputs
// whose outputs match the interpreter's run of that same snapshot (the pipeline's own
// numbers are the pipeline's concern: `fusescope bisect`).

#include <cstdint>
#include <string>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::fuzz {

struct CpuExecutableCheck {
  bool compared = false;  // false: skipped (no seeded inputs, or the interpreter refuses it)
  std::string skipped_because;
  std::string kernel_summary;
  int64_t compiled_kernels = 0;  // mlir-cpu and openblas
};

// An error is a bug of the CPU backend: compiling or running failed on a module the
// interpreter runs, or an output differs beyond rtol 1e-5 / atol 1e-6 (the message names the
// output and the errors).
StatusOr<CpuExecutableCheck> CheckCpuExecutable(const ir::Module& module, uint64_t seed);

}  // namespace fusescope::fuzz

#endif  // FUSESCOPE_FUZZ_CPU_EXECUTABLE_CHECK_H_
