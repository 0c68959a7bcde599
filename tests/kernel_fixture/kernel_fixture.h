#ifndef FUSESCOPE_TESTS_KERNEL_FIXTURE_KERNEL_FIXTURE_H_
#define FUSESCOPE_TESTS_KERNEL_FIXTURE_KERNEL_FIXTURE_H_

// Kernels for tests of the kernel level, made of what MLIR 19 itself printed while lowering
// two fusions of sample:mlp (tests/data/kernels, scripts/gen_kernel_fixtures.sh): the store,
// `fusescope kernel` and the Kernel view are checked on real MLIR, LLVM IR and assembly
// until the CPU backend writes such records itself.

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "recording/kernel_record.h"
#include "recording/snapshot.h"

namespace fusescope::testing {

inline std::string ReadFixtureFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The stages of an `mlir-opt --mlir-print-ir-after-all` log, named by pass argument:
// "// -----// IR Dump After Canonicalizer (canonicalize) //----- //" starts "canonicalize".
inline std::vector<recording::KernelStage> ParsePassLog(std::string_view log) {
  std::vector<recording::KernelStage> stages;
  constexpr std::string_view kMarker = "// -----// IR Dump After ";
  size_t at = log.find(kMarker);
  while (at != std::string_view::npos) {
    const size_t line_end = log.find('\n', at);
    const std::string_view header = log.substr(at, line_end - at);
    const size_t open = header.rfind('(');
    const size_t close = header.rfind(')');
    const size_t next = log.find(kMarker, line_end);
    std::string_view body = log.substr(
        line_end + 1, (next == std::string_view::npos ? log.size() : next) - line_end - 1);
    while (body.size() >= 2 && body.substr(body.size() - 2) == "\n\n") body.remove_suffix(1);
    stages.push_back({std::string(header.substr(open + 1, close - open - 1)), std::string(body)});
    at = next;
  }
  return stages;
}

inline std::string KernelDataDir() {
  return std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/kernels/";
}

// input, six MLIR passes (canonicalize changes nothing), llvm-ir, asm.
inline std::vector<recording::KernelStage> BroadcastMaximumStages() {
  const std::string dir = KernelDataDir();
  std::vector<recording::KernelStage> stages = {
      {"input", ReadFixtureFile(dir + "broadcast_maximum_fusion.mlir")}};
  for (auto& stage : ParsePassLog(ReadFixtureFile(dir + "broadcast_maximum_fusion.passes.log")))
    stages.push_back(std::move(stage));
  stages.push_back({"llvm-ir", ReadFixtureFile(dir + "broadcast_maximum_fusion.ll")});
  stages.push_back({"asm", ReadFixtureFile(dir + "broadcast_maximum_fusion.s")});
  return stages;
}

inline std::vector<recording::KernelStage> AddReduceStages() {
  const std::string dir = KernelDataDir();
  std::vector<recording::KernelStage> stages = {
      {"input", ReadFixtureFile(dir + "add_reduce_fusion.mlir")}};
  for (auto& stage : ParsePassLog(ReadFixtureFile(dir + "add_reduce_fusion.passes.log")))
    stages.push_back(std::move(stage));
  return stages;
}

// One kernel for each fusion and dot of the entry computation of `snapshot` (index
// `snapshot_index`): broadcast_maximum_fusion lowered through MLIR to assembly;
// add_reduce_fusion failed in convert-to-llvm, its earlier stages kept; dots and output
// fusions as OpenBLAS calls; the rest on the host.
inline std::vector<recording::KernelRecord> FixtureKernels(const recording::Snapshot& snapshot,
                                                           int snapshot_index) {
  std::vector<recording::KernelRecord> kernels;
  for (const auto& computation : snapshot.computations()) {
    if (!computation->is_entry) continue;
    for (const auto& instruction : computation->instructions) {
      if (instruction->opcode != "fusion" && instruction->opcode != "dot") continue;
      recording::KernelRecord kernel;
      kernel.kernel = instruction->name;
      kernel.instruction_id = instruction->id;
      kernel.snapshot = snapshot_index;
      kernel.options = "tile=32 vector=8";
      if (instruction->name == "broadcast_maximum_fusion") {
        kernel.backend = "mlir-cpu";
        kernel.stages = BroadcastMaximumStages();
        kernel.compile_seconds = 0.0184;
      } else if (instruction->name == "add_reduce_fusion") {
        kernel.backend = "mlir-cpu";
        kernel.stages = AddReduceStages();
        kernel.failed_stage = "convert-to-llvm";
        kernel.error =
            "failed to legalize operation 'builtin.unrealized_conversion_cast' that was "
            "explicitly marked illegal";
        kernel.compile_seconds = 0.0061;
      } else if (instruction->opcode == "dot" ||
                 instruction->text.find("kind=kOutput") != std::string::npos) {
        kernel.backend = "openblas";
        kernel.note = "cblas_sgemm";
        kernel.compile_seconds = 0.0002;
      } else {
        kernel.backend = "host";
        kernel.note = "not lowered yet: runs on the reference interpreter";
      }
      kernels.push_back(std::move(kernel));
    }
  }
  return kernels;
}

}  // namespace fusescope::testing

#endif  // FUSESCOPE_TESTS_KERNEL_FIXTURE_KERNEL_FIXTURE_H_
