#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_MODULE_BUILDER_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_MODULE_BUILDER_H_

// Builds our IR from MLIR operations (mlir_operation_tree.h): every operation one
// instruction named after its first result (`%3` -> `3`), its opcode the op name
// (`linalg.generic`), SSA uses as operands, block arguments as parameters. Every region is a
// computation of its own, called by the operation that holds it (`calls=`); the last
// operation of a region (its terminator) is the root. A region that uses a value of an
// enclosing region gets a parameter for it and the holding operation an extra operand, so
// that every edge stays visible. Result types become shapes where they are tensors, memrefs,
// vectors or scalars (`tensor<?x8xf32>` -> f32[?,8]); other types (`!llvm.ptr`,
// `!hal.buffer`) give an opaque shape with the type kept in the `type` attribute. Several
// results make a tuple, read through get-tuple-element. `loc("f.py":3:1)` becomes
// source_file/source_line metadata, other locations op_name.
//
// Two shapes of module:
//  - kWholeIr (a pass log): the entry computation holds the top-level operations, a
//    `builtin.module` unwrapped; functions are instructions calling their bodies;
//  - kModel (a .mlir file): the function `main` (else the only or last function) is the
//    entry, other functions are computations reached by `call` (to_apply=), func.return
//    becomes the root (a tuple for several values). With `map_stablehlo`, stablehlo/mhlo/
//    chlo operations become HLO instructions (stablehlo_mapping.h); others stay opaque and
//    are counted in `unmapped`, with a warning where a known operation could not map. HLO's
//    regions see no outer values: a while's condition and body take one tuple of the
//    loop-carried values and the outer values either uses (the body passes those through),
//    each branch of an if/case a tuple of the outer values it uses.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "importers/mlir/mlir_operation_tree.h"
#include "ir/module.h"
#include "ir/shape.h"

namespace fusescope::ir::mlir_import {

struct MlirModuleOptions {
  enum class Layout { kWholeIr, kModel };
  Layout layout = Layout::kWholeIr;
  std::string module_name = "mlir";
  std::string file;  // for warnings
  bool map_stablehlo = false;
};

struct MlirModule {
  std::unique_ptr<Module> module;
  std::vector<std::string> warnings;
  std::map<std::string, int64_t> unmapped;  // with map_stablehlo: op name -> how many opaque
  int64_t mapped = 0;                       // operations that became HLO instructions
};

MlirModule BuildModule(const MlirOperationTree& tree, const MlirModuleOptions& options);

// `tensor<4x?xf32>` -> f32[4,?]; scalars `f32`, `i1` (pred), `index` (s64);
// `tuple<tensor<f32>, i32>` -> (f32[], s32[]); nullopt for a type without an array meaning.
std::optional<Shape> ShapeFromMlirType(std::string_view type);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_MODULE_BUILDER_H_
