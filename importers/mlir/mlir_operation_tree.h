#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_OPERATION_TREE_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_OPERATION_TREE_H_

// MLIR operations as plain data: what both readers of MLIR text produce (libMLIR's parser and
// the tolerant reader) and what the conversion to our IR consumes. Values are referred to by
// their SSA names as printed (`%0`, `%arg1`, `%3#1` for the second result of `%3:2`), so
// the tree needs no MLIR types and survives text that MLIR cannot parse.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fusescope::ir::mlir_import {

struct MlirOperation;

struct MlirBlock {
  std::string label;                        // `^bb0`; empty for an entry block without one
  std::vector<std::string> arguments;       // `%arg0`
  std::vector<std::string> argument_types;  // parallel to arguments ("" when not written)
  std::vector<MlirOperation> operations;
};

struct MlirRegion {
  std::vector<MlirBlock> blocks;
};

struct MlirOperation {
  std::string name;                       // `arith.addf`, `func.func`, `stablehlo.add`
  std::vector<std::string> results;       // one name per result: `%0`, or `%0#0`, `%0#1`
  std::vector<std::string> result_types;  // parallel to results where known, else empty
  std::vector<std::string> operands;      // SSA names, in order
  std::vector<MlirRegion> regions;
  std::string symbol;  // `@main` of a function or module, without `@`
  std::string callee;  // `@f` of a call, without `@`
  // The rest of the op as written (attributes, operand and result syntax), one line, for
  // display and for the dialect mappings that read attributes.
  std::string text;
  std::string location;  // `loc(...)` contents, aliases resolved; may be empty
  int64_t line = 0;      // 1-based, in the file the text came from
  int64_t column = 0;
};

// A section or file read as top-level operations (a `module`, or bare `func.func`s, ...).
struct MlirOperationTree {
  std::vector<MlirOperation> operations;
};

// Operations in the tree, nested ones included.
int64_t CountOperations(const MlirOperationTree& tree);
int64_t CountOperations(const MlirOperation& operation);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_OPERATION_TREE_H_
