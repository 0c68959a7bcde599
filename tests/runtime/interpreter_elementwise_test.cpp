// Elementwise ops where XLA's semantics differ from C++'s.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime_test_util.h"

namespace fusescope::runtime {
namespace {

using testing::F32;
using testing::RunValues;
using testing::S32;

std::string Binary(const std::string& type, const std::string& op, const std::string& extra = "") {
  return "HloModule m\nENTRY e {\n  a = " + type + " parameter(0)\n  b = " + type +
         " parameter(1)\n  ROOT r = " + type + " " + op + "(a, b)" + extra + "\n}\n";
}

constexpr double kIntMin = -2147483648.0;

// Division by zero gives -1, INT_MIN / -1 gives INT_MIN; remainder keeps the dividend.
TEST(InterpreterElementwiseTest, IntegerDivisionEdgeCases) {
  EXPECT_EQ(RunValues(Binary("s32[4]", "divide"),
                      {S32({4}, {7, -7, 5, kIntMin}), S32({4}, {2, 2, 0, -1})}),
            (std::vector<double>{3, -3, -1, kIntMin}));
  EXPECT_EQ(RunValues(Binary("s32[4]", "remainder"),
                      {S32({4}, {7, -7, 5, kIntMin}), S32({4}, {2, 2, 0, -1})}),
            (std::vector<double>{1, -1, 5, 0}));
}

// Shifts by the width or more give 0 (or the sign for arithmetic shifts).
TEST(InterpreterElementwiseTest, ShiftsPastTheWidth) {
  EXPECT_EQ(RunValues(Binary("s32[2]", "shift-left"), {S32({2}, {1, 1}), S32({2}, {3, 40})}),
            (std::vector<double>{8, 0}));
  EXPECT_EQ(RunValues(Binary("s32[2]", "shift-right-arithmetic"),
                      {S32({2}, {-8, -8}), S32({2}, {1, 40})}),
            (std::vector<double>{-4, -1}));
  EXPECT_EQ(RunValues(Binary("s32[1]", "shift-right-logical"), {S32({1}, {-8}), S32({1}, {28})}),
            (std::vector<double>{15}));
}

// maximum/minimum propagate NaN.
TEST(InterpreterElementwiseTest, MaximumPropagatesNan) {
  const std::vector<double> out =
      RunValues(Binary("f32[2]", "maximum"), {F32({2}, {1, std::nan("")}), F32({2}, {2, 5})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], 2);
  EXPECT_TRUE(std::isnan(out[1]));
}

// abs of an unsigned value is the value, also above 2^63 (held negative in an int64); +0 is
// the larger of the two zeros.
TEST(InterpreterElementwiseTest, AbsOfUnsignedAndMaximumOfZeros) {
  const std::string abs_text =
      "HloModule m\nENTRY e {\n  a = u64[2] parameter(0)\n  ROOT r = u64[2] abs(a)\n}\n";
  Literal big = testing::Array(ir::PrimitiveType::kU64, {2}, {0, 7});
  big.SetInt(0, std::numeric_limits<int64_t>::min() + 5);  // 2^63 + 5
  const std::vector<double> out = RunValues(abs_text, {big});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], 9223372036854775813.0);
  EXPECT_EQ(out[1], 7);
  const std::vector<double> zeros =
      RunValues(Binary("f32[2]", "maximum"), {F32({2}, {-0.0, 0.0}), F32({2}, {0.0, -0.0})});
  ASSERT_EQ(zeros.size(), 2u);
  EXPECT_FALSE(std::signbit(zeros[0]));
  EXPECT_FALSE(std::signbit(zeros[1]));
}

// Float to integer saturates; NaN becomes 0; fractions truncate.
TEST(InterpreterElementwiseTest, ConvertSaturates) {
  const std::string text =
      "HloModule m\nENTRY e {\n  a = f32[5] parameter(0)\n  ROOT r = s32[5] convert(a)\n}\n";
  EXPECT_EQ(RunValues(text, {F32({5}, {1e10, -1e10, std::nan(""), 2.7, -2.7})}),
            (std::vector<double>{2147483647, kIntMin, 0, 2, -2}));
}

