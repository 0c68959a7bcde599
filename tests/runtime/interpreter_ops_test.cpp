// Data movement, contraction, reductions, gather/scatter and sort, with expected values
// worked out by hand.

#include <gtest/gtest.h>

#include <cmath>

#include "runtime_test_util.h"

namespace fusescope::runtime {
namespace {

using testing::F32;
using testing::RunValues;
using testing::S32;

// Negative low padding cuts, interior padding interleaves.
TEST(InterpreterOpsTest, PadNegativeAndInterior) {
  const std::string text = R"(HloModule m
ENTRY e {
  a = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[6] pad(a, z), padding=-1_2_1
})";
  EXPECT_EQ(RunValues(text, {F32({3}, {1, 2, 3})}), (std::vector<double>{0, 2, 0, 3, 0, 0}));
}

// Strided slice, clamped dynamic-slice, dynamic-update-slice, concatenate, reverse, iota.
TEST(InterpreterOpsTest, SlicesAndFriends) {
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[2,4] parameter(0)
  ROOT s = f32[2,2] slice(a), slice={[0:2], [1:4:2]}
})",
                      {F32({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})}),
            (std::vector<double>{1, 3, 5, 7}));
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  i = s32[5] iota(), iota_dimension=0
  start = s32[] parameter(0)
  ROOT d = s32[2] dynamic-slice(i, start), dynamic_slice_sizes={2}
})",
                      {S32({}, {4})}),
            (std::vector<double>{3, 4}));
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  u = f32[2] constant({8, 9})
  start = s32[] constant(-3)
  ROOT d = f32[4] dynamic-update-slice(a, u, start)
})",
                      {F32({4}, {1, 2, 3, 4})}),
            (std::vector<double>{8, 9, 3, 4}));
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[2,1] parameter(0)
  b = f32[2,2] constant({{5, 6}, {7, 8}})
  c = f32[2,3] concatenate(a, b), dimensions={1}
  ROOT r = f32[2,3] reverse(c), dimensions={0}
})",
                      {F32({2, 1}, {1, 2})}),
            (std::vector<double>{2, 7, 8, 1, 5, 6}));
}

// Broadcast into chosen dimensions, transpose, and a bitcast that reads the transpose's
// physical layout.
TEST(InterpreterOpsTest, BroadcastTransposeBitcast) {
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  ROOT b = f32[2,3] broadcast(a), dimensions={0}
})",
                      {F32({2}, {1, 2})}),
            (std::vector<double>{1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  ROOT t = f32[3,2]{1,0} transpose(a), dimensions={1,0}
})",
                      {F32({2, 3}, {1, 2, 3, 4, 5, 6})}),
            (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  t = f32[3,2]{0,1} transpose(a), dimensions={1,0}
  ROOT b = f32[6]{0} bitcast(t)
})",
                      {F32({2, 3}, {1, 2, 3, 4, 5, 6})}),
            (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

// Batch dimensions lead the result; contracting dimension need not be the last.
TEST(InterpreterOpsTest, DotWithBatchDimensions) {
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[2,1,2] parameter(0)
  b = f32[2,2,1] parameter(1)
  ROOT d = f32[2,1,1] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
})",
                      {F32({2, 1, 2}, {1, 2, 3, 4}), F32({2, 2, 1}, {5, 6, 7, 8})}),
            (std::vector<double>{17, 53}));
  EXPECT_EQ(RunValues(R"(HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[2] parameter(1)
  ROOT d = f32[3] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
})",
                      {F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({2}, {1, 10})}),
            (std::vector<double>{41, 52, 63}));
}

std::string Conv1d(const std::string& in, const std::string& kernel, const std::string& out,
                   const std::string& attributes) {
  return "HloModule m\nENTRY e {\n  a = f32" + in + " parameter(0)\n  k = f32" + kernel +
         " parameter(1)\n  ROOT c = f32" + out + " convolution(a, k), " + attributes + "\n}\n";
}

