#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_LOG_SPLITTER_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_LOG_SPLITTER_H_

// Splits an MLIR pass log (`--mlir-print-ir-after-all`, `-before-all`, `-after-failure`, as
// mlir-opt and iree-compile write it) into its sections, without MLIR. Headers seen in real
// logs:
//   // -----// IR Dump After CSE (cse) //----- //
//   // -----// IR Dump After CSE (cse) ('func.func' operation: @main) //----- //
//   // -----// IR Dump Before Canonicalizer (canonicalize) //----- //
//   // -----// IR Dump After OneShotBufferize Failed (one-shot-bufferize) //----- //
//   // -----// IR Dump After CSEPass: cse //----- //                     (newer MLIR)
//   // -----// IR Dump After CanonicalizerPass: canonicalize{max-iterations=10} //----- //
// Diagnostics (`file:1:2: error: ...` with their source excerpts) that a failing pass prints
// end the section before them and belong to the section after them. Text before the first
// header is not IR and is ignored. Linear in the text; sections refer into it by offset.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::ir::mlir_import {

struct MlirLogSection {
  bool before = false;          // `IR Dump Before`; otherwise After
  bool failed = false;          // `... Failed ...`
  std::string pass_name;        // `CSE`, `mlir::iree_compiler::IREE::VM::OrdinalAllocationPass`
  std::string pass_argument;    // `cse`; empty when the header names none
  std::string pass_options;     // `{max-iterations=10}` as written, or empty
  std::string scope_operation;  // `func.func` for a scoped dump; empty for the whole IR
  std::string scope_symbol;     // `main` (without `@`); may be empty
  int64_t header_line = 0;      // 1-based line of the header
  size_t body_begin = 0;        // offsets of the IR text in the log
  size_t body_end = 0;
  std::vector<std::string> diagnostics;  // lines printed before the header (errors, notes)

  // "Canonicalizer (canonicalize)", "CSEPass (cse)", "Foo", with " [before]" for Before dumps.
  std::string DisplayName() const;
};

struct MlirLog {
  std::vector<MlirLogSection> sections;
  std::vector<std::string> trailing_diagnostics;  // after the last section's IR
};

// The line of a section header starting at `line`, or nothing; `line` excludes the newline.
bool ParseMlirLogHeader(std::string_view line, MlirLogSection& section);

MlirLog SplitMlirLog(std::string_view text);

// True when `prefix` (the start of a file) holds a section header line.
bool LooksLikeMlirLog(std::string_view prefix);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_LOG_SPLITTER_H_
