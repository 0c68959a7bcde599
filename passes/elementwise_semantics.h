#ifndef FUSESCOPE_PASSES_ELEMENTWISE_SEMANTICS_H_
#define FUSESCOPE_PASSES_ELEMENTWISE_SEMANTICS_H_

// XLA's elementwise semantics on one element, where they differ from C++'s: integer division
// by zero and overflow, shifts past the width, NaN and signed zeros through maximum/minimum,
// unsigned values held in int64. Shared by constant folding (passes/literal_evaluator) and the
// reference interpreter (runtime/), so both compute the same numbers.
//
// Floating-point values are doubles (the caller rounds to the element type); integers are
// int64 holding the element's bits (unsigned 64-bit values may read negative). Each function
// returns nullopt for an opcode that is not an operation of its kind.

#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/opcode.h"
#include "ir/shape.h"

namespace fusescope::passes {

std::optional<double> FloatUnaryOp(ir::Opcode opcode, double x);
std::optional<double> FloatBinaryOp(ir::Opcode opcode, double a, double b);
std::optional<int64_t> IntUnaryOp(ir::Opcode opcode, int64_t x, ir::PrimitiveType type);
std::optional<int64_t> IntBinaryOp(ir::Opcode opcode, int64_t a, int64_t b, ir::PrimitiveType type);

bool IsUnsignedIntegral(ir::PrimitiveType type);
// A key whose integer order is IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +NaN.
int64_t TotalOrderKey(double value);
bool IsComparisonDirection(std::string_view direction);

// compare(a, b) with direction EQ, NE, LT, LE, GT or GE.
template <typename T>
bool CompareScalars(std::string_view direction, T a, T b) {
  if (direction == "EQ") return a == b;
  if (direction == "NE") return a != b;
  if (direction == "LT") return a < b;
  if (direction == "LE") return a <= b;
  if (direction == "GT") return a > b;
  return a >= b;  // GE
}

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_ELEMENTWISE_SEMANTICS_H_
