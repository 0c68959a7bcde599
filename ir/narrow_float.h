#ifndef FUSESCOPE_IR_NARROW_FLOAT_H_
#define FUSESCOPE_IR_NARROW_FLOAT_H_

// IEEE binary16 (f16) and bfloat16 (bf16) encodings, and rounding a double to a binary
// format of a given width. Rounding is to nearest, ties to even, straight from the double (no
// detour through float, which would round twice), with overflow to infinity as IEEE and XLA do.

#include <cstdint>

namespace fusescope::ir {

// `value` rounded to a binary float with `exponent_bits` and `mantissa_bits` (explicit bits,
// without the implicit one), with subnormals. NaN stays NaN; values past the largest finite
// number become infinity.
double RoundToBinaryFormat(double value, int exponent_bits, int mantissa_bits);

uint16_t DoubleToHalfBits(double value);
double HalfBitsToDouble(uint16_t bits);
uint16_t DoubleToBfloat16Bits(double value);
double Bfloat16BitsToDouble(uint16_t bits);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_NARROW_FLOAT_H_
