// Feeds arbitrary bytes to the MLIR pass log splitter and the tolerant reader, and builds our
// IR from what they read, as importing a log does. Sections must lie inside the text in
// order; every warning must carry "FILE:LINE:COL: "; every operation read must lie on a line
// of its section; the built module must print as HLO text that parses back (a snapshot is
// stored as that text). Built as a model, StableHLO mapped onto HLO (attributes read from the
// text: gather dimension numbers, windows, paddings), the module also goes through the
// verifier, which must refuse what does not fit rather than index out of bounds. Anything
// else aborts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "importers/mlir/mlir_log_splitter.h"
#include "importers/mlir/mlir_module_builder.h"
#include "importers/mlir/mlir_tolerant_reader.h"
#include "ir/verifier.h"

namespace {

using namespace fusescope::ir::mlir_import;

[[noreturn]] void Die(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "%.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

int64_t LineCount(std::string_view text) {
  int64_t lines = 1;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

void CheckPositions(const std::vector<MlirOperation>& operations, int64_t first, int64_t last) {
  for (const MlirOperation& operation : operations) {
    if (operation.line < first || operation.line > last) {
      Die("operation outside its section",
          operation.name + " at line " + std::to_string(operation.line));
    }
    for (const MlirRegion& region : operation.regions) {
      for (const MlirBlock& block : region.blocks) CheckPositions(block.operations, first, last);
    }
  }
}

void CheckWarning(const std::string& warning) {
  // "fuzz:LINE:COL: cause"
  size_t at = 5;
  for (int field = 0; field < 2; ++field) {
    const size_t start = at;
    while (at < warning.size() && warning[at] >= '0' && warning[at] <= '9') ++at;
    if (at == start || at >= warning.size() || warning[at] != ':')
      Die("warning without position", warning);
    ++at;
  }
  if (warning.rfind("fuzz:", 0) != 0) Die("warning without file", warning);
}

void CheckTree(std::string_view text, int64_t first_line, const std::string& what) {
  const TolerantReadResult read = ReadMlirTolerantly(text, "fuzz", first_line);
  for (const std::string& warning : read.warnings) CheckWarning(warning);
  CheckPositions(read.tree.operations, first_line, first_line + LineCount(text) - 1);
  for (auto layout : {MlirModuleOptions::Layout::kWholeIr, MlirModuleOptions::Layout::kModel}) {
    MlirModuleOptions options;
    options.layout = layout;
    options.file = "fuzz";
    options.map_stablehlo = layout == MlirModuleOptions::Layout::kModel;
    const MlirModule built = BuildModule(read.tree, options);
    const std::string printed = fusescope::ir::PrintModule(*built.module);
    auto reparsed = fusescope::ir::ParseHloModule(printed, "printed");
    if (!reparsed.ok())
      Die("built module does not parse back (" + what + "): " + reparsed.message(), printed);
    if (options.map_stablehlo) (void)fusescope::ir::VerifyModule(*built.module);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const MlirLog log = SplitMlirLog(text);
  size_t previous_end = 0;
  for (const MlirLogSection& section : log.sections) {
    if (section.body_begin > section.body_end || section.body_end > text.size() ||
        section.body_begin < previous_end) {
      Die("section outside the text or out of order", section.DisplayName());
    }
    previous_end = section.body_end;
    CheckTree(text.substr(section.body_begin, section.body_end - section.body_begin),
              section.header_line + 1, section.DisplayName());
  }
  if (log.sections.empty()) CheckTree(text, 1, "whole text");
  return 0;
}
