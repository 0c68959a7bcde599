#ifndef FUSESCOPE_IMPORTERS_MLIR_STABLEHLO_MAPPING_H_
#define FUSESCOPE_IMPORTERS_MLIR_STABLEHLO_MAPPING_H_

// StableHLO and MHLO operations as HLO instructions: the opcode XLA would use and the
// attributes our passes and the interpreter read (dot dimension numbers, broadcast and
// reduce dimensions, compare direction, constant literals, ...), read from the operation's
// text in pretty or generic form. `stablehlo.add` -> add, `dot_general` -> dot,
// `broadcast_in_dim` -> broadcast, `reduce` -> reduce with its body as to_apply.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "importers/mlir/mlir_operation_tree.h"
#include "ir/opcode.h"
#include "ir/shape.h"

namespace fusescope::ir::mlir_import {

struct HloMapping {
  Opcode opcode = Opcode::kUnknown;
  std::vector<std::pair<std::string, std::string>> attributes;  // key, value as HLO writes it
  std::string literal;                                          // constant(...) contents
  // A large constant written in MLIR's hex form: its elements' bytes (ir::ConstantBytes), and
  // `literal` is `{...}`.
  std::vector<uint8_t> constant_bytes;
  std::string region_key = "to_apply";  // where the operation's region goes
  // `stablehlo.reduce ... applies stablehlo.add`: the reducer is this binary opcode on
  // scalars, written without a region.
  std::optional<Opcode> reduction;
  // broadcast_in_dim may stretch dimensions of size 1, HLO's broadcast may not: the operand
  // is first reshaped to this shape (those dimensions dropped).
  std::optional<Shape> reshape_operand;
  bool square = false;  // chlo.square: multiply the operand by itself
  // How the operation's regions become computations: each on its own, its block arguments its
  // parameters (reduce, sort, scatter); or over one tuple, which the builder assembles from
  // the loop-carried values (while) or from the values a branch uses (if, case), captured
  // values of enclosing regions included.
  enum class Regions { kPlain, kWhile, kConditional };
  Regions regions = Regions::kPlain;
  std::vector<std::string> region_keys;  // per region, where region_key is not the same for all
  std::string callee;                    // stablehlo.composite: the function it stands for
  bool tuple_operands = false;           // optimization_barrier: its operands as one tuple
  // A chlo operation HLO has no opcode for (chlo.erf_inv, ...): a call of its expansion
  // (chlo_expansion.h), named without `chlo.`.
  std::string expansion;
};

// nullopt when the operation is not stablehlo/mhlo/chlo (or func.call) or has no HLO
// counterpart here (or its attributes could not be read); then `why`, when given, says which
// (empty for an operation of another dialect). `result` is the operation's result shape, a
// tuple for several results.
std::optional<HloMapping> MapStablehloOperation(const MlirOperation& operation,
                                                const std::vector<Shape>& operand_shapes,
                                                const Shape& result, std::string* why = nullptr);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_STABLEHLO_MAPPING_H_
