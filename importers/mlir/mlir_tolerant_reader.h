#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_TOLERANT_READER_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_TOLERANT_READER_H_

// Reads MLIR text without MLIR: operations, their results, operands, result types, regions,
// blocks and block arguments, symbols and locations, from the generic form and from the
// pretty form of any dialect (stablehlo, mhlo, IREE's, ... which MLIR 19 cannot parse). It
// relies on how MLIR's printer lays text out: one operation per line, a region opened by a
// `{` that ends a line and closed by a line starting with `}`, block labels on lines of
// their own. Within an operation it knows no syntax: every `%value` is an operand, except
// those an operation with regions defines for them (`%arg0: type`, `%iv = ...`, names not
// yet defined). What it cannot place it skips with a warning; it never fails. Text cut off
// inside a region closes the open regions. Nesting deeper than kMaxNesting is skipped with a
// warning. Linear in the text.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "importers/mlir/mlir_operation_tree.h"

namespace fusescope::ir::mlir_import {

struct TolerantReadResult {
  MlirOperationTree tree;
  std::vector<std::string> warnings;  // "FILE:LINE:COL: cause"
  bool cut_off = false;               // the text ended inside a region
};

inline constexpr int kMaxNesting = 200;

// `first_line` is the line number of the text's first line in `file` (for warnings and
// operation positions).
TolerantReadResult ReadMlirTolerantly(std::string_view text, std::string_view file,
                                      int64_t first_line = 1);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_TOLERANT_READER_H_
