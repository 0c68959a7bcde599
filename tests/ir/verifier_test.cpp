#include "ir/verifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/hlo_parser.h"
#include "resources/samples.h"

namespace fusescope::ir {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::unique_ptr<Module> Parse(std::string_view text) {
  auto module = ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

// "" when the module verifies, else the verifier's message.
std::string Verify(std::string_view text) {
  std::unique_ptr<Module> module = Parse(text);
  if (!module) return "<does not parse>";
  Status status = VerifyModule(*module);
  return status.ok() ? "" : status.message();
}

constexpr std::string_view kAddF32 = R"(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
)";

std::string WithAdd(std::string_view entry) {
  return "HloModule m\n" + std::string(kAddF32) + std::string(entry);
}

// ---------------------------------------------------------------------------------------
// Elementwise.

TEST(VerifierElementwise, AcceptsMatchingOperands) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  a = f32[8] parameter(0)
  b = f32[8] parameter(1)
  add.3 = f32[8] add(a, b)
  lt = pred[8] compare(a, b), direction=LT
  sel = f32[8] select(lt, add.3, b)
  lo = f32[] parameter(2)
  clamped = f32[8] clamp(lo, sel, lo)
  e = f32[8] exponential(clamped)
  fin = pred[8] is-finite(e)
  c = c64[8] complex(a, b)
  mag = f32[8] abs(c)
  n = s32[8] convert(mag)
  bits = u8[8,4] bitcast-convert(a)
  back = f32[8] bitcast-convert(bits)
  ROOT t = (pred[8], s32[8], f32[8], f32[8]{0}) tuple(fin, n, back, e)
}
)"),
            "");
}

TEST(VerifierElementwise, NamesTheMismatchedOperand) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  a = f32[8] parameter(0)
  b = f32[4] parameter(1)
  ROOT add.3 = f32[8] add(a, b)
}
)"),
            "computation main, instruction %add.3: operand 1 shape f32[4] does not match f32[8]");
}

TEST(VerifierElementwise, RejectsMixedElementTypes) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[8] parameter(0)
  b = s32[8] parameter(1)
  ROOT m = f32[8] multiply(a, b)
}
)"),
              HasSubstr("instruction %m: operand 1 shape s32[8] does not match f32[8]"));
}

TEST(VerifierElementwise, CompareProducesPred) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  a = f32[8] parameter(0)
  ROOT lt = f32[8] compare(a, a), direction=LT
}
)"),
            "computation main, instruction %lt: written shape f32[8] does not match inferred "
            "pred[8]");
}

TEST(VerifierElementwise, ChecksOperandTypeClasses) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = s32[8] parameter(0)
  ROOT e = s32[8] exponential(a)
}
)"),
              HasSubstr("%e: operand 0 element type s32 is not floating point or complex"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[8] parameter(0)
  ROOT x = f32[8] and(a, a)
}
)"),
              HasSubstr("%x: operand 0 element type f32 is not pred or an integer type"));
}

TEST(VerifierElementwise, SelectNeedsPredOfTheSameDimensions) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  p = pred[4] parameter(0)
  a = f32[8] parameter(1)
  ROOT s = f32[8] select(p, a, a)
}
)"),
              HasSubstr("%s: operand 0 shape pred[4] does not match the dimensions of f32[8]"));
}

TEST(VerifierElementwise, ClampBoundsAreScalarsOrOperandShaped) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  lo = f32[2] parameter(0)
  x = f32[8] parameter(1)
  ROOT c = f32[8] clamp(lo, x, lo)
}
)"),
              HasSubstr("%c: operand 0 shape f32[2] does not match f32[8]"));
}

TEST(VerifierElementwise, BitcastConvertNeedsTheRatioAsMinorDimension) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = u8[8,2] parameter(0)
  ROOT f = f32[8] bitcast-convert(a)
}
)"),
              HasSubstr("%f: bitcast-convert from u8[8,2] to f32 needs a minor-most dimension "
                        "of 4"));
}

TEST(VerifierElementwise, ConvertKeepsDimensions) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[8] parameter(0)
  ROOT c = s32[4] convert(a)
}
)"),
              HasSubstr("%c: written shape s32[4] does not match inferred s32[8]"));
}

