#include "runtime/literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ir/hlo_parser.h"
#include "ir/narrow_float.h"
#include "runtime/npy.h"
#include "runtime/seeded_inputs.h"
#include "runtime_test_util.h"

namespace fusescope::runtime {
namespace {

using testing::F32;

// f16 rounds to nearest even, overflows to infinity and keeps subnormals.
TEST(NarrowFloatTest, HalfRoundsToNearestEven) {
  EXPECT_EQ(ir::HalfBitsToDouble(ir::DoubleToHalfBits(1.0 + std::ldexp(1.0, -10))),
            1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(ir::HalfBitsToDouble(ir::DoubleToHalfBits(1.0 + std::ldexp(1.0, -11))),
            1.0);  // tie: even
  EXPECT_EQ(ir::HalfBitsToDouble(ir::DoubleToHalfBits(1.0 + 3 * std::ldexp(1.0, -11))),
            1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(ir::DoubleToHalfBits(65504.0), 0x7bff);
  EXPECT_EQ(ir::DoubleToHalfBits(65520.0), 0x7c00);  // halfway past the largest: infinity
  EXPECT_EQ(ir::DoubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(ir::DoubleToHalfBits(-2.0), 0xc000);
  EXPECT_TRUE(std::isnan(ir::HalfBitsToDouble(ir::DoubleToHalfBits(std::nan("")))));
}

// bf16 rounds straight from double: going through float first would round twice.
TEST(NarrowFloatTest, Bfloat16RoundsOnceFromDouble) {
  EXPECT_EQ(ir::Bfloat16BitsToDouble(ir::DoubleToBfloat16Bits(1.0 + std::ldexp(1.0, -8))),
            1.0);  // tie
  const double above_tie = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  EXPECT_EQ(ir::Bfloat16BitsToDouble(ir::DoubleToBfloat16Bits(above_tie)),
            1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(ir::DoubleToBfloat16Bits(1.0), 0x3f80);
  EXPECT_EQ(ir::DoubleToBfloat16Bits(std::numeric_limits<double>::infinity()), 0x7f80);
}

// Integers wrap on SetInt; float to integer saturates and sends NaN to 0.
TEST(LiteralTest, TypedAccessWrapsAndSaturates) {
  Literal s8 = Literal::Create(ir::Shape(ir::PrimitiveType::kS8, {3})).value();
  s8.SetInt(0, 130);
  s8.SetDouble(1, 1e9);
  s8.SetDouble(2, std::nan(""));
  EXPECT_EQ(s8.GetInt(0), -126);
  EXPECT_EQ(s8.GetInt(1), 127);
  EXPECT_EQ(s8.GetInt(2), 0);
  Literal u64 = Literal::ScalarInt(ir::PrimitiveType::kU64, -1);
  EXPECT_EQ(u64.GetDouble(0), 18446744073709551615.0);
  EXPECT_EQ(u64.byte_size(), 8u);
}

// Dynamic dimensions and overflowing sizes are refused before any allocation.
TEST(LiteralTest, RefusesShapesItCannotHold) {
  EXPECT_FALSE(
      Literal::Create(ir::Shape(ir::PrimitiveType::kF32, {int64_t{1} << 40, int64_t{1} << 40}))
          .ok());
  EXPECT_FALSE(Literal::Create(ir::Shape(ir::PrimitiveType::kC64, {2})).ok());
  ir::Shape dynamic(ir::PrimitiveType::kF32, {4});
  dynamic.set_dynamic_dimension(0, true);
  EXPECT_FALSE(Literal::Create(dynamic).ok());
}

// Errors: max abs and rel, NaN matches NaN, integers must be exact.
TEST(LiteralTest, ComparesWithTolerance) {
  const Literal expected = F32({3}, {1.0, 100.0, std::nan("")});
  const Literal close = F32({3}, {1.0 + 1e-7, 100.0, std::nan("")});
  const Literal far = F32({3}, {1.5, 100.0, std::nan("")});
  EXPECT_TRUE(CompareLiterals(close, expected, 1e-5, 0).ok());
  const LiteralDifference d = CompareLiterals(far, expected, 1e-5, 0);
  EXPECT_FALSE(d.ok());
  EXPECT_EQ(d.mismatches, 1);
  EXPECT_DOUBLE_EQ(d.max_abs_error, 0.5);
  EXPECT_DOUBLE_EQ(d.max_rel_error, 0.5);
  EXPECT_FALSE(CompareLiterals(testing::S32({1}, {3}), testing::S32({1}, {4}), 1.0, 1.0).ok());
  EXPECT_FALSE(CompareLiterals(F32({2}, {1, 2}), F32({1, 2}, {1, 2}), 0, 0).same_shape);
}

// Short text for messages: values, then an ellipsis past the limit; tuples in parentheses.
TEST(LiteralTest, ToString) {
  EXPECT_EQ(F32({2}, {1, 2.5}).ToString(), "f32[2] {1, 2.5}");
  EXPECT_EQ(F32({3}, {1, 2, 3}).ToString(2), "f32[3] {1, 2, ...}");
  std::vector<Literal> parts;
  parts.push_back(testing::S32({}, {7}));
  EXPECT_EQ(Literal::Tuple(std::move(parts)).ToString(), "(s32[] {7})");
}

// .npy: what is written reads back identically; bad headers are named.
TEST(NpyTest, RoundTripsAndRejectsGarbage) {
  const Literal original = testing::Array(ir::PrimitiveType::kF16, {2, 3}, {1, 2, 3, 4, 5, 6.5});
  StatusOr<std::string> bytes = EncodeNpy(original);
  ASSERT_TRUE(bytes.ok()) << bytes.message();
  EXPECT_EQ(bytes->size() % 64, 12u);  // header padded to 64 bytes, then 6 halfs
  StatusOr<Literal> back = DecodeNpy(*bytes);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_TRUE(back->BitwiseEqual(original));
  EXPECT_FALSE(DecodeNpy("not numpy").ok());
  std::string cut = *bytes;
  cut.pop_back();
  StatusOr<Literal> short_data = DecodeNpy(cut);
  ASSERT_FALSE(short_data.ok());
  EXPECT_NE(short_data.message().find("bytes"), std::string::npos);
  EXPECT_FALSE(EncodeNpy(Literal::ScalarDouble(ir::PrimitiveType::kBF16, 1)).ok());
  // A header that claims a huge shape is refused by its missing data, not by allocating.
  // (The padding before the header's newline shrinks by as much as the shape text grows.)
  std::string huge = *bytes;
  const size_t at = huge.find("(2, 3,)");
  ASSERT_NE(at, std::string::npos);
  huge.replace(at, 7, "(999999, 99999,)");
  huge.erase(huge.find('\n') - 9, 9);
  StatusOr<Literal> claimed = DecodeNpy(huge);
  ASSERT_FALSE(claimed.ok());
  EXPECT_NE(claimed.message().find("bytes"), std::string::npos);
}

// Inputs past the byte limit are refused before allocating.
TEST(SeededInputsTest, RefusesHugeInputs) {
  auto module = ir::ParseHloModule(R"(HloModule m
ENTRY e {
  ROOT a = f32[100000,100000] parameter(0)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 0);
  ASSERT_FALSE(inputs.ok());
  EXPECT_NE(inputs.message().find("f32[100000,100000]"), std::string::npos) << inputs.message();
}

// Same seed, same numbers; signed integers stay in [0, 4) so indices stay in range.
TEST(SeededInputsTest, DeterministicAndInRange) {
  auto module = ir::ParseHloModule(R"(HloModule m
ENTRY e {
  a = f32[64] parameter(0)
  b = s32[64] parameter(1)
  ROOT t = (f32[64], s32[64]) tuple(a, b)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto first = SeededInputs(*(*module)->entry(), 7);
  auto second = SeededInputs(*(*module)->entry(), 7);
  auto other = SeededInputs(*(*module)->entry(), 8);
  ASSERT_TRUE(first.ok() && second.ok() && other.ok());
  EXPECT_TRUE((*first)[0].BitwiseEqual((*second)[0]));
  EXPECT_FALSE((*first)[0].BitwiseEqual((*other)[0]));
  for (int64_t i = 0; i < 64; ++i) {
    EXPECT_GE((*first)[0].GetDouble(i), -1.0);
    EXPECT_LT((*first)[0].GetDouble(i), 1.0);
    EXPECT_GE((*first)[1].GetInt(i), 0);
    EXPECT_LT((*first)[1].GetInt(i), 4);
  }
}

}  // namespace
}  // namespace fusescope::runtime
