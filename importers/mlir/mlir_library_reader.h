#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_LIBRARY_READER_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_LIBRARY_READER_H_

// Reads MLIR text with MLIR's own parser (libMLIR 19, unregistered dialects allowed, the
// upstream dialects a pass log or model uses registered) into the plain operation tree. SSA
// names are those MLIR's printer gives, which are the names the log was printed with. It
// refuses what MLIR refuses: the pretty form of dialects MLIR does not ship (stablehlo,
// mhlo, IREE's), with MLIR's first error as "FILE:LINE:COL: cause". MLIR's headers stay in
// the .cpp; where MLIR was not found the reader refuses everything.

#include <cstdint>
#include <string_view>

#include "importers/mlir/mlir_operation_tree.h"
#include "ir/status.h"

namespace fusescope::ir::mlir_import {

bool MlirLibraryAvailable();

// `first_line`: the line of `text`'s first line in `file`, so that errors point into it.
StatusOr<MlirOperationTree> ReadMlirWithLibrary(std::string_view text, std::string_view file,
                                                int64_t first_line = 1);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_LIBRARY_READER_H_