// ---------------------------------------------------------------------------------------
// Shape-changing data movement.

TEST(VerifierDataMovement, AcceptsValidOps) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  a = f32[2,3] parameter(0)
  v = f32[3] parameter(1)
  b = f32[2,3] broadcast(v), dimensions={1}
  s = f32[] constant(0)
  sb = f32[5,2,3] broadcast(s), dimensions={}
  r = f32[3,2] reshape(a)
  t = f32[3,2] transpose(a), dimensions={1,0}
  rev = f32[2,3] reverse(a), dimensions={0,1}
  sl = f32[1,2] slice(a), slice={[1:2], [0:3:2]}
  i = s32[] parameter(2)
  ds = f32[2,2] dynamic-slice(a, i, i), dynamic_slice_sizes={2,2}
  dus = f32[2,3] dynamic-update-slice(a, ds, i, i)
  cat = f32[2,9] concatenate(a, b, dus), dimensions={1}
  p = f32[5,9] pad(a, s), padding=1_2x-1_1_3
  io = s32[4,6] iota(), iota_dimension=1
  ROOT out = (f32[5,2,3], f32[3,2], f32[3,2], f32[2,3], f32[1,2], f32[2,9], f32[5,9], s32[4,6])
      tuple(sb, r, t, rev, sl, cat, p, io)
}
)"),
            "");
}

TEST(VerifierDataMovement, BroadcastDimensionsMustMapSizes) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  v = f32[3] parameter(0)
  ROOT b = f32[3,2] broadcast(v), dimensions={1}
}
)"),
              HasSubstr("%b: operand dimension 0 of f32[3] does not match dimension 1 of "
                        "f32[3,2]"));
}

TEST(VerifierDataMovement, ReshapeKeepsTheElementCount) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[2,3] parameter(0)
  ROOT r = f32[4,2] reshape(a)
}
)"),
              HasSubstr("%r: reshape from f32[2,3] to f32[4,2] changes the element count from 6 "
                        "to 8"));
}

TEST(VerifierDataMovement, TransposePermutesDimensions) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[2,3,4] parameter(0)
  ROOT t = f32[4,2,3] transpose(a), dimensions={2,1,0}
}
)"),
              HasSubstr("%t: written shape f32[4,2,3] does not match inferred f32[4,3,2]"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[2,3] parameter(0)
  ROOT t = f32[2,2] transpose(a), dimensions={0,0}
}
)"),
              HasSubstr("%t: dimensions={0,0}: dimension 0 repeats"));
}

TEST(VerifierDataMovement, SliceStaysInBounds) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[4] parameter(0)
  ROOT s = f32[3] slice(a), slice={[2:5]}
}
)"),
              HasSubstr("%s: slice dimension 0 [2:5:1] does not fit operand f32[4]"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[10] parameter(0)
  ROOT s = f32[3] slice(a), slice={[0:10:3]}
}
)"),
              HasSubstr("%s: written shape f32[3] does not match inferred f32[4]"));
}

TEST(VerifierDataMovement, DynamicSliceSizesFitTheOperand) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[4,4] parameter(0)
  i = s32[] parameter(1)
  ROOT d = f32[5,1] dynamic-slice(a, i, i), dynamic_slice_sizes={5,1}
}
)"),
              HasSubstr("%d: dynamic_slice_sizes={5,1} exceeds operand f32[4,4]"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[4,4] parameter(0)
  i = s32[] parameter(1)
  ROOT d = f32[1,1] dynamic-slice(a, i), dynamic_slice_sizes={1,1}
}
)"),
              HasSubstr("%d: 1 start indices for rank 2"));
}

TEST(VerifierDataMovement, ConcatenateAgreesOffTheAxis) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[2,3] parameter(0)
  b = f32[3,3] parameter(1)
  ROOT c = f32[2,6] concatenate(a, b), dimensions={1}
}
)"),
              HasSubstr("%c: operand 1 shape f32[3,3] does not match f32[2,3]"));
  // An operand of lower rank than the first is refused, not indexed past its dimensions.
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[2,3] parameter(0)
  b = f32[2] parameter(1)
  ROOT c = f32[2,4] concatenate(a, b), dimensions={1}
}
)"),
              HasSubstr("operand 1 has rank 1, operand 0 rank 2"));
}