// TOTALORDER orders -0 before +0 and NaN after infinity; FLOAT does not.
TEST(InterpreterElementwiseTest, CompareTotalOrder) {
  const std::string total =
      "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n"
      "  ROOT r = pred[2] compare(a, b), direction=LT, type=TOTALORDER\n}\n";
  const std::string plain =
      "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n"
      "  ROOT r = pred[2] compare(a, b), direction=LT\n}\n";
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(RunValues(total, {F32({2}, {-0.0, inf}), F32({2}, {0.0, std::nan("")})}),
            (std::vector<double>{1, 1}));
  EXPECT_EQ(RunValues(plain, {F32({2}, {-0.0, inf}), F32({2}, {0.0, std::nan("")})}),
            (std::vector<double>{0, 0}));
}

// f16 arithmetic rounds each result to f16: 1 + 2^-11 is a tie and goes to even (1).
TEST(InterpreterElementwiseTest, HalfArithmeticRounds) {
  const std::vector<double> out = RunValues(
      Binary("f16[2]", "add"), {testing::Array(ir::PrimitiveType::kF16, {2}, {1.0, 1.0}),
                                testing::Array(ir::PrimitiveType::kF16, {2},
                                               {std::ldexp(1.0, -11), 3 * std::ldexp(1.0, -11)})});
  EXPECT_EQ(out, (std::vector<double>{1.0, 1.0 + std::ldexp(1.0, -9)}));
  const std::vector<double> bf = RunValues(
      "HloModule m\nENTRY e {\n  a = f32[1] parameter(0)\n  ROOT r = bf16[1] convert(a)\n}\n",
      {F32({1}, {1.0 + 3 * std::ldexp(1.0, -9)})});
  EXPECT_EQ(bf, (std::vector<double>{1.0 + std::ldexp(1.0, -7)}));
}

// select with a scalar predicate, clamp with scalar bounds, constants of several forms.
TEST(InterpreterElementwiseTest, SelectClampAndConstants) {
  const std::string text = R"(HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  lo = f32[] constant(-1)
  hi = f32[] constant(2.5)
  c = f32[4] clamp(lo, a, hi)
  k = f32[4] constant({10, 20, 30, 40})
  t = pred[] constant(false)
  ROOT s = f32[4] select(t, c, k)
})";
  EXPECT_EQ(RunValues(text, {F32({4}, {-5, 0, 1, 9})}), (std::vector<double>{10, 20, 30, 40}));
  const std::string clamp_only = R"(HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  lo = f32[] constant(-1)
  hi = f32[] constant(2.5)
  ROOT c = f32[4] clamp(lo, a, hi)
})";
  EXPECT_EQ(RunValues(clamp_only, {F32({4}, {-5, 0, 1, 9})}), (std::vector<double>{-1, 0, 1, 2.5}));
}

// Transcendentals in double, rounded to f32: within an ulp of the exact value.
TEST(InterpreterElementwiseTest, Transcendentals) {
  const std::string text = R"(HloModule m
ENTRY e {
  a = f32[3] parameter(0)
  x = f32[3] exponential(a)
  l = f32[3] log(x)
  t = f32[3] tanh(l)
  ROOT r = f32[3] rsqrt(x)
})";
  const std::vector<double> out = RunValues(text, {F32({3}, {0, 1, -2})});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[0], 1.0, 1e-7);
  EXPECT_NEAR(out[1], std::exp(-0.5), 1e-7);
  EXPECT_NEAR(out[2], std::exp(1.0), 1e-6);
}

// Mixed-width bitcast-convert: the narrow elements of the last dimension are the wide
// element's bytes, little-endian.
TEST(InterpreterElementwiseTest, BitcastConvertAcrossWidths) {
  StatusOr<Literal> wide =
      testing::RunHlo(R"(HloModule m
ENTRY e {
  a = u32[2,2] parameter(0)
  ROOT b = u64[2] bitcast-convert(a)
})",
                      {testing::Array(ir::PrimitiveType::kU32, {2, 2}, {1, 2, 3, 0})});
  ASSERT_TRUE(wide.ok()) << wide.message();
  EXPECT_EQ(static_cast<uint64_t>(wide->GetInt(0)), (uint64_t{2} << 32) | 1);
  EXPECT_EQ(wide->GetInt(1), 3);
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[1] parameter(0)
  ROOT b = s32[1] bitcast-convert(a)
})",
                      {F32({1}, {1.0})}),
            (std::vector<double>{0x3f800000}));
}

}  // namespace
}  // namespace fusescope::runtime
