#include "passes/multi_output_fusion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

using testing::FindDecision;
using testing::FusedOpcodes;
using testing::Fusions;
using testing::RunPass;

std::string Module(const std::string& entry) {
  return R"(
HloModule m
add {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT sum = f32[] add(lhs, rhs)
}
mx {
  mx_lhs = f32[] parameter(0)
  mx_rhs = f32[] parameter(1)
  ROOT mx_max = f32[] maximum(mx_lhs, mx_rhs)
}
)" + entry;
}

// Two reductions of the same input become one multi-output fusion that reads it once.
TEST(MultiOutputFusionTest, FusesSiblingReductions) {
  const std::string text = Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  c = f32[] constant(0)
  r.1 = f32[128] reduce(p0, c), dimensions={1}, to_apply=add
  r.2 = f32[128] reduce(p0, c), dimensions={1}, to_apply=mx
  ROOT t = (f32[128], f32[128]) tuple(r.1, r.2)
})");
  auto original = testing::ParseOrDie(text);
  MultiOutputFusion pass;
  auto run = RunPass(pass, text);
  ASSERT_TRUE(run->changed);
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 1u) << testing::Dump(*run->module);
  const ir::Instruction& fusion = *Fusions(entry).front();
  EXPECT_EQ(fusion.fusion_kind(), "Input");
  EXPECT_EQ(fusion.fused_computation()->root()->opcode(), ir::Opcode::kTuple);
  EXPECT_EQ(FusedOpcodes(fusion), (std::multiset<std::string>{"reduce", "reduce", "tuple"}));
  // The root tuple reads both outputs through get-tuple-elements.
  for (const ir::Instruction* element : entry.root()->operands()) {
    EXPECT_EQ(element->opcode(), ir::Opcode::kGetTupleElement);
    EXPECT_EQ(element->operand(0), &fusion);
  }
  const FusionDecisionRecord* record = FindDecision(run->log, "r.2", "r.1");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->explanation,
            "fused sibling %r.2 into %r.1, forming %reduce_reduce_fusion (multi-output kInput); both read %p0, "
            "now once");
  testing::ExpectProvenanceComplete(*original, *run->module);
}

// Siblings where one reads the other cannot be fused: the fusion would feed itself.
TEST(MultiOutputFusionTest, RefusesConnectedSiblings) {
  MultiOutputFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[64] parameter(0)
  a = f32[64] negate(p0)
  b = f32[64] add(a, p0)
  ROOT t = (f32[64]) tuple(b)
})"));
  const FusionDecisionRecord* record = FindDecision(run->log, "b", "a");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kWouldCreateCycle);
  EXPECT_EQ(record->explanation,
            "%a and %b are connected (one reads the other); fusing them as siblings of %p0 would "
            "create a cycle");
}

// Reductions over different dimensions iterate differently and stay apart.
TEST(MultiOutputFusionTest, RefusesDifferentLoopShapes) {
  MultiOutputFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  c = f32[] constant(0)
  r.1 = f32[128] reduce(p0, c), dimensions={1}, to_apply=add
  r.2 = f32[1024] reduce(p0, c), dimensions={0}, to_apply=add
  ROOT t = (f32[128], f32[1024]) tuple(r.1, r.2)
})"));
  const FusionDecisionRecord* record = FindDecision(run->log, "r.2", "r.1");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kIncompatibleIterationSpace);
  EXPECT_EQ(record->explanation,
            "%r.1 and %r.2 are tiled reductions with different shapes; they cannot share a "
            "kernel");
  EXPECT_TRUE(Fusions(*run->module->entry()).empty());
}

// A producer with several users joins its reduction consumer as an extra output.
TEST(MultiOutputFusionTest, FusesProducerAsExtraOutput) {
  const std::string text = Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  c = f32[] constant(0)
  e.1 = f32[128,1024] exponential(p0)
  r.2 = f32[128] reduce(e.1, c), dimensions={1}, to_apply=add
  ROOT t = (f32[128,1024], f32[128]) tuple(e.1, r.2)
})");
  auto original = testing::ParseOrDie(text);
  MultiOutputFusion pass;
  auto run = RunPass(pass, text);
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 1u) << testing::Dump(*run->module);
  const ir::Instruction& fusion = *Fusions(entry).front();
  EXPECT_EQ(FusedOpcodes(fusion), (std::multiset<std::string>{"exponential", "reduce", "tuple"}));
  EXPECT_EQ(entry.FindInstruction("e.1"), nullptr);
  const FusionDecisionRecord* record = FindDecision(run->log, "e.1", "r.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kFused);
  EXPECT_EQ(record->explanation,
            "fused %e.1 into %r.2, forming %exponential_reduce_fusion (kInput) as an extra output; its 1 other user "
            "reads it from the fusion");
  testing::ExpectProvenanceComplete(*original, *run->module);
}

// A consumer that also reads the producer through another path would close a cycle.
TEST(MultiOutputFusionTest, RefusesProducerConsumerCycle) {
  MultiOutputFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[16,16] parameter(0)
  e.1 = f32[16,16] exponential(p0)
  rev.2 = f32[16,16] reverse(e.1), dimensions={0}
  add.3 = f32[16,16] add(e.1, rev.2)
  ROOT t = (f32[16,16], f32[16,16]) tuple(add.3, e.1)
})"));
  const FusionDecisionRecord* record = FindDecision(run->log, "e.1", "add.3");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kWouldCreateCycle);
  EXPECT_EQ(record->explanation,
            "%add.3 also reads %e.1 through %rev.2; a multi-output fusion of the two would "
            "create a cycle");
}