TEST(VerifierDataMovement, PadComputesEdgeAndInteriorPadding) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[6] pad(a, z), padding=1_1_1
}
)"),
              HasSubstr("%p: written shape f32[6] does not match inferred f32[7]"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[3] parameter(0)
  z = s32[] constant(0)
  ROOT p = f32[3] pad(a, z), padding=0_0
}
)"),
              HasSubstr("%p: operand 1 shape s32[] does not match f32[]"));
}

TEST(VerifierDataMovement, HugeAttributeValuesAreErrorsNotOverflows) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  a = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[3] pad(a, z), padding=0_0_9223372036854775807
}
)"),
              HasSubstr("%p: padding arithmetic overflows int64"));
  EXPECT_THAT(Verify(WithAdd(R"(
ENTRY main {
  a = f32[10] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[1] reduce-window(a, z), window={size=2 lhs_dilate=4611686018427387904},
      to_apply=add
}
)")),
              HasSubstr("%r: size arithmetic overflows int64"));
}

TEST(VerifierDataMovement, IotaDimensionIsInRange) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  ROOT i = s32[4] iota(), iota_dimension=1
}
)"),
              HasSubstr("%i: iota_dimension=1 out of range for s32[4]"));
}

TEST(VerifierDataMovement, SortUsesAComparatorOverEveryOperand) {
  const char* kSort = R"(HloModule m
cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY main {
  k = f32[4,8] parameter(0)
  v = s32[4,8] parameter(1)
  ROOT s = (f32[4,8], s32[4,8]) sort(k, v), dimensions={1}, to_apply=cmp
}
)";
  EXPECT_EQ(Verify(kSort), "");
  EXPECT_THAT(Verify(R"(HloModule m
cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY main {
  k = f32[4,8] parameter(0)
  v = s32[4,8] parameter(1)
  ROOT s = (f32[4,8], s32[4,8]) sort(k, v), dimensions={1}, to_apply=cmp
}
)"),
              HasSubstr("%s: to_apply computation cmp takes 2 parameters, expected 4"));
}

// ---------------------------------------------------------------------------------------
// Gather and scatter.

TEST(VerifierGatherScatter, AcceptsTakeAndScatterAdd) {
  EXPECT_EQ(Verify(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  table = f32[10,4] parameter(0)
  idx = s32[3,1] parameter(1)
  g = f32[3,4] gather(table, idx), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  upd = f32[3,4] parameter(2)
  sc = f32[10,4] scatter(table, idx, upd), update_window_dims={1}, inserted_window_dims={0},
      scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  bidx = s32[2,5] parameter(3)
  batched = f32[2,7] parameter(4)
  bg = f32[2,5] gather(batched, bidx), offset_dims={}, collapsed_slice_dims={1},
      operand_batching_dims={0}, start_indices_batching_dims={0}, start_index_map={1},
      index_vector_dim=2, slice_sizes={1,1}
  ROOT t = (f32[3,4], f32[10,4], f32[2,5]) tuple(g, sc, bg)
}
)"),
            "");
}

TEST(VerifierGatherScatter, GatherOffsetDimsCoverTheWindow) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  table = f32[10,4] parameter(0)
  idx = s32[3,1] parameter(1)
  ROOT g = f32[3,4] gather(table, idx), offset_dims={1}, collapsed_slice_dims={},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
}
)"),
              HasSubstr("%g: offset_dims={1} has 1 entries, but 2 operand dimensions are not "
                        "collapsed"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  table = f32[10,4] parameter(0)
  idx = s32[3,1] parameter(1)
  ROOT g = f32[4,3] gather(table, idx), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
}
)"),
              HasSubstr("%g: written shape f32[4,3] does not match inferred f32[3,4]"));
}

