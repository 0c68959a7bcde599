// The interpreter's f64 mode (InterpreterOptions::widen_floats_to_f64): what an f32 run
// rounds away the widened run keeps, constants keep their own type's values, and what depends
// on a float's width (bitcast-convert) still computes what the module says.

#include "runtime/interpreter/float_widening.h"

#include <gtest/gtest.h>

#include "ir/hlo_parser.h"
#include "ir/verifier.h"
#include "runtime/interpreter/interpreter.h"

namespace fusescope::runtime {
namespace {

std::unique_ptr<ir::Module> Parse(const char* text) {
  auto module = ir::ParseHloModule(text, "m.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

Literal Interpret(const ir::Module& module, std::vector<Literal> inputs, bool wide) {
  InterpreterOptions options;
  options.widen_floats_to_f64 = wide;
  auto result = Interpreter(options).Run(module, std::move(inputs));
  EXPECT_TRUE(result.ok()) << result.message();
  return result.ok() ? std::move(result).value() : Literal();
}

// (1e8 + 1) - 1e8 is 0 in f32 and 1 in f64; the f16 convert of 1/3 keeps only 11 bits.
TEST(FloatWideningTest, TheWidenedRunKeepsWhatF32RoundsAway) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  big = f32[] constant(1e8)
  one = f32[] constant(1)
  s = f32[] add(big, one)
  d = f32[] subtract(s, big)
  third = f32[] constant(0.333333343)
  h = f16[] convert(third)
  back = f32[] convert(h)
  ROOT t = (f32[], f32[]) tuple(d, back)
})");
  ASSERT_NE(module, nullptr);
  const Literal narrow = Interpret(*module, {}, false);
  const Literal wide = Interpret(*module, {}, true);
  EXPECT_EQ(narrow.elements()[0].GetDouble(0), 0.0);
  EXPECT_EQ(wide.elements()[0].type(), ir::PrimitiveType::kF64);
  EXPECT_EQ(wide.elements()[0].GetDouble(0), 1.0);
  // The constant is f32's 0.333333343..., exactly, not the decimal text read as f64.
  EXPECT_EQ(wide.elements()[1].GetDouble(0), static_cast<double>(0.333333343f));
  EXPECT_NE(narrow.elements()[1].GetDouble(0), wide.elements()[1].GetDouble(0));
}

TEST(FloatWideningTest, ArgumentsAreWidenedExactly) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  a = f32[3] parameter(0)
  b = bf16[3] parameter(1)
  wide_b = f32[3] convert(b)
  ROOT m = f32[3] multiply(a, wide_b)
})");
  ASSERT_NE(module, nullptr);
  std::vector<Literal> inputs;
  inputs.push_back(Literal::Create(ir::Shape(ir::PrimitiveType::kF32, {3})).value());
  inputs.push_back(Literal::Create(ir::Shape(ir::PrimitiveType::kBF16, {3})).value());
  for (int64_t i = 0; i < 3; ++i) {
    inputs[0].SetDouble(i, 0.1 * static_cast<double>(i + 1));
    inputs[1].SetDouble(i, 3.0 + static_cast<double>(i));
  }
  const Literal wide = Interpret(*module, {inputs[0], inputs[1]}, true);
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_EQ(wide.GetDouble(i), inputs[0].GetDouble(i) * inputs[1].GetDouble(i));
}

// Bits reinterpreted keep their width: the widened module still verifies and gives the same
// integers and floats.
TEST(FloatWideningTest, BitcastConvertKeepsItsOriginalWidth) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  bits = u32[2] bitcast-convert(x)
  one = u32[] constant(1)
  ones = u32[2] broadcast(one), dimensions={}
  next = u32[2] add(bits, ones)
  y = f32[2] bitcast-convert(next)
  ROOT t = (u32[2], f32[2]) tuple(bits, y)
})");
  ASSERT_NE(module, nullptr);
  auto wide_module = WidenFloatsToF64(*module);
  ASSERT_TRUE(wide_module.ok()) << wide_module.message();
  EXPECT_TRUE(ir::VerifyModule(**wide_module).ok());
  Literal input = Literal::Create(ir::Shape(ir::PrimitiveType::kF32, {2})).value();
  input.SetDouble(0, 1.5);
  input.SetDouble(1, -2.25);
  const Literal narrow = Interpret(*module, {input}, false);
  const Literal wide = Interpret(*module, {input}, true);
  ASSERT_TRUE(wide.is_tuple());
  EXPECT_EQ(wide.elements()[0].type(), ir::PrimitiveType::kU32);
  EXPECT_EQ(wide.elements()[1].type(), ir::PrimitiveType::kF64);
  for (int64_t i = 0; i < 2; ++i) {
    EXPECT_EQ(wide.elements()[0].GetInt(i), narrow.elements()[0].GetInt(i));
    EXPECT_EQ(wide.elements()[1].GetDouble(i), narrow.elements()[1].GetDouble(i));
  }
}

TEST(FloatWideningTest, ShapesAndLiteralsWiden) {
  const ir::Shape tuple = ir::Shape::Tuple(
      {ir::Shape(ir::PrimitiveType::kF16, {2}), ir::Shape(ir::PrimitiveType::kS32, {})});
  const ir::Shape wide = WidenShape(tuple);
  EXPECT_EQ(wide.tuple_shapes()[0].element_type(), ir::PrimitiveType::kF64);
  EXPECT_EQ(wide.tuple_shapes()[1].element_type(), ir::PrimitiveType::kS32);
  Literal half = Literal::Create(ir::Shape(ir::PrimitiveType::kF16, {1})).value();
  half.SetDouble(0, 0.1);
  const Literal widened = WidenLiteral(half);
  EXPECT_EQ(widened.type(), ir::PrimitiveType::kF64);
  EXPECT_EQ(widened.GetDouble(0), half.GetDouble(0));
}

}  // namespace
}  // namespace fusescope::runtime
