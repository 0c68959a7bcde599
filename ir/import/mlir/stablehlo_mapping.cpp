#include "ir/import/mlir/stablehlo_mapping.h"

#include <string_view>
#include <unordered_map>

#include "ir/import/mlir/mlir_text_scan.h"

namespace fusescope::ir::mlir_import {
namespace {

// Operations whose HLO counterpart takes the same operands and no attributes.
const std::unordered_map<std::string_view, Opcode>& PlainOperations() {
  static const auto* table = new std::unordered_map<std::string_view, Opcode>{
      {"abs", Opcode::kAbs},
      {"add", Opcode::kAdd},
      {"and", Opcode::kAnd},
      {"atan2", Opcode::kAtan2},
      {"cbrt", Opcode::kCbrt},
      {"ceil", Opcode::kCeil},
      {"clamp", Opcode::kClamp},
      {"count_leading_zeros", Opcode::kClz},
      {"cosine", Opcode::kCos},
      {"divide", Opcode::kDivide},
      {"exponential", Opcode::kExp},
      {"exponential_minus_one", Opcode::kExpm1},
      {"floor", Opcode::kFloor},
      {"is_finite", Opcode::kIsFinite},
      {"log", Opcode::kLog},
      {"log_plus_one", Opcode::kLog1p},
      {"logistic", Opcode::kLogistic},
      {"maximum", Opcode::kMaximum},
      {"minimum", Opcode::kMinimum},
      {"multiply", Opcode::kMultiply},
      {"negate", Opcode::kNegate},
      {"not", Opcode::kNot},
      {"or", Opcode::kOr},
      {"popcnt", Opcode::kPopulationCount},
      {"power", Opcode::kPower},
      {"remainder", Opcode::kRemainder},
      {"round_nearest_afz", Opcode::kRoundNearestAfz},
      {"round_nearest_even", Opcode::kRoundNearestEven},
      {"rsqrt", Opcode::kRsqrt},
      {"select", Opcode::kSelect},
      {"shift_left", Opcode::kShiftLeft},
      {"shift_right_arithmetic", Opcode::kShiftRightArithmetic},
      {"shift_right_logical", Opcode::kShiftRightLogical},
      {"sign", Opcode::kSign},
      {"sine", Opcode::kSin},
      {"sqrt", Opcode::kSqrt},
      {"subtract", Opcode::kSubtract},
      {"tan", Opcode::kTan},
      {"tanh", Opcode::kTanh},
      {"xor", Opcode::kXor},
      {"convert", Opcode::kConvert},
      {"reshape", Opcode::kReshape},
      {"bitcast_convert", Opcode::kBitcastConvert},
      {"real", Opcode::kReal},
      {"imag", Opcode::kImag},
      {"complex", Opcode::kComplex},
      {"tuple", Opcode::kTuple},
      {"optimization_barrier", Opcode::kOptimizationBarrier},
  };
  return *table;
}

}  // namespace

std::optional<HloMapping> MapStablehloOperation(const MlirOperation& operation,
                                                const std::vector<Shape>& /*operand_shapes*/,
                                                const Shape& /*result*/) {
  std::string_view name = operation.name;
  if (name.rfind("stablehlo.", 0) == 0) {
    name.remove_prefix(10);
  } else if (name.rfind("mhlo.", 0) == 0) {
    name.remove_prefix(5);
  } else {
    return std::nullopt;
  }
  if (auto plain = PlainOperations().find(name); plain != PlainOperations().end()) {
    HloMapping mapping;
    mapping.opcode = plain->second;
    return mapping;
  }
  return std::nullopt;
}

}  // namespace fusescope::ir::mlir_import