TEST(VerifierGatherScatter, ScatterUpdatesFitOperandAndIndices) {
  EXPECT_THAT(Verify(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  table = f32[10,4] parameter(0)
  idx = s32[3,1] parameter(1)
  upd = f32[2,4] parameter(2)
  ROOT sc = f32[10,4] scatter(table, idx, upd), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1,
      to_apply=add
}
)"),
              HasSubstr("%sc: operand 2 updates f32[2,4] do not fit operand f32[10,4] and "
                        "indices s32[3,1]"));
}

// ---------------------------------------------------------------------------------------
// Reductions.

TEST(VerifierReduction, AcceptsReduceAndVariadicArgmax) {
  EXPECT_EQ(Verify(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
argmax {
  av = f32[] parameter(0)
  ai = s32[] parameter(1)
  bv = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GT
  v = f32[] select(gt, av, bv)
  i = s32[] select(gt, ai, bi)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
ENTRY main {
  a = f32[4,8,16] parameter(0)
  z = f32[] constant(0)
  sum = f32[8] reduce(a, z), dimensions={0,2}, to_apply=add
  scores = f32[4,8] parameter(1)
  ids = s32[4,8] iota(), iota_dimension=1
  zi = s32[] constant(0)
  best = (f32[4], s32[4]) reduce(scores, ids, z, zi), dimensions={1}, to_apply=argmax
  ROOT t = (f32[8], (f32[4], s32[4])) tuple(sum, best)
}
)"),
            "");
}

TEST(VerifierReduction, ReduceRemovesTheReducedDimensions) {
  EXPECT_EQ(Verify(WithAdd(R"(
ENTRY main {
  a = f32[4,8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4] reduce(a, z), dimensions={0}, to_apply=add
}
)")),
            "computation main, instruction %r: written shape f32[4] does not match inferred "
            "f32[8]");
}

TEST(VerifierReduction, ReducerMustBeAScalarBinaryFunction) {
  EXPECT_THAT(Verify(R"(HloModule m
bad {
  x = f32[2] parameter(0)
  y = f32[2] parameter(1)
  ROOT s = f32[2] add(x, y)
}
ENTRY main {
  a = f32[4,8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[8] reduce(a, z), dimensions={0}, to_apply=bad
}
)"),
              HasSubstr("%r: to_apply computation bad parameter 0 is f32[2], expected f32[]"));
  EXPECT_THAT(Verify(WithAdd(R"(
ENTRY main {
  a = s32[4,8] parameter(0)
  z = s32[] constant(0)
  ROOT r = s32[8] reduce(a, z), dimensions={0}, to_apply=add
}
)")),
              HasSubstr("%r: to_apply computation add parameter 0 is f32[], expected s32[]"));
}

TEST(VerifierReduction, ReduceWindowAppliesTheWindow) {
  const std::string pool = WithAdd(R"(
ENTRY main {
  a = f32[2,16,16,8] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[2,8,8,8] reduce-window(a, z), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=add
}
)");
  EXPECT_EQ(Verify(pool), "");
  EXPECT_THAT(Verify(WithAdd(R"(
ENTRY main {
  a = f32[2,16,16,8] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[2,8,8,8] reduce-window(a, z), window={size=2x2 stride=2x2}, to_apply=add
}
)")),
              HasSubstr("%p: window has 2 dimensions for operand f32[2,16,16,8]"));
  // Padded to 12, windows of 3 every 2 elements: 5 outputs. Dilated by 2 first: 19, padded
  // 21, 10 outputs.
  EXPECT_EQ(Verify(WithAdd(R"(
ENTRY main {
  a = f32[10] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[5] reduce-window(a, z), window={size=3 stride=2 pad=1_1}, to_apply=add
}
)")),
            "");
  EXPECT_THAT(Verify(WithAdd(R"(
ENTRY main {
  a = f32[10] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[5] reduce-window(a, z), window={size=3 stride=2 pad=1_1 lhs_dilate=2},
      to_apply=add
}
)")),
              HasSubstr("%p: written shape f32[5] does not match inferred f32[10]"));
}

TEST(VerifierReduction, SelectAndScatterSourceMatchesTheWindows) {
  const char* kTemplate = R"(HloModule m
ge {
  u = f32[] parameter(0)
  v = f32[] parameter(1)
  ROOT c = pred[] compare(u, v), direction=GE
}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  a = f32[8,8] parameter(0)
  src = f32[SRC] parameter(1)
  z = f32[] constant(0)
  ROOT sas = f32[8,8] select-and-scatter(a, src, z), window={size=2x2 stride=2x2}, select=ge,
      scatter=add
}
)";
  std::string valid = kTemplate;
  valid.replace(valid.find("SRC"), 3, "4,4");
  EXPECT_EQ(Verify(valid), "");
  std::string invalid = kTemplate;
  invalid.replace(invalid.find("SRC"), 3, "8,8");
  EXPECT_THAT(Verify(invalid), HasSubstr("%sas: operand 1 shape f32[8,8] does not match f32[4,4]"));
}

// ---------------------------------------------------------------------------------------
// Dot and convolution.

TEST(VerifierContraction, DotOrdersBatchThenFreeDimensions) {
  const char* kDot = R"(HloModule m
ENTRY main {
  l = f32[2,8,16] parameter(0)
  r = f32[2,16,4] parameter(1)
  ROOT d = f32[SHAPE] dot(l, r), lhs_batch_dims={0}, rhs_batch_dims={0},
      lhs_contracting_dims={2}, rhs_contracting_dims={1}
}
)";
  std::string valid = kDot;
  valid.replace(valid.find("SHAPE"), 5, "2,8,4");
  EXPECT_EQ(Verify(valid), "");
  std::string invalid = kDot;
  invalid.replace(invalid.find("SHAPE"), 5, "2,4,8");
  EXPECT_THAT(Verify(invalid),
              HasSubstr("%d: written shape f32[2,4,8] does not match inferred f32[2,8,4]"));
}

TEST(VerifierContraction, DotContractingSizesAgree) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  l = f32[8,16] parameter(0)
  r = f32[15,4] parameter(1)
  ROOT d = f32[8,4] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)"),
              HasSubstr("%d: lhs contracting dimension 1 of f32[8,16] does not match rhs "
                        "contracting dimension 0 of f32[15,4]"));
}

TEST(VerifierContraction, DotTakesTheWrittenResultType) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  l = bf16[8,16] parameter(0)
  r = bf16[16,4] parameter(1)
  ROOT d = f32[8,4] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)"),
            "");
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  l = f32[8,16] parameter(0)
  r = s32[16,4] parameter(1)
  ROOT d = f32[8,4] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)"),
              HasSubstr("%d: operand element types f32 and s32 cannot be combined"));
}