// Padding, window (rhs) dilation, base (lhs) dilation and feature groups.
TEST(InterpreterOpsTest, Convolution) {
  const Literal input = F32({1, 5, 1}, {1, 2, 3, 4, 5});
  EXPECT_EQ(RunValues(Conv1d("[1,5,1]", "[3,1,1]", "[1,5,1]",
                             "window={size=3 pad=1_1}, dim_labels=b0f_0io->b0f"),
                      {input, F32({3, 1, 1}, {1, 2, 3})}),
            (std::vector<double>{8, 14, 20, 26, 14}));
  EXPECT_EQ(RunValues(Conv1d("[1,5,1]", "[3,1,1]", "[1,5,1]",
                             "window={size=3 pad=2_2 rhs_dilate=2}, dim_labels=b0f_0io->b0f"),
                      {input, F32({3, 1, 1}, {1, 2, 3})}),
            (std::vector<double>{11, 16, 22, 10, 13}));
  EXPECT_EQ(RunValues(Conv1d("[1,5,1]", "[2,1,1]", "[1,8,1]",
                             "window={size=2 lhs_dilate=2}, dim_labels=b0f_0io->b0f"),
                      {input, F32({2, 1, 1}, {1, 10})}),
            (std::vector<double>{1, 20, 2, 30, 3, 40, 4, 50}));
  EXPECT_EQ(RunValues(Conv1d("[1,1,2]", "[1,1,2]", "[1,1,2]",
                             "window={size=1}, dim_labels=b0f_0io->b0f, feature_group_count=2"),
                      {F32({1, 1, 2}, {1, 2}), F32({1, 1, 2}, {10, 100})}),
            (std::vector<double>{10, 200}));
  // Two batch groups: output feature g reads input batch g.
  EXPECT_EQ(RunValues(Conv1d("[2,1,1]", "[1,1,2]", "[1,1,2]",
                             "window={size=1}, dim_labels=b0f_0io->b0f, batch_group_count=2"),
                      {F32({2, 1, 1}, {3, 5}), F32({1, 1, 2}, {10, 100})}),
            (std::vector<double>{30, 500}));
}

// Padding elements do not take part in the window.
TEST(InterpreterOpsTest, ReduceWindow) {
  EXPECT_EQ(RunValues(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4] reduce-window(a, z), window={size=2 pad=1_0}, to_apply=add
})",
                      {F32({4}, {1, 2, 3, 4})}),
            (std::vector<double>{1, 3, 5, 7}));
}

constexpr const char* kArgmax = R"(HloModule m
argmax {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = s32[] parameter(3)
  gt = pred[] compare(a, c), direction=GT
  eq = pred[] compare(a, c), direction=EQ
  lt = pred[] compare(b, d), direction=LT
  tie = pred[] and(eq, lt)
  keep = pred[] or(gt, tie)
  v = f32[] select(keep, a, c)
  i = s32[] select(keep, b, d)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[4] parameter(0)
  idx = s32[4] iota(), iota_dimension=0
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[], s32[]) reduce(x, idx, ninf, zero), dimensions={0}, to_apply=argmax
})";

// A variadic reduce through a general reducer computation.
TEST(InterpreterOpsTest, VariadicReduceArgmax) {
  StatusOr<Literal> result = testing::RunHlo(kArgmax, {F32({4}, {3, 9, 2, 9})});
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_EQ(result->elements().size(), 2u);
  EXPECT_EQ(result->elements()[0].GetDouble(0), 9);
  EXPECT_EQ(result->elements()[1].GetInt(0), 1);
}

// Reduce over the middle dimension with the direct add path.
TEST(InterpreterOpsTest, ReduceMiddleDimension) {
  EXPECT_EQ(RunValues(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[2,3,2] parameter(0)
  one = f32[] constant(1)
  ROOT r = f32[2,2] reduce(a, one), dimensions={1}, to_apply=add
})",
                      {F32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})}),
            (std::vector<double>{10, 13, 28, 31}));
}

// An f16 sum rounds at every step: 2048 + 1 + 1 stays 2048 in f16 (a double sum gives 2050).
TEST(InterpreterOpsTest, HalfReduceRoundsEachStep) {
  EXPECT_EQ(RunValues(R"(HloModule m
add {
  x = f16[] parameter(0)
  y = f16[] parameter(1)
  ROOT s = f16[] add(x, y)
}
ENTRY e {
  a = f16[3] parameter(0)
  z = f16[] constant(0)
  ROOT r = f16[] reduce(a, z), dimensions={0}, to_apply=add
})",
                      {testing::Array(ir::PrimitiveType::kF16, {3}, {2048, 1, 1})}),
            (std::vector<double>{2048}));
}

// Rows of the operand picked by index; out-of-range starts are clamped.
TEST(InterpreterOpsTest, Gather) {
  const std::string text = R"(HloModule m
ENTRY e {
  a = f32[3,2] parameter(0)
  i = s32[3] parameter(1)
  ROOT g = f32[3,2] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}
})";
  EXPECT_EQ(RunValues(text, {F32({3, 2}, {1, 2, 3, 4, 5, 6}), S32({3}, {2, 0, 7})}),
            (std::vector<double>{5, 6, 1, 2, 5, 6}));
}

// operand_batching_dims: each index row reads its own batch of the operand.
TEST(InterpreterOpsTest, GatherWithBatchingDims) {
  const std::string text = R"(HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  i = s32[2,1] parameter(1)
  ROOT g = f32[2] gather(a, i), offset_dims={}, collapsed_slice_dims={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, start_index_map={1}, index_vector_dim=1, slice_sizes={1,1}
})";
  EXPECT_EQ(RunValues(text, {F32({2, 3}, {1, 2, 3, 4, 5, 6}), S32({2, 1}, {2, 0})}),
            (std::vector<double>{3, 4}));
}

