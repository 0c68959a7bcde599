// Elementwise ops with XLA's semantics where they differ from C++: integer division by zero
// and overflow, shifts past the width, NaN through maximum/minimum, saturating float to
// integer conversion, total order comparison.

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "ir/computation.h"
#include "runtime/interpreter_ops.h"
#include "runtime/narrow_float.h"

namespace fusescope::runtime::internal {
namespace {

using ir::Opcode;
using ir::PrimitiveType;

bool IsUnsignedType(PrimitiveType type) {
  return ir::IsIntegralType(type) && !ir::IsSignedIntegralType(type);
}

// Element `i` of an operand broadcast from a scalar when the result is larger.
int64_t At(const Literal& operand, int64_t i) { return operand.element_count() == 1 ? 0 : i; }

double FloatUnary(Opcode opcode, double x) {
  switch (opcode) {
    case Opcode::kAbs:
      return std::fabs(x);
    case Opcode::kNegate:
      return -x;
    case Opcode::kExp:
      return std::exp(x);
    case Opcode::kExpm1:
      return std::expm1(x);
    case Opcode::kLog:
      return std::log(x);
    case Opcode::kLog1p:
      return std::log1p(x);
    case Opcode::kLogistic:
      return 1.0 / (1.0 + std::exp(-x));
    case Opcode::kSqrt:
      return std::sqrt(x);
    case Opcode::kRsqrt:
      return 1.0 / std::sqrt(x);
    case Opcode::kCbrt:
      return std::cbrt(x);
    case Opcode::kSin:
      return std::sin(x);
    case Opcode::kCos:
      return std::cos(x);
    case Opcode::kTan:
      return std::tan(x);
    case Opcode::kTanh:
      return std::tanh(x);
    case Opcode::kErf:
      return std::erf(x);
    case Opcode::kFloor:
      return std::floor(x);
    case Opcode::kCeil:
      return std::ceil(x);
    case Opcode::kRoundNearestAfz:
      return std::round(x);
    case Opcode::kRoundNearestEven:
      return std::nearbyint(x);
    case Opcode::kSign:
      if (std::isnan(x) || x == 0) return x;
      return x > 0 ? 1.0 : -1.0;
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

double FloatBinary(Opcode opcode, double a, double b) {
  switch (opcode) {
    case Opcode::kAdd:
      return a + b;
    case Opcode::kSubtract:
      return a - b;
    case Opcode::kMultiply:
      return a * b;
    case Opcode::kDivide:
      return a / b;
    case Opcode::kRemainder:
      return std::fmod(a, b);
    case Opcode::kPower:
      return std::pow(a, b);
    case Opcode::kAtan2:
      return std::atan2(a, b);
    case Opcode::kMaximum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      return a > b ? a : (b > a ? b : (std::signbit(a) ? b : a));
    case Opcode::kMinimum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      return a < b ? a : (b < a ? b : (std::signbit(a) ? a : b));
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

// Sign-extends the low `bits` of `value`.
int64_t SignExtend(int64_t value, int bits) {
  if (bits >= 64) return value;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(value) & mask;
  if ((low >> (bits - 1)) != 0) low |= ~mask;
  return static_cast<int64_t>(low);
}

uint64_t LowBits(int64_t value, int bits) {
  return bits >= 64 ? static_cast<uint64_t>(value)
                    : static_cast<uint64_t>(value) & ((uint64_t{1} << bits) - 1);
}

int64_t IntPower(int64_t base, int64_t exponent) {
  if (exponent < 0) return base == 1 ? 1 : (base == -1 ? (exponent % 2 ? -1 : 1) : 0);
  uint64_t result = 1;
  uint64_t b = static_cast<uint64_t>(base);
  for (uint64_t e = static_cast<uint64_t>(exponent); e != 0; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  return static_cast<int64_t>(result);
}

int64_t IntBinary(Opcode opcode, int64_t a, int64_t b, PrimitiveType type) {
  const bool is_unsigned = IsUnsignedType(type);
  const int bits = ir::PrimitiveTypeBitWidth(type);
  const auto ua = static_cast<uint64_t>(a);
  const auto ub = static_cast<uint64_t>(b);
  switch (opcode) {
    case Opcode::kAdd:
      return static_cast<int64_t>(ua + ub);
    case Opcode::kSubtract:
      return static_cast<int64_t>(ua - ub);
    case Opcode::kMultiply:
      return static_cast<int64_t>(ua * ub);
    case Opcode::kDivide:
      if (b == 0) return -1;  // all ones, as XLA defines it
      if (is_unsigned) return static_cast<int64_t>(ua / ub);
      if (a == std::numeric_limits<int64_t>::min() && b == -1) return a;
      return a / b;
    case Opcode::kRemainder:
      if (b == 0) return a;
      if (is_unsigned) return static_cast<int64_t>(ua % ub);
      if (b == -1) return 0;
      return a % b;
    case Opcode::kMaximum:
      return is_unsigned ? static_cast<int64_t>(std::max(ua, ub)) : std::max(a, b);
    case Opcode::kMinimum:
      return is_unsigned ? static_cast<int64_t>(std::min(ua, ub)) : std::min(a, b);
    case Opcode::kPower:
      return IntPower(a, b);
    case Opcode::kAnd:
      return a & b;
    case Opcode::kOr:
      return a | b;
    case Opcode::kXor:
      return a ^ b;
    case Opcode::kShiftLeft:
      return LowBits(b, bits) >= static_cast<uint64_t>(bits)
                 ? 0
                 : static_cast<int64_t>(ua << LowBits(b, bits));
    case Opcode::kShiftRightLogical:
      return LowBits(b, bits) >= static_cast<uint64_t>(bits)
                 ? 0
                 : static_cast<int64_t>(LowBits(a, bits) >> LowBits(b, bits));
    case Opcode::kShiftRightArithmetic: {
      const int64_t signed_a = SignExtend(a, bits);
      if (LowBits(b, bits) >= static_cast<uint64_t>(bits)) return signed_a < 0 ? -1 : 0;
      return signed_a >> LowBits(b, bits);
    }
    default:
      return 0;
  }
}

int64_t IntUnary(Opcode opcode, int64_t x, PrimitiveType type) {
  const int bits = type == PrimitiveType::kPred ? 1 : ir::PrimitiveTypeBitWidth(type);
  switch (opcode) {
    case Opcode::kAbs:
      return x < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x;
    case Opcode::kNegate:
      return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
    case Opcode::kNot:
      return type == PrimitiveType::kPred ? !x : ~x;
    case Opcode::kSign:
      if (IsUnsignedType(type)) return x != 0;
      return x > 0 ? 1 : (x < 0 ? -1 : 0);
    case Opcode::kPopulationCount:
      return std::popcount(LowBits(x, bits));
    case Opcode::kClz: {
      const uint64_t low = LowBits(x, bits);
      return low == 0 ? bits : std::countl_zero(low) - (64 - bits);
    }
    default:
      return x;
  }
}

// A key whose integer order is IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +NaN.
int64_t TotalOrderKey(double value) {
  int64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

template <typename T>
bool Compare(std::string_view direction, T a, T b) {
  if (direction == "EQ") return a == b;
  if (direction == "NE") return a != b;
  if (direction == "LT") return a < b;
  if (direction == "LE") return a <= b;
  if (direction == "GT") return a > b;
  return a >= b;  // GE
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
    result.SetDouble(i, RoundToBinaryFormat(operand.GetDouble(i), static_cast<int>(*exponent_bits),
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
