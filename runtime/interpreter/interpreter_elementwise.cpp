// Elementwise ops with XLA's semantics where they differ from C++: integer division by zero
// and overflow, shifts past the width, NaN through maximum/minimum, saturating float to
// integer conversion, total order comparison.

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "ir/computation.h"
#include "ir/narrow_float.h"
#include "passes/elementwise_semantics.h"
#include "runtime/interpreter/interpreter_ops.h"

namespace fusescope::runtime::internal {
namespace {

using ir::Opcode;
using ir::PrimitiveType;

bool IsUnsignedType(PrimitiveType type) { return passes::IsUnsignedIntegral(type); }

// Element `i` of an operand broadcast from a scalar when the result is larger.
int64_t At(const Literal& operand, int64_t i) { return operand.element_count() == 1 ? 0 : i; }

// The shared semantics (passes/elementwise_semantics.h); callers only pass opcodes of the
// right kind (IsElementwiseKind and the float/integer split below).
double FloatUnary(Opcode opcode, double x) {
  return passes::FloatUnaryOp(opcode, x).value_or(std::numeric_limits<double>::quiet_NaN());
}
double FloatBinary(Opcode opcode, double a, double b) {
  return passes::FloatBinaryOp(opcode, a, b).value_or(std::numeric_limits<double>::quiet_NaN());
}
int64_t IntBinary(Opcode opcode, int64_t a, int64_t b, PrimitiveType type) {
  return passes::IntBinaryOp(opcode, a, b, type).value_or(0);
}
int64_t IntUnary(Opcode opcode, int64_t x, PrimitiveType type) {
  return passes::IntUnaryOp(opcode, x, type).value_or(x);
}

using passes::TotalOrderKey;

template <typename T>
bool Compare(std::string_view direction, T a, T b) {
  return passes::CompareScalars(direction, a, b);
}

StatusOr<Literal> EvaluateCompare(const ir::Instruction& instruction, const Operands& operands,
                                  Literal result) {
  const std::string direction(instruction.attribute("direction").value_or(""));
  if (direction != "EQ" && direction != "NE" && direction != "LT" && direction != "LE" &&
      direction != "GT" && direction != "GE") {
    return InstructionError(instruction, "compare has no valid direction ('" + direction + "')");
  }
  const Literal& a = *operands[0];
  const Literal& b = *operands[1];
  const bool total_order =
      instruction.attribute("type") == std::optional<std::string_view>("TOTALORDER");
  const PrimitiveType type = a.type();
  for (int64_t i = 0; i < result.element_count(); ++i) {
    bool value = false;
    if (a.is_floating()) {
      const double x = a.GetDouble(At(a, i));
      const double y = b.GetDouble(At(b, i));
      value = total_order ? Compare(direction, TotalOrderKey(x), TotalOrderKey(y))
                          : Compare(direction, x, y);
    } else if (IsUnsignedType(type)) {
      value = Compare(direction, static_cast<uint64_t>(a.GetInt(At(a, i))),
                      static_cast<uint64_t>(b.GetInt(At(b, i))));
    } else {
      value = Compare(direction, a.GetInt(At(a, i)), b.GetInt(At(b, i)));
    }
    result.SetInt(i, value);
  }
  return result;
}

StatusOr<Literal> EvaluateConvert(const Literal& operand, Literal result) {
  const bool from_float = operand.is_floating();
  const bool to_float = result.is_floating();
  for (int64_t i = 0; i < result.element_count(); ++i) {
    if (from_float || to_float) {
      result.SetDouble(i, operand.GetDouble(i));
    } else {
      result.SetInt(i, operand.GetInt(i));  // wraps as XLA's integer convert does
    }
  }
  return result;
}

StatusOr<Literal> EvaluateBitcastConvert(const ir::Instruction& instruction, const Literal& operand,
                                         Literal result) {
  if (operand.byte_size() != result.byte_size()) {
    return InstructionError(instruction, "bitcast-convert changes the byte size");
  }
  // Row-major bytes: a wider element's bytes are the narrower elements of its last
  // dimension, little-endian, exactly as XLA defines the mixed-width case.
  std::memcpy(result.data(), operand.data(), result.byte_size());
  if (result.type() == PrimitiveType::kPred) {
    for (int64_t i = 0; i < result.element_count(); ++i) result.SetInt(i, result.GetInt(i));
  }
  return result;
}

StatusOr<Literal> EvaluateReducePrecision(const ir::Instruction& instruction,
                                          const Literal& operand, Literal result) {
  const std::optional<int64_t> exponent_bits = instruction.IntAttribute("exponent_bits");
  const std::optional<int64_t> mantissa_bits = instruction.IntAttribute("mantissa_bits");
  if (!exponent_bits || !mantissa_bits || *exponent_bits < 1 || *mantissa_bits < 0 ||
      *exponent_bits > 11 || *mantissa_bits > 52) {
    return InstructionError(instruction, "reduce-precision needs exponent_bits and mantissa_bits");
  }
  for (int64_t i = 0; i < result.element_count(); ++i) {
    result.SetDouble(i,
                     ir::RoundToBinaryFormat(operand.GetDouble(i), static_cast<int>(*exponent_bits),
                                             static_cast<int>(*mantissa_bits)));
  }
  return result;
}

bool IsFloatOnlyUnary(Opcode opcode) {
  switch (opcode) {
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kLogistic:
    case Opcode::kSqrt:
    case Opcode::kRsqrt:
    case Opcode::kCbrt:
    case Opcode::kSin:
    case Opcode::kCos:
    case Opcode::kTan:
    case Opcode::kTanh:
    case Opcode::kErf:
    case Opcode::kFloor:
    case Opcode::kCeil:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
    case Opcode::kIsFinite:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool IsElementwiseKind(Opcode opcode) {
  if (IsDataMovementKind(opcode)) return false;
  switch (opcode) {
    case Opcode::kCompare:
    case Opcode::kSelect:
    case Opcode::kClamp:
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
    case Opcode::kReducePrecision:
    case Opcode::kNot:
    case Opcode::kPopulationCount:
    case Opcode::kClz:
    case Opcode::kIsFinite:
      return true;
    case Opcode::kReal:
    case Opcode::kImag:
    case Opcode::kComplex:
    case Opcode::kStochasticConvert:
    case Opcode::kRngBitGenerator:
    case Opcode::kRng:
      return false;
    default:
      return ir::IsElementwiseUnary(opcode) || ir::IsElementwiseBinary(opcode);
  }
}

StatusOr<Literal> EvaluateElementwise(const ir::Instruction& instruction,
                                      const Operands& operands) {
  StatusOr<Literal> created = NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal result = std::move(created).value();
  const Opcode opcode = instruction.opcode();
  if (opcode == Opcode::kBitcastConvert) {
    if (operands.size() != 1 || operands[0]->is_tuple())
      return InstructionError(instruction, "needs one array operand");
    return EvaluateBitcastConvert(instruction, *operands[0], std::move(result));
  }
  for (const Literal* operand : operands) {
    if (operand->is_tuple()) return InstructionError(instruction, "an operand is a tuple");
    if (operand->element_count() != result.element_count() && operand->element_count() != 1) {
      return InstructionError(instruction, "operand and result sizes differ");
    }
  }
  switch (opcode) {
    case Opcode::kCompare:
      return EvaluateCompare(instruction, operands, std::move(result));
    case Opcode::kConvert:
      return EvaluateConvert(*operands[0], std::move(result));
    case Opcode::kReducePrecision:
      return EvaluateReducePrecision(instruction, *operands[0], std::move(result));
    case Opcode::kSelect: {
      const Literal& predicate = *operands[0];
      for (int64_t i = 0; i < result.element_count(); ++i) {
        const Literal& chosen = predicate.GetInt(At(predicate, i)) ? *operands[1] : *operands[2];
        CopyElement(chosen, At(chosen, i), result, i);
      }
      return result;
    }
    case Opcode::kClamp: {
      const Literal& low = *operands[0];
      const Literal& x = *operands[1];
      const Literal& high = *operands[2];
      const bool is_unsigned = IsUnsignedType(result.type());
      for (int64_t i = 0; i < result.element_count(); ++i) {
        if (result.is_floating()) {
          const double v =
              FloatBinary(Opcode::kMinimum,
                          FloatBinary(Opcode::kMaximum, x.GetDouble(i), low.GetDouble(At(low, i))),
                          high.GetDouble(At(high, i)));
          result.SetDouble(i, v);
        } else {
          const int64_t v = ApplyScalarInt(
              Opcode::kMinimum,
              ApplyScalarInt(Opcode::kMaximum, x.GetInt(i), low.GetInt(At(low, i)), is_unsigned),
              high.GetInt(At(high, i)), is_unsigned);
          result.SetInt(i, v);
        }
      }
      return result;
    }
    default:
      break;
  }
  const Literal& a = *operands[0];
  if (a.type() != PrimitiveType::kPred && !ir::IsIntegralType(a.type()) && !a.is_floating()) {
    return InstructionError(instruction, "unsupported element type");
  }
  if (operands.size() == 1) {
    if (opcode == Opcode::kIsFinite) {
      for (int64_t i = 0; i < result.element_count(); ++i)
        result.SetInt(i, std::isfinite(a.GetDouble(i)));
      return result;
    }
    if (a.is_floating()) {
      if (opcode == Opcode::kNot || opcode == Opcode::kPopulationCount || opcode == Opcode::kClz) {
        return InstructionError(instruction,
                                std::string(instruction.opcode_name()) + " needs integers");
      }
      for (int64_t i = 0; i < result.element_count(); ++i)
        result.SetDouble(i, FloatUnary(opcode, a.GetDouble(i)));
    } else {
      if (IsFloatOnlyUnary(opcode)) {
        return InstructionError(
            instruction, std::string(instruction.opcode_name()) + " needs floating-point operands");
      }
      for (int64_t i = 0; i < result.element_count(); ++i)
        result.SetInt(i, IntUnary(opcode, a.GetInt(i), a.type()));
    }
    return result;
  }
  if (operands.size() != 2) return InstructionError(instruction, "wrong operand count");
  const Literal& b = *operands[1];
  if (a.is_floating()) {
    if (opcode == Opcode::kAnd || opcode == Opcode::kOr || opcode == Opcode::kXor ||
        opcode == Opcode::kShiftLeft || opcode == Opcode::kShiftRightLogical ||
        opcode == Opcode::kShiftRightArithmetic) {
      return InstructionError(instruction,
                              std::string(instruction.opcode_name()) + " needs integers");
    }
    for (int64_t i = 0; i < result.element_count(); ++i) {
      result.SetDouble(i, FloatBinary(opcode, a.GetDouble(At(a, i)), b.GetDouble(At(b, i))));
    }
  } else {
    if (opcode == Opcode::kAtan2)
      return InstructionError(instruction, "atan2 needs floating-point operands");
    for (int64_t i = 0; i < result.element_count(); ++i) {
      result.SetInt(i, IntBinary(opcode, a.GetInt(At(a, i)), b.GetInt(At(b, i)), a.type()));
    }
  }
  return result;
}

ScalarBinaryOp RecogniseScalarBinaryOp(const ir::Computation& computation) {
  const ir::Instruction* root = computation.root();
  if (root == nullptr || computation.parameter_count() != 2 || root->operand_count() != 2)
    return {};
  const ir::Instruction* p0 = computation.parameter(0);
  const ir::Instruction* p1 = computation.parameter(1);
  if (p0 == nullptr || p1 == nullptr || !p0->shape().IsScalar() || !p1->shape().IsScalar())
    return {};
  const bool in_order = root->operand(0) == p0 && root->operand(1) == p1;
  const bool swapped = root->operand(0) == p1 && root->operand(1) == p0;
  if (!in_order && !swapped) return {};
  switch (root->opcode()) {
    case Opcode::kAdd:
    case Opcode::kMultiply:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kAnd:
    case Opcode::kOr:
      return ScalarBinaryOp{root->opcode()};
    default:
      return {};
  }
}

double ApplyScalarFloat(Opcode opcode, double a, double b) { return FloatBinary(opcode, a, b); }

int64_t ApplyScalarInt(Opcode opcode, int64_t a, int64_t b, bool is_unsigned) {
  if (opcode == Opcode::kMaximum) {
    return is_unsigned ? (static_cast<uint64_t>(a) > static_cast<uint64_t>(b) ? a : b)
                       : std::max(a, b);
  }
  if (opcode == Opcode::kMinimum) {
    return is_unsigned ? (static_cast<uint64_t>(a) < static_cast<uint64_t>(b) ? a : b)
                       : std::min(a, b);
  }
  return IntBinary(opcode, a, b, is_unsigned ? PrimitiveType::kU64 : PrimitiveType::kS64);
}

}  // namespace fusescope::runtime::internal