TEST(VerifierContraction, ConvolutionWithPaddingStrideAndGroups) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  x = f32[2,16,16,3] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  same = f32[2,16,16,8] convolution(x, k), window={size=3x3 pad=1_1x1_1},
      dim_labels=b01f_01io->b01f
  strided = f32[2,7,7,8] convolution(x, k), window={size=3x3 stride=2x2},
      dim_labels=b01f_01io->b01f
  dk = f32[3,3,1,3] parameter(2)
  depthwise = f32[2,14,14,3] convolution(x, dk), window={size=3x3},
      dim_labels=b01f_01io->b01f, feature_group_count=3
  nchw = f32[2,3,16,16] parameter(3)
  oihw = f32[8,3,3,3] parameter(4)
  dilated = f32[2,8,31,31] convolution(nchw, oihw), window={size=3x3 pad=1_1x1_1 lhs_dilate=2x2},
      dim_labels=bf01_oi01->bf01
  ROOT t = (f32[2,16,16,8], f32[2,7,7,8], f32[2,14,14,3], f32[2,8,31,31])
      tuple(same, strided, depthwise, dilated)
}
)"),
            "");
}

TEST(VerifierContraction, ConvolutionMismatches) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  x = f32[2,16,16,3] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  ROOT c = f32[2,16,16,8] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f
}
)"),
              HasSubstr("%c: written shape f32[2,16,16,8] does not match inferred "
                        "f32[2,14,14,8]"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  x = f32[2,16,16,4] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  ROOT c = f32[2,14,14,8] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f
}
)"),
              HasSubstr("%c: input features 4 of f32[2,16,16,4] do not match kernel input "
                        "features 3 of f32[3,3,3,8] times feature_group_count=1"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  x = f32[2,16,16,3] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  ROOT c = f32[2,14,14,8] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b0f
}
)"),
              HasSubstr("%c: malformed dim_labels 'b01f_01io->b0f'"));
}