// The operand budget counts every output of a multi-output fusion.
TEST(MultiOutputFusionTest, RefusesOverOperandBudget) {
  PipelineOptions options;
  options.fusion.max_operands_and_outputs = 3;
  MultiOutputFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  p1 = f32[128,1024] parameter(1)
  a.1 = f32[128,1024] add(p0, p1)
  m.2 = f32[128,1024] multiply(p0, p1)
  ROOT t = (f32[128,1024], f32[128,1024]) tuple(a.1, m.2)
})"),
                     options);
  const FusionDecisionRecord* record = FindDecision(run->log, "m.2", "a.1");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kTooManyOperands);
  EXPECT_EQ(record->explanation, "fusion would have 4 operands+outputs, limit is 3");
}

// Turning multi-output fusion off leaves the module alone.
TEST(MultiOutputFusionTest, HonoursDisabledMultiOutput) {
  PipelineOptions options;
  options.fusion.multi_output = false;
  MultiOutputFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  c = f32[] constant(0)
  r.1 = f32[128] reduce(p0, c), dimensions={1}, to_apply=add
  r.2 = f32[128] reduce(p0, c), dimensions={1}, to_apply=mx
  ROOT t = (f32[128], f32[128]) tuple(r.1, r.2)
})"),
                     options);
  EXPECT_FALSE(run->changed);
  EXPECT_TRUE(run->log.records().empty());
}

// A multi-output fusion can take a further sibling: its outputs are regrouped in one tuple.
TEST(MultiOutputFusionTest, GrowsAnExistingMultiOutputFusion) {
  MultiOutputFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[256] parameter(0)
  a.1 = f32[256] negate(p0)
  b.2 = f32[256] abs(p0)
  c.3 = f32[256] floor(p0)
  ROOT t = (f32[256], f32[256], f32[256]) tuple(a.1, b.2, c.3)
})"));
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 1u) << testing::Dump(*run->module);
  const ir::Instruction& fusion = *Fusions(entry).front();
  EXPECT_EQ(fusion.shape().tuple_shapes().size(), 3u);
  EXPECT_EQ(FusedOpcodes(fusion), (std::multiset<std::string>{"abs", "floor", "negate", "tuple"}));
}

// Two sort fusions of one shape, as TPU sort/top-k graphs have: each is tuple-shaped without
// being a multi-output fusion, so neither can be one output of a sibling fusion. The pass
// refuses with a reason instead of failing.
TEST(MultiOutputFusionTest, RefusesTupleShapedSiblingThatIsNotMultiOutput) {
  MultiOutputFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
greater {
  e = f32[] parameter(0)
  f = f32[] parameter(1)
  g = s32[] parameter(2)
  h = s32[] parameter(3)
  ROOT gt = pred[] compare(e, f), direction=GT
}
sort_ascending {
  sp = f32[64] parameter(0)
  si = s32[64] iota(), iota_dimension=0
  ROOT s = (f32[64], s32[64]) sort(sp, si), dimensions={0}, to_apply=less
}
sort_descending {
  tp = f32[64] parameter(0)
  ti = s32[64] iota(), iota_dimension=0
  ROOT t = (f32[64], s32[64]) sort(tp, ti), dimensions={0}, to_apply=greater
}
ENTRY main {
  p0 = f32[64] parameter(0)
  fusion.0 = (f32[64], s32[64]) fusion(p0), kind=kLoop, calls=sort_ascending
  fusion.1 = (f32[64], s32[64]) fusion(p0), kind=kLoop, calls=sort_descending
  v.0 = f32[64] get-tuple-element(fusion.0), index=0
  v.1 = f32[64] get-tuple-element(fusion.1), index=0
  ROOT r = (f32[64], f32[64]) tuple(v.0, v.1)
})");
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "fusion.1", "fusion.0");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kMultiOutputNotPossible);
  EXPECT_EQ(record->explanation,
            "%fusion.0 produces a tuple (f32[64], s32[64]) without being a multi-output fusion; "
            "a tuple cannot be one output of a fusion");
}

// A multi-output fusion that is the computation's result keeps its tuple; growing it would
// leave nothing to return.
TEST(MultiOutputFusionTest, RefusesToGrowAMultiOutputFusionThatIsTheRoot) {
  MultiOutputFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
fused {
  fp = f32[64] parameter(0)
  fn = f32[64] negate(fp)
  fe = f32[64] exponential(fp)
  ROOT ft = (f32[64], f32[64]) tuple(fn, fe)
}
ENTRY main {
  p0 = f32[64] parameter(0)
  a = f32[64] abs(p0)
  ROOT fusion = (f32[64], f32[64]) fusion(p0), kind=kLoop, calls=fused
  g = f32[64] get-tuple-element(fusion), index=0
  b = f32[64] add(a, g)
})");
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "a", "fusion");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kMultiOutputNotPossible);
  EXPECT_EQ(record->explanation,
            "%fusion is a multi-output fusion whose tuple is the result of main; the tuple "
            "itself would have to stay");
}

}  // namespace
}  // namespace fusescope::passes
