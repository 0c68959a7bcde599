#ifndef FUSESCOPE_RUNTIME_CPU_KERNEL_CONFIG_H_
#define FUSESCOPE_RUNTIME_CPU_KERNEL_CONFIG_H_

// How one kernel of a CPU executable is built: its MLIR lowering's knobs and, for dots and
// convolutions (alone or with an epilogue), the GEMM library that computes them. A tuner's
// trial is one KernelConfig; `run --tuned` applies the best one found per kernel.
//
// Text form (a trial's "config", stored in recordings): the lowering's words
// ("tile=16 vector=8 unroll=2", runtime::LoweringOptions), "gemm=NAME" and "threads=N" (the
// library's thread count for this kernel's calls, GemmConfig::threads), in any order, each
// optional: "tile=32 gemm=openblas threads=1". ToString writes the lowering's words first, then
// gemm, then threads.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"
#include "runtime/cpu/gemm.h"
#include "runtime/cpu/kernel_compiler.h"

namespace fusescope::runtime {

struct KernelConfig {
  std::optional<LoweringOptions> lowering;  // unset: the executable's
  std::optional<GemmLibrary> gemm;          // unset: the default library (OpenBLAS)
  int threads = 0;                          // 0: the library's own count

  std::string ToString() const;
  // An error names the word that is wrong.
  static StatusOr<KernelConfig> Parse(std::string_view text);
  bool operator==(const KernelConfig&) const = default;
};

// The GEMM libraries a config may name: "openblas", "onednn", "blis", "mlir".
const std::vector<std::string>& GemmLibraryNames();

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_KERNEL_CONFIG_H_