// ---------------------------------------------------------------------------------------
// Tuples, calls, fusion and control flow.

TEST(VerifierControlFlow, GetTupleElementIndexInRange) {
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  t = (f32[2], s32[]) parameter(0)
  ROOT g = f32[2] get-tuple-element(t), index=2
}
)"),
              HasSubstr("%g: index=2 out of range for tuple of 2 elements"));
  EXPECT_THAT(Verify(R"(HloModule m
ENTRY main {
  t = (f32[2], s32[]) parameter(0)
  ROOT g = f32[2] get-tuple-element(t), index=1
}
)"),
              HasSubstr("%g: written shape f32[2] does not match inferred s32[]"));
}

TEST(VerifierControlFlow, TupleMismatchNamesTheElement) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  a = f32[2] parameter(0)
  b = s32[3] parameter(1)
  inner = (f32[2], s32[3]) tuple(a, b)
  ROOT t = (f32[2], (f32[2], s32[4])) tuple(a, inner)
}
)"),
            "computation main, instruction %t: written shape element {1,1} s32[4] does not "
            "match inferred s32[3]");
}

constexpr std::string_view kFusedMultiply = R"(HloModule m
fused {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  ROOT m = f32[8] multiply(p0, p1)
}
)";

TEST(VerifierControlFlow, FusionMatchesItsComputation) {
  EXPECT_EQ(Verify(std::string(kFusedMultiply) + R"(
ENTRY main {
  a = f32[8] parameter(0)
  ROOT f = f32[8] fusion(a, a), kind=kLoop, calls=fused
}
)"),
            "");
  EXPECT_EQ(Verify(std::string(kFusedMultiply) + R"(
ENTRY main {
  a = f32[8] parameter(0)
  b = f32[4] parameter(1)
  ROOT f = f32[8] fusion(a, b), kind=kLoop, calls=fused
}
)"),
            "computation main, instruction %f: operand 1 shape f32[4] does not match parameter "
            "1 f32[8] of fused");
  EXPECT_EQ(Verify(std::string(kFusedMultiply) + R"(
ENTRY main {
  a = f32[8] parameter(0)
  ROOT f = f32[4] fusion(a, a), kind=kLoop, calls=fused
}
)"),
            "computation main, instruction %f: written shape f32[4] does not match inferred "
            "f32[8] (the root of fused)");
  EXPECT_THAT(Verify(std::string(kFusedMultiply) + R"(
ENTRY main {
  a = f32[8] parameter(0)
  ROOT f = f32[8] fusion(a), kind=kLoop, calls=fused
}
)"),
              HasSubstr("%f: calls computation fused takes 2 parameters, given 1 operands"));
}

TEST(VerifierControlFlow, CallWhileAndConditional) {
  EXPECT_EQ(Verify(R"(HloModule m
double {
  x = f32[4] parameter(0)
  ROOT y = f32[4] add(x, x)
}
cond {
  cs = (s32[], f32[4]) parameter(0)
  ci = s32[] get-tuple-element(cs), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(ci, n), direction=LT
}
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  bv = f32[4] get-tuple-element(s), index=1
  w = f32[4] call(bv), to_apply=double
  ROOT r = (s32[], f32[4]) tuple(next, w)
}
neg {
  nx = f32[4] parameter(0)
  ROOT ny = f32[4] negate(nx)
}
ENTRY main {
  a = f32[4] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[4]) tuple(z, a)
  loop = (s32[], f32[4]) while(init), condition=cond, body=body
  v = f32[4] get-tuple-element(loop), index=1
  k = s32[] parameter(1)
  ROOT c = f32[4] conditional(k, v, a), branch_computations={double, neg}
}
)"),
            "");
  EXPECT_THAT(Verify(R"(HloModule m
cond {
  cs = f32[4] parameter(0)
  ROOT c = s32[] constant(1)
}
body {
  ROOT s = f32[4] parameter(0)
}
ENTRY main {
  a = f32[4] parameter(0)
  ROOT loop = f32[4] while(a), condition=cond, body=body
}
)"),
              HasSubstr("%loop: condition computation cond returns s32[], expected pred[]"));
}

