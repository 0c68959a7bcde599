#include "importers/mlir/mlir_operation_tree.h"

namespace fusescope::ir::mlir_import {

int64_t CountOperations(const MlirOperation& operation) {
  int64_t count = 1;
  for (const MlirRegion& region : operation.regions) {
    for (const MlirBlock& block : region.blocks) {
      for (const MlirOperation& nested : block.operations) count += CountOperations(nested);
    }
  }
  return count;
}

int64_t CountOperations(const MlirOperationTree& tree) {
  int64_t count = 0;
  for (const MlirOperation& operation : tree.operations) count += CountOperations(operation);
  return count;
}

}  // namespace fusescope::ir::mlir_import
