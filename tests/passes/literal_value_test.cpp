// Reading and writing constant literals, and computing on them with XLA's semantics.

#include "passes/literal_value.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ir/hlo_parser.h"
#include "passes/literal_evaluator.h"

namespace fusescope::passes {
namespace {

using ir::PrimitiveType;

ir::Shape ShapeOf(std::string_view text) {
  StatusOr<ir::Shape> shape = ir::ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.message();
  return shape.ok() ? *shape : ir::Shape();
}

TEST(LiteralValueTest, ReadsNestedArraysInRowMajorOrder) {
  auto literal = LiteralValue::Parse("{ { 1, 2, 3 }, { 4, 5, 6 } }", ShapeOf("s32[2,3]{0,1}"));
  ASSERT_TRUE(literal.has_value());
  EXPECT_EQ(literal->element_count(), 6);
  EXPECT_EQ(literal->GetInt(3), 4);
  EXPECT_EQ(literal->ToText(), "{ { 1, 2, 3 }, { 4, 5, 6 } }");
}

TEST(LiteralValueTest, ReadsSpecialFloatsAndComments) {
  auto literal = LiteralValue::Parse("{nan, -inf, 1e-05, /*index=3*/-0}", ShapeOf("f32[4]"));
  ASSERT_TRUE(literal.has_value());
  EXPECT_TRUE(std::isnan(literal->GetDouble(0)));
  EXPECT_EQ(literal->GetDouble(1), -INFINITY);
  EXPECT_TRUE(std::signbit(literal->GetDouble(3)));
  EXPECT_EQ(literal->ToText(), "{nan, -inf, 1e-05, -0}");
}

TEST(LiteralValueTest, RefusesWhatItCannotRead) {
  EXPECT_FALSE(LiteralValue::Parse("{...}", ShapeOf("f32[16]")).has_value());
  EXPECT_FALSE(LiteralValue::Parse("{1, 2}", ShapeOf("f32[3]")).has_value());
  EXPECT_FALSE(LiteralValue::Parse("{(1, 2)}", ShapeOf("c64[1]")).has_value());
  EXPECT_FALSE(LiteralValue::Parse("maybe", ShapeOf("pred[]")).has_value());
}

TEST(LiteralValueTest, PredicatesAndUnsigned) {
  auto pred = LiteralValue::Parse("{true, false}", ShapeOf("pred[2]"));
  ASSERT_TRUE(pred.has_value());
  EXPECT_EQ(pred->ToText(), "{true, false}");
  auto big = LiteralValue::Parse("18446744073709551615", ShapeOf("u64[]"));
  ASSERT_TRUE(big.has_value());
  EXPECT_EQ(big->ToText(), "18446744073709551615");
  EXPECT_EQ(big->GetDouble(0), 18446744073709551615.0);
}

TEST(LiteralValueTest, WrapsAndRoundsToTheElementType) {
  LiteralValue bytes(PrimitiveType::kU8, {2});
  bytes.SetInt(0, 300);
  bytes.SetInt(1, -1);
  EXPECT_EQ(bytes.ToText(), "{44, 255}");
  LiteralValue single(PrimitiveType::kF32, {});
  single.SetDouble(0, 0.1);
  EXPECT_EQ(single.GetDouble(0), static_cast<double>(0.1f));
  EXPECT_EQ(single.ToText(), "0.1");
  EXPECT_EQ(WrapToType(128, PrimitiveType::kS8), -128);
}

// Builds `opcode` over constant operands of `operand_shape` and evaluates it.
std::optional<LiteralValue> Evaluate(std::string_view hlo) {
  auto module = ir::ParseHloModule(hlo);
  EXPECT_TRUE(module.ok()) << module.message();
  const ir::Instruction* root = (*module)->entry()->root();
  std::vector<LiteralValue> operands;
  for (const ir::Instruction* operand : root->operands()) {
    operands.push_back(*LiteralValue::Parse(operand->literal(), operand->shape()));
  }
  return EvaluateOnLiterals(*root, operands);
}

TEST(LiteralEvaluatorTest, SignedDivisionOverflowWraps) {
  auto result = Evaluate(R"(
HloModule m
ENTRY main {
  a = s64[] constant(-9223372036854775808)
  b = s64[] constant(-1)
  ROOT d = s64[] divide(a, b)
})");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->ToText(), "-9223372036854775808");
}

TEST(LiteralEvaluatorTest, UnsignedCompare) {
  auto result = Evaluate(R"(
HloModule m
ENTRY main {
  a = u32[2] constant({4294967295, 1})
  b = u32[2] constant({1, 2})
  ROOT c = pred[2] compare(a, b), direction=GT
})");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->ToText(), "{true, false}");
}

TEST(LiteralEvaluatorTest, TotalOrderCompareIsLeftAlone) {
  auto result = Evaluate(R"(
HloModule m
ENTRY main {
  a = f32[] constant(nan)
  b = f32[] constant(1)
  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER
})");
  EXPECT_FALSE(result.has_value());
}

TEST(LiteralEvaluatorTest, BroadcastAlongInnerDimension) {
  auto result = Evaluate(R"(
HloModule m
ENTRY main {
  a = s32[3] constant({1, 2, 3})
  ROOT b = s32[2,3] broadcast(a), dimensions={1}
})");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->ToText(), "{ { 1, 2, 3 }, { 1, 2, 3 } }");
}

TEST(LiteralEvaluatorTest, ConvertIntToPredAndFloat) {
  auto result = Evaluate(R"(
HloModule m
ENTRY main {
  a = s32[3] constant({0, 2, -1})
  ROOT c = pred[3] convert(a)
})");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->ToText(), "{false, true, true}");
}

}  // namespace
}  // namespace fusescope::passes
