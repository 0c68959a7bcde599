#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_MODEL_IMPORTER_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_MODEL_IMPORTER_H_

// A single .mlir file as a model: read by libMLIR or, where it refuses (pretty stablehlo,
// mhlo), by the tolerant reader; StableHLO/MHLO operations become HLO instructions so that
// our pipeline can compile the module; other dialects (tosa, linalg, arith, ...) load as a
// graph of opaque operations, which can be viewed but not compiled. `unmapped` names them.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::ir::mlir_import {

struct MlirModelImport {
  std::unique_ptr<Module> module;
  std::vector<std::string> warnings;
  std::map<std::string, int64_t> unmapped;  // op name -> count, kept opaque
  int64_t mapped = 0;
  bool read_by_mlir = false;
  std::string mlir_error;  // why libMLIR refused it

  bool compilable() const { return unmapped.empty() && mapped > 0; }
  // "12 operations have no HLO counterpart: linalg.generic (3), tosa.add (9)".
  std::string UnmappedSummary() const;
};

StatusOr<MlirModelImport> ImportMlirModelText(std::string_view text, const std::string& path);
StatusOr<MlirModelImport> ImportMlirModelFile(const std::string& path,
                                              int64_t max_file_bytes = int64_t{1} << 30);

// A recording that holds the module as its input and no pass: how a module that cannot be
// compiled (tosa, linalg) is shown. The module is moved out of `imported`.
recording::Recording GraphOnlyRecording(MlirModelImport& imported, const std::string& path);

// True for a path ending in `.mlir`.
bool IsMlirPath(std::string_view path);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_MODEL_IMPORTER_H_
