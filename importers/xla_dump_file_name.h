#ifndef FUSESCOPE_IMPORTERS_XLA_DUMP_FILE_NAME_H_
#define FUSESCOPE_IMPORTERS_XLA_DUMP_FILE_NAME_H_

// What the name of one file in an XLA dump folder (`--xla_dump_to=DIR`) says about it. XLA
// names every file after the module it belongs to:
//
//   module_0068.jit_gpt_block.before_optimizations.txt        the module as handed to XLA
//   module_0068.jit_gpt_block.0012.simplification.after_algsimp.before_dce.txt
//                                                              after one pass (ordinal 12)
//   module_0068.jit_gpt_block.cpu_after_optimizations.txt     the optimized module
//   module_0068.jit_gpt_block.cpu_after_optimizations-buffer-assignment.txt   a report
//   module_0068.jit_gpt_block.ir-no-opt.ll, *.o, *.mlir, ...  other artifacts
//
// The module name may itself contain dots; the ordinal is the first all-digit part (four or
// more digits) that is followed by a pipeline and an `after_` part. Reading a name never
// touches the file.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fusescope::ir {

struct XlaDumpFileName {
  enum class Kind {
    kBeforeOptimizations,  // HLO text: the input module
    kPass,                 // HLO text: the module after one pass
    kAfterOptimizations,   // HLO text: the final module (`cpu_` / `gpu_` ...)
    kNotHlo,               // belongs to the module but is no HLO snapshot
  };

  Kind kind = Kind::kNotHlo;
  int64_t module_id = 0;    // module_NNNN
  std::string module_name;  // "jit_gpt_block"
  // kPass only: the ordinal that orders the snapshots, the pipeline, the pass after which the
  // module was written, and the pass that came next ("" when the name gives none).
  int64_t ordinal = -1;
  std::string pipeline;
  std::string pass;
  std::string next_pass;
  std::string platform;  // kAfterOptimizations: "cpu", "gpu", ...
  std::string what;      // kNotHlo: what the file is ("buffer assignment report", "LLVM IR")

  bool IsHloSnapshot() const { return kind != Kind::kNotHlo; }
};

// nullopt when the name is not `module_<digits>.<name>...`: a file XLA did not write for a
// module (or not in this naming).
std::optional<XlaDumpFileName> ParseXlaDumpFileName(std::string_view file_name);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_XLA_DUMP_FILE_NAME_H_
