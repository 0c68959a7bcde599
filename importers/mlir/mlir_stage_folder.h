#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_STAGE_FOLDER_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_STAGE_FOLDER_H_

// A folder of numbered stage files as a recording: compilers that write one `.mlir` file per
// stage instead of one log (ByteIR's end-to-end tests: `1_hlo_opt.mlir` ... `10b_ptx_codegen
// .mlir`; tt-mlir's pass capture: `<index>_<pass>.mlir`) give one snapshot per file, in the
// order of their numbers (a letter after the number orders stages of one number: 9, 9b, 10,
// 10a, 10b), each named by the rest of its file name. The files are read as the sections of
// an MLIR pass log are (mlir_log_importer.h: libMLIR, else the tolerant reader; scoped files
// are not expected), the first as the input; every warning names the stage file, its line
// and column, and each snapshot keeps its file's text verbatim. Other files in the folder are
// ignored.

#include <cstdint>
#include <string>
#include <vector>

#include "importers/mlir/mlir_log_importer.h"
#include "ir/status.h"

namespace fusescope::ir::mlir_import {

struct StageFile {
  std::string path;
  int64_t number = 0;
  std::string suffix;  // the letters after the number ("b" of 10b), possibly empty
  std::string name;    // the stage's name: the file name after the number and one '_' or '-'
};

// The stage files of `folder` in stage order; empty when it is no folder or has none.
std::vector<StageFile> FindStageFiles(const std::string& folder);

// At least two stage files and no XLA dump file (`module_*.txt`) in `folder`.
bool LooksLikeStageFolder(const std::string& folder);

StatusOr<MlirLogImport> ImportMlirStageFolder(const std::string& folder,
                                              const MlirLogImportOptions& options = {});

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_STAGE_FOLDER_H_