TEST(VerifierControlFlow, UnknownOpsAndCustomCallsAreTrusted) {
  EXPECT_EQ(Verify(R"(HloModule m
ENTRY main {
  a = f32[4] parameter(0)
  b = f32[17,3] my-vendor-op(a), flavour=spicy
  ROOT c = (s8[2], f32[9]) custom-call(b), custom_call_target="Whatever"
}
)"),
            "");
}

// ---------------------------------------------------------------------------------------
// Structure.

constexpr std::string_view kTwoComputations = R"(HloModule m
neg {
  x = f32[4] parameter(0)
  ROOT y = f32[4] negate(x)
}
ENTRY main {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  c = f32[4] add(a, b)
  ROOT d = f32[4] call(c), to_apply=neg
}
)";

TEST(VerifierStructure, DuplicateInstructionNamesAcrossComputations) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  module->FindComputation("main")->FindInstruction("c")->set_name("y");
  EXPECT_EQ(VerifyModule(*module).message(),
            "computation main, instruction %y: name already used in computation neg");
}

TEST(VerifierStructure, ParametersAreNumberedWithoutGaps) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  module->FindComputation("main")->FindInstruction("b")->set_parameter_number(2);
  EXPECT_EQ(VerifyModule(*module).message(),
            "computation main, instruction %b: parameter(2) but the computation has 2 "
            "parameters");
}

TEST(VerifierStructure, EveryComputationHasARoot) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  module->FindComputation("neg")->set_root(nullptr);
  EXPECT_EQ(VerifyModule(*module).message(), "computation neg: has no root");
}

TEST(VerifierStructure, OperandsStayInTheirComputation) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  Instruction* x = module->FindComputation("neg")->FindInstruction("x");
  module->FindComputation("main")->FindInstruction("c")->ReplaceOperand(1, x);
  // Computations are checked in stored order: `neg` first sees a user from elsewhere.
  EXPECT_EQ(VerifyModule(*module).message(),
            "computation neg, instruction %x: user %c belongs to computation main");
}

TEST(VerifierStructure, OperandsMustBeInAComputation) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  const Shape shape(PrimitiveType::kF32, {4});
  std::unique_ptr<Instruction> floating =
      Instruction::Create(Opcode::kNegate, shape, {}, "floating");
  module->FindComputation("main")->AddInstruction(
      Instruction::Create(Opcode::kNegate, shape, {floating.get()}, "user"));
  EXPECT_EQ(VerifyModule(*module).message(),
            "computation main, instruction %user: operand 0 is not an instruction of the module "
            "(never added, or removed)");
}

TEST(VerifierStructure, DetectsCycles) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  Computation* main = module->FindComputation("main");
  Instruction* c = main->FindInstruction("c");
  Instruction* neg = main->AddInstruction(
      Instruction::Create(Opcode::kNegate, Shape(PrimitiveType::kF32, {4}), {c}, "loop_back"));
  c->ReplaceOperand(0, neg);
  EXPECT_THAT(VerifyModule(*module).message(),
              HasSubstr("is part of a cycle through its operands"));
}

TEST(VerifierStructure, FixedArityOpcodes) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  Computation* main = module->FindComputation("main");
  main->FindInstruction("c")->AppendOperand(main->FindInstruction("a"));
  EXPECT_EQ(VerifyModule(*module).message(),
            "computation main, instruction %c: add takes 2 operands, has 3");
}

TEST(VerifierStructure, CalledComputationsBelongToTheModule) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  Computation stray("stray");
  module->FindComputation("main")->FindInstruction("d")->AddCalledComputation("to_apply", &stray);
  EXPECT_EQ(VerifyModule(*module).message(),
            "computation main, instruction %d: calls a computation that is not in the module "
            "(never added, or removed)");
}

