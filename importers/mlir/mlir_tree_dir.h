#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_TREE_DIR_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_TREE_DIR_H_

// A folder written by `--mlir-print-ir-after-all --mlir-print-ir-tree-dir=DIR` (mlir-opt,
// iree-compile) as a recording. MLIR writes each dump to a file of its own, in a folder per
// operation scope (`builtin_module_no-symbol-name/util_func_main/`, nested as the operations
// are: `.../hal_executable_main_dispatch_0/hal_executable_variant_embedded_elf_x86_64/
// builtin_module_no-symbol-name/func_func_.../`), named by counters and the pass argument:
// `17_inline.mlir`, `17_2_canonicalize.mlir`. The counters are, outermost first, the number of
// the latest dump of each enclosing operation and the number of this dump of the operation
// itself, so the files in run order are the counter lists in lexicographic order (a parent's
// dump N before the dumps of its children made while its latest dump was N); files of two
// operations with the same counters (passes run on sibling functions) are ordered by path.
// Each file holds one section of a pass log, header included; they are read as one log
// (mlir_log_importer.h) in that order. A nested operation's dump is scoped to it
// (`('util.func' operation: @main)`) so that it replaces only that operation in the IR
// carried along. A module nested in another operation (the `builtin.module` inside each
// `hal.executable.variant`) has no symbol, so its dumps could not say which module they are:
// in every file such a module is named after the scope folders of the operations enclosing it
// (`module @hal_executable_main_dispatch_0.hal_executable_variant_embedded_elf_x86_64.module`),
// the one change made to the text, and its dumps replace only that module (not the variant's
// `hal.executable.export` beside it). A nested operation with no symbol at all (`util.initializer`)
// is found by its name. Every warning names the dump file and its line. Files that are no dump are
// ignored.

#include <cstdint>
#include <string>
#include <vector>

#include "importers/mlir/mlir_log_importer.h"
#include "ir/status.h"

namespace fusescope::ir::mlir_import {

struct TreeDumpFile {
  std::string path;
  std::vector<int64_t> counters;     // outermost first
  std::string pass;                  // the pass argument in the name (`canonicalize`)
  std::vector<std::string> folders;  // the scope folders below the root, outermost first
};

// The dump files under `folder` in run order (at most kMaxTreeDepth folders deep).
std::vector<TreeDumpFile> FindTreeDumpFiles(const std::string& folder);

inline constexpr int kMaxTreeDepth = 16;

// A folder holding, at some depth, a file named `N[_N...]_<pass>.mlir` that starts with an
// `// -----// IR Dump` header.
bool LooksLikeMlirTreeDir(const std::string& folder);

StatusOr<MlirLogImport> ImportMlirTreeDir(const std::string& folder,
                                          const MlirLogImportOptions& options = {});

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_TREE_DIR_H_
