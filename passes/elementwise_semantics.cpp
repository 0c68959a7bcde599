#include "passes/elementwise_semantics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace fusescope::passes {
namespace {

using ir::Opcode;
using ir::PrimitiveType;

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

}  // namespace

bool IsUnsignedIntegral(PrimitiveType type) {
  return ir::IsIntegralType(type) && !ir::IsSignedIntegralType(type);
}

int64_t TotalOrderKey(double value) {
  int64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

bool IsComparisonDirection(std::string_view direction) {
  return direction == "EQ" || direction == "NE" || direction == "LT" || direction == "LE" ||
         direction == "GT" || direction == "GE";
}

std::optional<double> FloatUnaryOp(Opcode opcode, double x) {
  switch (opcode) {
    case Opcode::kAbs: return std::fabs(x);
    case Opcode::kNegate: return -x;
    case Opcode::kExp: return std::exp(x);
    case Opcode::kExpm1: return std::expm1(x);
    case Opcode::kLog: return std::log(x);
    case Opcode::kLog1p: return std::log1p(x);
    case Opcode::kLogistic: return 1.0 / (1.0 + std::exp(-x));
    case Opcode::kSqrt: return std::sqrt(x);
    case Opcode::kRsqrt: return 1.0 / std::sqrt(x);
    case Opcode::kCbrt: return std::cbrt(x);
    case Opcode::kSin: return std::sin(x);
    case Opcode::kCos: return std::cos(x);
    case Opcode::kTan: return std::tan(x);
    case Opcode::kTanh: return std::tanh(x);
    case Opcode::kErf: return std::erf(x);
    case Opcode::kFloor: return std::floor(x);
    case Opcode::kCeil: return std::ceil(x);
    case Opcode::kRoundNearestAfz: return std::round(x);
    case Opcode::kRoundNearestEven: return std::nearbyint(x);
    case Opcode::kSign:
      if (std::isnan(x) || x == 0) return x;
      return x > 0 ? 1.0 : -1.0;
    default: return std::nullopt;
  }
}

std::optional<double> FloatBinaryOp(Opcode opcode, double a, double b) {
  switch (opcode) {
    case Opcode::kAdd: return a + b;
    case Opcode::kSubtract: return a - b;
    case Opcode::kMultiply: return a * b;
    case Opcode::kDivide: return a / b;
    case Opcode::kRemainder: return std::fmod(a, b);
    case Opcode::kPower: return std::pow(a, b);
    case Opcode::kAtan2: return std::atan2(a, b);
    // NaN in, NaN out; +0 is larger than -0.
    case Opcode::kMaximum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      return a > b ? a : (b > a ? b : (std::signbit(a) ? b : a));
    case Opcode::kMinimum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
      return a < b ? a : (b < a ? b : (std::signbit(a) ? a : b));
    default: return std::nullopt;
  }
}

std::optional<int64_t> IntBinaryOp(Opcode opcode, int64_t a, int64_t b, PrimitiveType type) {
  const bool is_unsigned = IsUnsignedIntegral(type);
  const int bits = ir::PrimitiveTypeBitWidth(type);
  const auto ua = static_cast<uint64_t>(a);
  const auto ub = static_cast<uint64_t>(b);
  switch (opcode) {
    case Opcode::kAdd: return static_cast<int64_t>(ua + ub);
    case Opcode::kSubtract: return static_cast<int64_t>(ua - ub);
    case Opcode::kMultiply: return static_cast<int64_t>(ua * ub);
    // x / 0 is all ones and x % 0 is x; MIN / -1 wraps to MIN with remainder 0.
    case Opcode::kDivide:
      if (b == 0) return -1;
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
    case Opcode::kPower: return IntPower(a, b);
    case Opcode::kAnd: return static_cast<int64_t>(ua & ub);
    case Opcode::kOr: return static_cast<int64_t>(ua | ub);
    case Opcode::kXor: return static_cast<int64_t>(ua ^ ub);
    // A shift by the width or more gives 0 (or the sign, arithmetic right).
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
    default: return std::nullopt;
  }
}

std::optional<int64_t> IntUnaryOp(Opcode opcode, int64_t x, PrimitiveType type) {
  const int bits = type == PrimitiveType::kPred ? 1 : ir::PrimitiveTypeBitWidth(type);
  const auto ux = static_cast<uint64_t>(x);
  switch (opcode) {
    case Opcode::kAbs:
      return IsUnsignedIntegral(type) || x >= 0 ? x : static_cast<int64_t>(0 - ux);
    case Opcode::kNegate: return static_cast<int64_t>(0 - ux);
    case Opcode::kNot:
      return type == PrimitiveType::kPred ? (x == 0 ? 1 : 0) : static_cast<int64_t>(~ux);
    case Opcode::kSign:
      if (IsUnsignedIntegral(type)) return x != 0;
      return x > 0 ? 1 : (x < 0 ? -1 : 0);
    case Opcode::kPopulationCount: return std::popcount(LowBits(x, bits));
    case Opcode::kClz: {
      const uint64_t low = LowBits(x, bits);
      return low == 0 ? bits : std::countl_zero(low) - (64 - bits);
    }
    default: return std::nullopt;
  }
}

}  // namespace fusescope::passes
