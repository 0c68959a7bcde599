// Feeds arbitrary bytes to the TVMScript reader (what TVM's DumpIR writes per pass) and builds
// our IR from what it read, as importing a DumpIR folder does. Every warning must carry
// "FILE:LINE:COL: "; every operation read must lie on a line of the text; the built module
// must print as HLO text that parses back (a snapshot is stored as that text). Anything else
// aborts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "importers/mlir/mlir_module_builder.h"
#include "importers/tvm/tvmscript_reader.h"

namespace {

using namespace fusescope::ir::mlir_import;

[[noreturn]] void Die(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "%.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

void CheckPositions(const std::vector<MlirOperation>& operations, int64_t lines) {
  for (const MlirOperation& operation : operations) {
    if (operation.line < 1 || operation.line > lines || operation.column < 1)
      Die("operation outside the text",
          operation.name + " at line " + std::to_string(operation.line));
    for (const MlirRegion& region : operation.regions) {
      for (const MlirBlock& block : region.blocks) CheckPositions(block.operations, lines);
    }
  }
}

void CheckWarning(const std::string& warning) {
  // "fuzz:LINE:COL: cause"
  if (warning.rfind("fuzz:", 0) != 0) Die("warning without file", warning);
  size_t at = 5;
  for (int field = 0; field < 2; ++field) {
    const size_t start = at;
    while (at < warning.size() && warning[at] >= '0' && warning[at] <= '9') ++at;
    if (at == start || at >= warning.size() || warning[at] != ':')
      Die("warning without position", warning);
    ++at;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fusescope::ir::tvm_import::TvmScriptReadResult read =
      fusescope::ir::tvm_import::ReadTvmScript(text, "fuzz");
  for (const std::string& warning : read.warnings) CheckWarning(warning);
  int64_t lines = 1;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  CheckPositions(read.tree.operations, lines);
  MlirModuleOptions options;
  options.file = "fuzz";
  const MlirModule built = BuildModule(read.tree, options);
  const std::string printed = fusescope::ir::PrintModule(*built.module);
  auto reparsed = fusescope::ir::ParseHloModule(printed, "printed");
  if (!reparsed.ok()) Die("built module does not parse back: " + reparsed.message(), printed);
  return 0;
}
