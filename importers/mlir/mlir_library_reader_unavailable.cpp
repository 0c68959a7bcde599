// The MLIR reader where this build has no libMLIR: it refuses, and the tolerant reader reads.
#include "importers/mlir/mlir_library_reader.h"

#include <string>

namespace fusescope::ir::mlir_import {

bool MlirLibraryAvailable() { return false; }

StatusOr<MlirOperationTree> ReadMlirWithLibrary(std::string_view /*text*/, std::string_view file,
                                                int64_t /*first_line*/) {
  return Status::Error(std::string(file) + ": this fusescope was built without libMLIR");
}

}  // namespace fusescope::ir::mlir_import
