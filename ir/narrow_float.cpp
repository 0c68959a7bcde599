#include "ir/narrow_float.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace fusescope::ir {

double RoundToBinaryFormat(double value, int exponent_bits, int mantissa_bits) {
  if (std::isnan(value) || std::isinf(value) || value == 0) return value;
  const int max_exponent = (1 << (exponent_bits - 1)) - 1;
  const int min_exponent = 1 - max_exponent;  // of the smallest normal number
  int exponent = std::ilogb(value);
  if (exponent < min_exponent) exponent = min_exponent;  // subnormal: fixed quantum
  // Scaling by a power of two is exact, so nearbyint (ties to even in the default rounding
  // mode) sees the exact value.
  const double quantum = std::ldexp(1.0, exponent - mantissa_bits);
  const double rounded = std::nearbyint(value / quantum) * quantum;
  const double largest = std::ldexp(2.0 - std::ldexp(1.0, -mantissa_bits), max_exponent);
  if (std::fabs(rounded) > largest)
    return std::copysign(std::numeric_limits<double>::infinity(), value);
  return rounded;
}

uint16_t DoubleToHalfBits(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7e00;
  const double rounded = RoundToBinaryFormat(value, 5, 10);
  if (std::isinf(rounded)) return sign | 0x7c00;
  const double magnitude = std::fabs(rounded);
  if (magnitude == 0) return sign;
  const int exponent = std::ilogb(magnitude);
  if (exponent < -14) {
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::ldexp(magnitude, 24)));
  }
  const auto mantissa = static_cast<uint16_t>(std::ldexp(magnitude, 10 - exponent) - 1024);
  return static_cast<uint16_t>(sign | ((exponent + 15) << 10) | mantissa);
}

double HalfBitsToDouble(uint16_t bits) {
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0x1f) {
    return mantissa ? std::copysign(std::numeric_limits<double>::quiet_NaN(), sign)
                    : sign * std::numeric_limits<double>::infinity();
  }
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

uint16_t DoubleToBfloat16Bits(double value) {
  if (std::isnan(value)) return std::signbit(value) ? 0xffc0 : 0x7fc0;
  // Every bf16 value is a float, so the rounded value converts to float exactly.
  const auto rounded = static_cast<float>(RoundToBinaryFormat(value, 8, 7));
  uint32_t word = 0;
  std::memcpy(&word, &rounded, sizeof word);
  return static_cast<uint16_t>(word >> 16);
}

double Bfloat16BitsToDouble(uint16_t bits) {
  const uint32_t word = static_cast<uint32_t>(bits) << 16;
  float value = 0;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

}  // namespace fusescope::ir