TEST(VerifierStructure, NoRecursion) {
  std::unique_ptr<Module> module = Parse(kTwoComputations);
  ASSERT_NE(module, nullptr);
  // main calls neg; making neg call main closes a loop the parser would have refused.
  module->FindComputation("neg")->FindInstruction("y")->AddCalledComputation(
      "to_apply", module->FindComputation("main"));
  EXPECT_THAT(VerifyModule(*module).message(),
              HasSubstr("calls itself through the computations it calls"));
}

// ---------------------------------------------------------------------------------------
// Real files: XLA's own output (tests/data) and the built-in samples must verify.

std::vector<std::filesystem::path> RealHloFiles() {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path root = std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "tests/data";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    // xla_gpu_fusion_dump is written here in XLA's layout, not by XLA (and holds a text proto).
    if (entry.path().string().find("xla_gpu_fusion_dump") != std::string::npos) continue;
    // Inductor's scheduler dumps are .txt files of its own format.
    if (entry.path().string().find("/inductor/") != std::string::npos) continue;
    if (entry.is_regular_file() && (ext == ".hlo" || ext == ".txt")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(VerifierRealFiles, EveryXlaFileVerifies) {
  const std::vector<std::filesystem::path> files = RealHloFiles();
  ASSERT_GE(files.size(), 50u) << "tests/data lost its HLO files";
  for (const std::filesystem::path& file : files) {
    auto module = ParseHloFile(file.string());
    EXPECT_TRUE(module.ok()) << module.message();
    if (!module.ok()) continue;
    Status status = VerifyModule(**module);
    EXPECT_TRUE(status.ok()) << file.string() << ": " << status.message();
  }
}

// The result types of these come from the written shape, so a changed type is not a mistake.
bool TakesWrittenElementType(Opcode opcode) {
  return opcode == Opcode::kConvert || opcode == Opcode::kBitcastConvert ||
         opcode == Opcode::kIota || opcode == Opcode::kDot || opcode == Opcode::kConvolution;
}

// Every instruction whose shape is inferred in real XLA output is really checked: breaking
// its written shape (the element type, or for the ops above the rank) makes the module fail.
TEST(VerifierRealFiles, BreakingAnyInferredShapeIsCaught) {
  int64_t checked = 0;
  for (const std::filesystem::path& file : RealHloFiles()) {
    if (file.string().find("after_optimizations") == std::string::npos) continue;
    auto parsed = ParseHloFile(file.string());
    if (!parsed.ok()) continue;
    Module& module = **parsed;
    for (const auto& computation : module.computations()) {
      for (const auto& instruction : computation->instructions()) {
        auto inferred = InferShape(*instruction);
        if (!inferred.ok() || !inferred->has_value() || !instruction->shape().IsArray() ||
            instruction->opcode() == Opcode::kIota) {
          continue;
        }
        const Shape original = instruction->shape();
        Shape& shape = instruction->mutable_shape();
        if (TakesWrittenElementType(instruction->opcode())) {
          std::vector<int64_t> dims = shape.dimensions();
          dims.push_back(1);
          shape.set_dimensions(dims);
        } else {
          shape.set_element_type(shape.element_type() == PrimitiveType::kF64 ? PrimitiveType::kF32
                                                                             : PrimitiveType::kF64);
        }
        EXPECT_FALSE(VerifyModule(module).ok()) << file.string() << ": " << instruction->name();
        instruction->set_shape(original);
        ++checked;
      }
    }
    EXPECT_TRUE(VerifyModule(module).ok()) << file.string();
  }
  EXPECT_GT(checked, 500);
}

TEST(VerifierRealFiles, BuiltInSamplesVerify) {
  const std::vector<resources::SampleModel> samples = resources::SampleModels();
  ASSERT_FALSE(samples.empty());
  for (const resources::SampleModel& sample : samples) {
    auto module = ParseHloModule(sample.text, std::string(sample.name) + ".hlo");
    ASSERT_TRUE(module.ok()) << module.message();
    Status status = VerifyModule(**module);
    EXPECT_TRUE(status.ok()) << sample.name << ": " << status.message();
  }
}

}  // namespace
}  // namespace fusescope::ir
