#ifndef FUSESCOPE_IMPORTERS_TVM_TVM_DUMP_FOLDER_H_
#define FUSESCOPE_IMPORTERS_TVM_TVM_DUMP_FOLDER_H_

// A folder that TVM's `tvm.ir.instrument.DumpIR(dir)` wrote as a recording: DumpIR writes the
// module as TVMScript after every pass that runs, `NNN_<Pass>.py` numbered in run order
// (`004_LegalizeOps.py`, `066_FuseOps.py`, `091_tirx.BindTarget.py`; passes that build TIR
// while folding constants nest their own pipeline's dumps among the others). Each file is
// one snapshot, in the order of its number, named after the pass in its name; the first is
// the IR after the first pass (the IR before it is not dumped). Files are read by the
// TVMScript reader (tvmscript_reader.h) and built into our IR as MLIR pass logs are
// (mlir_module_builder.h: functions are scope boxes, bindings nodes); ids and provenance are
// carried from one stage to the next by name and structure (xla_dump_provenance.h). A file
// that reads as nothing is left out with a warning; every warning names the stage file, its
// line and column. Each snapshot keeps its file's text verbatim (language "tvmscript"). TVM
// records no timing here: passes take 0 s. Other files in the folder are ignored.

#include <cstdint>
#include <string>
#include <vector>

#include "importers/mlir/mlir_log_importer.h"
#include "ir/status.h"

namespace fusescope::ir::tvm_import {

struct TvmStageFile {
  std::string path;
  int64_t number = 0;
  std::string pass;  // the file name between the number's '_' and ".py"
};

// The `NNN_<Pass>.py` files of `folder` in number order; empty when it is no folder or has
// none.
std::vector<TvmStageFile> FindTvmStageFiles(const std::string& folder);

// A stage file that starts as TVMScript does (`from tvm.script import`, `@I.ir_module`,
// `@R.function`, `@T.prim_func` in its first 4 KiB): Python files of other kinds are not
// taken for stages.
bool LooksLikeTvmDumpFolder(const std::string& folder);

// The same result as an MLIR stage folder's, so that every front door reports it alike:
// `sections` are the stage files (`file` set, `read_by_mlir` false).
StatusOr<mlir_import::MlirLogImport> ImportTvmDumpFolder(
    const std::string& folder, const mlir_import::MlirLogImportOptions& options = {});

}  // namespace fusescope::ir::tvm_import

#endif  // FUSESCOPE_IMPORTERS_TVM_TVM_DUMP_FOLDER_H_
