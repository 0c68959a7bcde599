// Control flow, called computations, and what the interpreter refuses.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "runtime_test_util.h"

namespace fusescope::runtime {
namespace {

using testing::F32;
using testing::RunHlo;
using testing::RunValues;
using testing::S32;

constexpr const char* kCountingLoop = R"(HloModule m
cond {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  two = f32[] constant(2)
  j = s32[] add(i, one)
  y = f32[] add(x, two)
  ROOT t = (s32[], f32[]) tuple(j, y)
}
ENTRY e {
  zero = s32[] constant(0)
  x = f32[] parameter(0)
  init = (s32[], f32[]) tuple(zero, x)
  ROOT w = (s32[], f32[]) while(init), condition=cond, body=body
})";

TEST(InterpreterControlTest, WhileLoop) {
  StatusOr<Literal> result = RunHlo(kCountingLoop, {F32({}, {0.5})});
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(result->elements()[0].GetInt(0), 5);
  EXPECT_EQ(result->elements()[1].GetDouble(0), 10.5);
}

// A loop past the iteration limit is stopped with an error naming the while.
TEST(InterpreterControlTest, WhileLimit) {
  InterpreterOptions options;
  options.max_while_iterations = 3;
  StatusOr<Literal> result = RunHlo(kCountingLoop, {F32({}, {0})}, options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("w: "), std::string::npos) << result.message();
  EXPECT_NE(result.message().find("iteration limit"), std::string::npos) << result.message();
}

// Predicate and indexed conditionals (an index out of range takes the last branch), call,
// fusion and map.
TEST(InterpreterControlTest, ConditionalCallFusionMap) {
  const std::string text = R"(HloModule m
neg {
  a = f32[2] parameter(0)
  ROOT n = f32[2] negate(a)
}
dbl {
  a = f32[2] parameter(0)
  ROOT d = f32[2] add(a, a)
}
sq {
  a = f32[] parameter(0)
  ROOT s = f32[] multiply(a, a)
}
fused {
  p = f32[2] parameter(0)
  ROOT e = f32[2] map(p), dimensions={0}, to_apply=sq
}
ENTRY e {
  i = s32[] parameter(0)
  x = f32[2] parameter(1)
  c = f32[2] conditional(i, x, x), branch_computations={neg, dbl}
  f = f32[2] fusion(c), kind=kLoop, calls=fused
  ROOT r = f32[2] call(f), to_apply=neg
})";
  EXPECT_EQ(RunValues(text, {S32({}, {0}), F32({2}, {1, 3})}), (std::vector<double>{-1, -9}));
  EXPECT_EQ(RunValues(text, {S32({}, {7}), F32({2}, {1, 3})}), (std::vector<double>{-4, -36}));
}

// Collectives with one replica hand the operand back; barriers and tokens pass through.
TEST(InterpreterControlTest, CollectivesAreIdentity) {
  const std::string text = R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[2] parameter(0)
  r = f32[2] all-reduce(a), replica_groups={}, to_apply=add
  t = token[] after-all()
  b = f32[2] opt-barrier(r)
  ROOT g = f32[2] all-gather(b), dimensions={0}, replica_groups={}
})";
  EXPECT_EQ(RunValues(text, {F32({2}, {1, 2})}), (std::vector<double>{1, 2}));
}

// An unknown custom-call names the instruction and its target.
TEST(InterpreterControlTest, RefusesCustomCall) {
  StatusOr<Literal> result = RunHlo(R"(HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  ROOT weird.7 = f32[2] custom-call(a), custom_call_target="MyKernel"
})",
                                    {F32({2}, {1, 2})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("weird.7"), std::string::npos) << result.message();
  EXPECT_NE(result.message().find("MyKernel"), std::string::npos) << result.message();
}

// Sharding annotations pass the value through; the TopK custom-call is topk.
TEST(InterpreterControlTest, KnownCustomCalls) {
  StatusOr<Literal> result = RunHlo(R"(HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  s = f32[2,3] custom-call(a), custom_call_target="Sharding", sharding={replicated}
  ROOT t = (f32[2,2], s32[2,2]) custom-call(s), custom_call_target="TopK"
})",
                                    {F32({2, 3}, {1, 3, 2, 6, 5, 4})});
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(testing::Values(result->elements()[0]), (std::vector<double>{3, 2, 6, 5}));
  EXPECT_EQ(testing::Values(result->elements()[1]), (std::vector<double>{1, 2, 0, 1}));
}