// Repeated indices accumulate; an out-of-range window is skipped.
TEST(InterpreterOpsTest, ScatterAdd) {
  const std::string text = R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[3] parameter(0)
  i = s32[3,1] parameter(1)
  u = f32[3] parameter(2)
  ROOT s = f32[3] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})";
  EXPECT_EQ(RunValues(text, {F32({3}, {1, 1, 1}), S32({3, 1}, {0, 0, 7}), F32({3}, {10, 20, 30})}),
            (std::vector<double>{31, 1, 1}));
}

// A scatter whose combiner is not a plain binary op runs the computation per element.
TEST(InterpreterOpsTest, ScatterWithGeneralCombiner) {
  const std::string text = R"(HloModule m
second {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  two = f32[] constant(2)
  ROOT m = f32[] multiply(y, two)
}
ENTRY e {
  a = f32[3] parameter(0)
  i = s32[1,1] parameter(1)
  u = f32[1] parameter(2)
  ROOT s = f32[3] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=second
})";
  EXPECT_EQ(RunValues(text, {F32({3}, {1, 1, 1}), S32({1, 1}, {2}), F32({1}, {5})}),
            (std::vector<double>{1, 1, 10}));
}

// Keys with a payload, stable: equal keys keep their order; a general comparator too.
TEST(InterpreterOpsTest, SortStableWithPayload) {
  const std::string ascending = R"(HloModule m
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = f32[5] parameter(0)
  v = s32[5] iota(), iota_dimension=0
  ROOT s = (f32[5], s32[5]) sort(k, v), dimensions={0}, is_stable=true, to_apply=less
})";
  StatusOr<Literal> up = testing::RunHlo(ascending, {F32({5}, {3, 1, 2, 1, 3})});
  ASSERT_TRUE(up.ok()) << up.message();
  EXPECT_EQ(testing::Values(up->elements()[0]), (std::vector<double>{1, 1, 2, 3, 3}));
  EXPECT_EQ(testing::Values(up->elements()[1]), (std::vector<double>{1, 3, 2, 0, 4}));
  const std::string descending = R"(HloModule m
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  na = f32[] negate(a)
  nb = f32[] negate(b)
  ROOT lt = pred[] compare(na, nb), direction=LT
}
ENTRY e {
  k = f32[2,3] parameter(0)
  ROOT s = f32[2,3] sort(k), dimensions={1}, to_apply=greater
})";
  EXPECT_EQ(RunValues(descending, {F32({2, 3}, {1, 3, 2, 6, 4, 5})}),
            (std::vector<double>{3, 2, 1, 6, 5, 4}));
}

TEST(InterpreterOpsTest, TopK) {
  StatusOr<Literal> result = testing::RunHlo(R"(HloModule m
ENTRY e {
  a = f32[2,4] parameter(0)
  ROOT t = (f32[2,2], s32[2,2]) topk(a), k=2, largest=true
})",
                                             {F32({2, 4}, {1, 7, 3, 7, 0, -1, 5, 2})});
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(testing::Values(result->elements()[0]), (std::vector<double>{7, 7, 5, 2}));
  EXPECT_EQ(testing::Values(result->elements()[1]), (std::vector<double>{1, 3, 2, 3}));
}

// Max-pool gradient: each source value goes to the maximum of its window.
TEST(InterpreterOpsTest, SelectAndScatter) {
  EXPECT_EQ(RunValues(R"(HloModule m
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[4] parameter(0)
  s = f32[2] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4] select-and-scatter(a, s, z), window={size=2 stride=2}, select=ge, scatter=add
})",
                      {F32({4}, {1, 5, 7, 2}), F32({2}, {10, 20})}),
            (std::vector<double>{0, 10, 20, 0}));
}

// y = scale * (x - mean) / sqrt(var + eps) + offset, per feature.
TEST(InterpreterOpsTest, BatchNormInference) {
  const std::vector<double> out = RunValues(R"(HloModule m
ENTRY e {
  x = f32[2,2] parameter(0)
  s = f32[2] constant({1, 2})
  o = f32[2] constant({0, 1})
  m = f32[2] constant({1, 0})
  v = f32[2] constant({4, 1})
  ROOT b = f32[2,2] batch-norm-inference(x, s, o, m, v), epsilon=0, feature_index=1
})",
                                            {F32({2, 2}, {3, 1, 5, -1})});
  EXPECT_EQ(out, (std::vector<double>{1, 3, 2, -1}));
}

}  // namespace
}  // namespace fusescope::runtime
