#ifndef FUSESCOPE_IMPORTERS_IREE_EXECUTABLE_DUMP_H_
#define FUSESCOPE_IMPORTERS_IREE_EXECUTABLE_DUMP_H_

// A folder iree-compile wrote with `--iree-hal-dump-executable-files-to=DIR` as the kernel
// level of a recording of the same compile (recording/kernel_record.h). For each dispatch
// `D` (a `hal.executable` such as `main_dispatch_0`) it writes, per target variant `V`
// (`embedded_elf_x86_64`):
//   module_D.mlir                 the executable as handed to code generation   -> "source"
//   configured_module_D.mlir      with the lowering configuration chosen         -> "configured"
//   module_D_V_benchmark.mlir     a module that runs the dispatch alone          -> "benchmark"
//   module_D_V.codegen.ll         LLVM IR as code generation emitted it          -> "llvm-ir"
//   module_D_V.linked.ll          ... linked with IREE's device libraries        ->
//   "llvm-ir-linked" module_D_V.optimized.ll       ... after LLVM's optimizations ->
//   "llvm-ir-optimized" module_D_V.s                  the assembly -> "asm"
// (and binaries: .o, .so, .bc, which are not text and are left out). Each dispatch and
// variant becomes one kernel named D (D@V when there are several variants), its stages in
// the order above, backend "iree-<variant>". Files that fit none of these names are ignored.

#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "recording/kernel_record.h"

namespace fusescope::ir {

// True when `folder` holds at least one `module_*.mlir` and one `module_*.s` or `*.ll`.
bool LooksLikeIreeExecutableDump(const std::string& folder);

// The kernels of `folder`, sorted by name; an error when it holds none. Text files larger than
// `max_file_bytes` are refused unread.
StatusOr<std::vector<recording::KernelRecord>> ReadIreeExecutableDump(
    const std::string& folder, int64_t max_file_bytes = int64_t{1} << 28);

// Sets each kernel's instruction to the instruction of `module` named after its dispatch (the
// `hal.executable` or `flow.executable` operation of that symbol, as the MLIR importers name
// instructions); a kernel whose dispatch is not in the module keeps -1 and says so in `note`.
void AttachIreeKernels(const Module& module, std::vector<recording::KernelRecord>& kernels);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_IREE_EXECUTABLE_DUMP_H_