// rng-bit-generator is refused, not faked.
TEST(InterpreterControlTest, RefusesRngBitGenerator) {
  StatusOr<Literal> result = RunHlo(R"(HloModule m
ENTRY e {
  s = u64[2] parameter(0)
  ROOT r = (u64[2], u32[4]) rng-bit-generator(s), algorithm=rng_default
})",
                                    {testing::Array(ir::PrimitiveType::kU64, {2}, {1, 2})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("random bits"), std::string::npos) << result.message();
}

// A result past the live-byte limit is refused before anything is allocated: a 40 GB
// broadcast fails at once.
TEST(InterpreterControlTest, RefusesAbsurdShapeBeforeAllocating) {
  StatusOr<Literal> result = RunHlo(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  ROOT huge = f32[100000,100000] broadcast(a), dimensions={}
})",
                                    {F32({}, {1})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("huge"), std::string::npos) << result.message();
  EXPECT_NE(result.message().find("limit"), std::string::npos) << result.message();
  InterpreterOptions small;
  small.max_live_bytes = 64;
  StatusOr<Literal> over = RunHlo(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  ROOT b = f32[100] broadcast(a), dimensions={}
})",
                                  {F32({}, {1})}, small);
  EXPECT_FALSE(over.ok());
}

// Values a loop iteration leaves behind stop counting against the live-byte limit: a long
// loop over a 1 KB state runs under a 64 KB limit.
TEST(InterpreterControlTest, LongLoopStaysUnderTheLiveLimit) {
  const std::string text = R"(HloModule m
cond {
  s = (s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(1000)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[256] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  y = f32[256] add(x, x)
  ROOT t = (s32[], f32[256]) tuple(j, y)
}
ENTRY e {
  zero = s32[] constant(0)
  x = f32[256] parameter(0)
  init = (s32[], f32[256]) tuple(zero, x)
  ROOT w = (s32[], f32[256]) while(init), condition=cond, body=body
})";
  InterpreterOptions options;
  options.max_live_bytes = 64 << 10;
  StatusOr<Literal> result = RunHlo(text, {F32({256}, std::vector<double>(256, 0.0))}, options);
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(result->elements()[0].GetInt(0), 1000);
}

TEST(InterpreterControlTest, CancelAndProgress) {
  std::atomic<bool> cancel{true};
  InterpreterOptions options;
  options.cancel = &cancel;
  StatusOr<Literal> cancelled = RunHlo(kCountingLoop, {F32({}, {0})}, options);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_NE(cancelled.message().find("cancelled"), std::string::npos);
  std::vector<int64_t> done;
  InterpreterOptions watched;
  watched.progress = [&](int64_t n, int64_t total) {
    done.push_back(n);
    EXPECT_EQ(total, 4);
  };
  ASSERT_TRUE(RunHlo(kCountingLoop, {F32({}, {0})}, watched).ok());
  EXPECT_EQ(done, (std::vector<int64_t>{1, 2, 3, 4}));
}

// A written shape that disagrees with the operands is refused before anything runs.
TEST(InterpreterControlTest, RefusesModuleThatDoesNotVerify) {
  StatusOr<Literal> result = RunHlo(R"(HloModule m
ENTRY e {
  a = f32[3] parameter(0)
  ROOT c = f32[9] concatenate(a, a), dimensions={0}
})",
                                    {F32({3}, {1, 2, 3})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("does not verify"), std::string::npos) << result.message();
}

// Wrong argument count or shape is an error, not a crash.
TEST(InterpreterControlTest, RejectsBadArguments) {
  EXPECT_FALSE(RunHlo(kCountingLoop, {}).ok());
  StatusOr<Literal> wrong = RunHlo(kCountingLoop, {S32({2}, {1, 2})});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.message().find("does not match"), std::string::npos);
}

}  // namespace
}  // namespace fusescope::runtime
