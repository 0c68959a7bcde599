// The ranges seeded inputs are drawn from, decided by what each parameter feeds.

#include "runtime/seeded_inputs.h"

#include <cmath>

#include <gtest/gtest.h>

#include "ir/hlo_parser.h"

namespace fusescope::runtime {
namespace {

std::vector<InputRange> Ranges(const char* text) {
  auto module = ir::ParseHloModule(text, "m.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  if (!module.ok()) return {};
  return ChooseInputRanges(*(*module)->entry());
}

// x @ w + b, then layer norm over the result: w is scaled by its fan-in (through a reshape),
// x keeps [-1, 1), the variance-like parameter feeding rsqrt (through an add) is positive.
TEST(SeededInputsTest, WeightsAreScaledByFanInAndWhatFeedsRsqrtIsPositive) {
  const std::vector<InputRange> ranges = Ranges(R"(HloModule m
ENTRY e {
  x = f32[8,64] parameter(0)
  w_flat = f32[4096] parameter(1)
  w = f32[64,64] reshape(w_flat)
  d = f32[8,64] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  v = f32[64] parameter(2)
  eps = f32[] constant(1e-5)
  epsb = f32[64] broadcast(eps), dimensions={}
  ve = f32[64] add(v, epsb)
  r = f32[64] rsqrt(ve)
  rb = f32[8,64] broadcast(r), dimensions={1}
  ROOT y = f32[8,64] multiply(d, rb)
})");
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].scale, 1.0);
  EXPECT_FALSE(ranges[0].positive);
  EXPECT_DOUBLE_EQ(ranges[1].scale, 1.0 / 8.0);
  EXPECT_NE(ranges[1].reason.find("fan-in 64"), std::string::npos) << ranges[1].reason;
  EXPECT_TRUE(ranges[2].positive);
  EXPECT_EQ(ranges[2].reason, "feeds r");
}

// A weight that reaches its dot through a while loop's state, as a scan's does; the
// convolution's kernel by its window and input features.
TEST(SeededInputsTest, LoopCarriedWeightsAndConvolutionKernelsAreScaled) {
  const std::vector<InputRange> ranges = Ranges(R"(HloModule m
body {
  s = (f32[1,16], f32[16,16]) parameter(0)
  h = f32[1,16] get-tuple-element(s), index=0
  w = f32[16,16] get-tuple-element(s), index=1
  z = f32[1,16] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[1,16] tanh(z)
  ROOT o = (f32[1,16], f32[16,16]) tuple(t, w)
}
cond {
  s = (f32[1,16], f32[16,16]) parameter(0)
  ROOT f = pred[] constant(false)
}
ENTRY e {
  h0 = f32[1,16] parameter(0)
  w = f32[16,16] parameter(1)
  init = (f32[1,16], f32[16,16]) tuple(h0, w)
  loop = (f32[1,16], f32[16,16]) while(init), condition=cond, body=body
  img = f32[1,8,8,3] parameter(2)
  k = f32[3,3,3,4] parameter(3)
  c = f32[1,8,8,4] convolution(img, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  hl = f32[1,16] get-tuple-element(loop), index=0
  ROOT r = (f32[1,16], f32[1,8,8,4]) tuple(hl, c)
})");
  ASSERT_EQ(ranges.size(), 4u);
  EXPECT_EQ(ranges[0].scale, 1.0);
  EXPECT_DOUBLE_EQ(ranges[1].scale, 0.25);
  EXPECT_EQ(ranges[2].scale, 1.0);
  EXPECT_DOUBLE_EQ(ranges[3].scale, 1.0 / std::sqrt(27.0));
}

TEST(SeededInputsTest, ValuesFollowTheirRange) {
  const ir::Shape shape(ir::PrimitiveType::kF32, {1000});
  InputRange positive;
  positive.positive = true;
  positive.scale = 0.5;
  const Literal values = SeededArray(shape, 3, positive).value();
  for (int64_t i = 0; i < values.element_count(); ++i) {
    EXPECT_GE(values.GetDouble(i), 0.25);
    EXPECT_LT(values.GetDouble(i), 0.75);
  }
  InputRange scaled;
  scaled.scale = 0.125;
  const Literal small = SeededArray(shape, 3, scaled).value();
  const Literal plain = SeededArray(shape, 3).value();
  for (int64_t i = 0; i < small.element_count(); ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(small.GetDouble(i)),
                    static_cast<float>(plain.GetDouble(i) * 0.125));
}

}  // namespace
}  // namespace fusescope::runtime
