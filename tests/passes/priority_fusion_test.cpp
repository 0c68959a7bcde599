#include "passes/priority_fusion.h"

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

constexpr const char* kAdd = R"(
add {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT sum = f32[] add(lhs, rhs)
}
)";

std::string Module(const std::string& entry) { return "HloModule m\n" + std::string(kAdd) + entry; }

// A reduction with its elementwise producer and its init constant becomes one kInput fusion.
TEST(PriorityFusionTest, ReductionWithProducersBecomesInputFusion) {
  PriorityFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  exp.1 = f32[128,1024] exponential(p0)
  c.2 = f32[] constant(0)
  ROOT r.3 = f32[128] reduce(exp.1, c.2), dimensions={1}, to_apply=add
})"));
  ASSERT_TRUE(run->changed);
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 1u) << testing::Dump(*run->module);
  const ir::Instruction& fusion = *Fusions(entry).front();
  EXPECT_EQ(fusion.fusion_kind(), "Input");
  EXPECT_EQ(FusedOpcodes(fusion),
            (std::multiset<std::string>{"constant", "exponential", "reduce"}));
  EXPECT_EQ(fusion.fused_computation()->root()->opcode(), ir::Opcode::kReduce);
  const FusionDecisionRecord* constant = FindDecision(run->log, "c.2", "exponential_reduce_fusion");
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->explanation,
            "fused %c.2 into %exponential_reduce_fusion (kInput); small constants are fused last, into every "
            "fusible user");
}

// A producer goes into all of its users or none; each user gets a copy.
TEST(PriorityFusionTest, ProducerIsDuplicatedIntoAllUsers) {
  PriorityFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[64] parameter(0)
  p1 = f32[64] parameter(1)
  exp.1 = f32[64] exponential(p0)
  add.2 = f32[64] add(exp.1, p1)
  mul.3 = f32[64] multiply(exp.1, p1)
  ROOT t = (f32[64], f32[64]) tuple(add.2, mul.3)
})"));
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 2u) << testing::Dump(*run->module);
  EXPECT_EQ(entry.FindInstruction("exp.1"), nullptr);
  for (const ir::Instruction* fusion : Fusions(entry)) {
    EXPECT_EQ(FusedOpcodes(*fusion).count("exponential"), 1u);
  }
  const FusionDecisionRecord* first = FindDecision(run->log, "exp.1", "add.2");
  ASSERT_NE(first, nullptr);
  EXPECT_THAT(first->explanation,
              ::testing::MatchesRegex("fused (a copy of )?%exp.1 into %add.2, forming %exponential_(add|multiply)_fusion "
                                      "\\(kLoop\\); a copy goes into each of its 2 users; the "
                                      "cost model expects it to save [0-9.]+ us"));
}

// An elementwise op is not fused into the output of a reduction.
TEST(PriorityFusionTest, RefusesReductionEpilogue) {
  PriorityFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  c = f32[] constant(0)
  r.1 = f32[128] reduce(p0, c), dimensions={1}, to_apply=add
  ROOT n.2 = f32[128] negate(r.1)
})"));
  const FusionDecisionRecord* record = FindDecision(run->log, "r.1", "n.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kProducerIsReduction);
  EXPECT_EQ(record->explanation,
            "%r.1 is a reduction; fusing %n.2 into its output would turn the reduction kernel "
            "into a loop fusion (reduction epilogues are not fused)");
}

// Two reductions are not fused into one kernel.
TEST(PriorityFusionTest, RefusesFusingTwoReductions) {
  PriorityFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[64,20] parameter(0)
  c = f32[] constant(0)
  r.1 = f32[64] reduce(p0, c), dimensions={1}, to_apply=add
  ROOT r.2 = f32[] reduce(r.1, c), dimensions={0}, to_apply=add
})"));
  const FusionDecisionRecord* record = FindDecision(run->log, "r.1", "r.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kBothReductions);
  EXPECT_EQ(record->explanation,
            "both %r.1 and %r.2 contain a reduce; the cost model cannot tile a reduction fused "
            "into another");
}

// The cost model refuses to duplicate a producer that reads much into many consumers.
TEST(PriorityFusionTest, RefusesWhenTheCostModelSaysSlower) {
  std::string entry = R"(
ENTRY main {
  p0 = f32[1024,1024] parameter(0)
  p1 = f32[1024,1024] parameter(1)
  add.1 = f32[1024,1024] add(p0, p1)
)";
  std::string tuple = "  ROOT t = (";
  std::string elements;
  for (int i = 0; i < 8; ++i) {
    entry += "  n." + std::to_string(i) + " = f32[1024,1024] negate(add.1)\n";
    tuple += std::string(i ? ", " : "") + "f32[1024,1024]";
    elements += std::string(i ? ", " : "") + "n." + std::to_string(i);
  }
  entry += tuple + ") tuple(" + elements + ")\n}\n";
  PriorityFusion pass;
  auto run = RunPass(pass, Module(entry));
  const FusionDecisionRecord* record = FindDecision(run->log, "add.1", "n.0");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kNotProfitable);
  EXPECT_THAT(record->explanation,
              ::testing::MatchesRegex("fusing %add.1 into its 8 users would take [0-9.]+ us "
                                      "against [0-9.]+ us unfused, by the cost model"));
  EXPECT_NE(run->module->FindInstruction("add.1"), nullptr);
}

// The default GPU budget is 64 operands+outputs per fusion.
TEST(PriorityFusionTest, RefusesMoreThan64OperandsAndOutputs) {
  std::string entry = "ENTRY main {\n";
  for (int i = 0; i < 70; ++i) {
    entry += "  p" + std::to_string(i) + " = f32[16] parameter(" + std::to_string(i) + ")\n";
  }
  entry += "  a1 = f32[16] add(p0, p1)\n";
  for (int i = 2; i < 70; ++i) {
    entry += std::string(i == 69 ? "  ROOT " : "  ") + "a" + std::to_string(i) +
             " = f32[16] add(a" + std::to_string(i - 1) + ", p" + std::to_string(i) + ")\n";
  }
  entry += "}\n";
  PriorityFusion pass;
  auto run = RunPass(pass, Module(entry));
  bool refused = false;
  for (const FusionDecisionRecord& record : run->log.records()) {
    if (record.reason != FusionReason::kTooManyOperands) continue;
    refused = true;
    EXPECT_THAT(
        record.explanation,
        ::testing::MatchesRegex("fusion would have [0-9]+ operands\\+outputs, limit is 64"));
  }
  EXPECT_TRUE(refused);
  for (const ir::Instruction* fusion : Fusions(*run->module->entry())) {
    EXPECT_LE(fusion->operand_count() + 1, 64);
  }
}

// Constants larger than a scalar stay out of GPU kernels.
TEST(PriorityFusionTest, RefusesNonScalarConstant) {
  PriorityFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  p0 = f32[4] parameter(0)
  k.1 = f32[4] constant({1, 2, 3, 4})
  add.2 = f32[4] add(p0, k.1)
  ROOT n.3 = f32[4] negate(add.2)
})"));
  const FusionDecisionRecord* record = FindDecision(run->log, "k.1", "add_negate_fusion");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kNonScalarConstant);
}

// Dots run as library calls on the GPU; their neighbours fuse around them.
TEST(PriorityFusionTest, DotIsNotFusible) {
  PriorityFusion pass;
  auto run = RunPass(pass, Module(R"(
ENTRY main {
  x = f32[8,64] parameter(0)
  w = f32[64,32] parameter(1)
  dot.1 = f32[8,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT n.2 = f32[8,32] negate(dot.1)
})"));
  const FusionDecisionRecord* record = FindDecision(run->log, "dot.1", "n.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kProducerNotFusible);
  EXPECT_EQ(record->explanation,
            "%dot.1 (dot) runs as a library call (cuBLAS/cuDNN), not inside a fusion");
}

// Priority fusion keeps provenance complete: everything maps back and forward.
TEST(PriorityFusionTest, KeepsProvenanceComplete) {
  const std::string text = Module(R"(
ENTRY main {
  p0 = f32[128,1024] parameter(0)
  p1 = f32[128] parameter(1)
  c = f32[] constant(0)
  exp.1 = f32[128,1024] exponential(p0)
  r.2 = f32[128] reduce(exp.1, c), dimensions={1}, to_apply=add
  b.3 = f32[128,1024] broadcast(r.2), dimensions={0}
  d.4 = f32[128,1024] divide(exp.1, b.3)
  ROOT t = (f32[128,1024], f32[128]) tuple(d.4, p1)
})");
  auto original = testing::ParseOrDie(text);
  PriorityFusion pass;
  auto run = RunPass(pass, text);
  EXPECT_EQ(Fusions(*run->module->entry()).size(), 2u) << testing::Dump(*run->module);
  testing::ExpectProvenanceComplete(*original, *run->module);
}

// Small constants are fused into every fusible user, but not into a multi-output fusion that
// is the computation's result: its tuple is returned as it is.
TEST(PriorityFusionTest, ConstantIsNotFusedIntoARootMultiOutputFusion) {
  PriorityFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
fused {
  fp = f32[6] parameter(0)
  fc = f16[] parameter(1)
  fw = f32[] convert(fc)
  fb = f32[6] broadcast(fw), dimensions={}
  fm = f32[6] multiply(fp, fb)
  ROOT ft = (f32[6], f32[6]) tuple(fm, fp)
}
ENTRY main {
  p0 = f32[6] parameter(0)
  c = f16[] constant(2.5)
  ROOT f = (f32[6], f32[6]) fusion(p0, c), kind=kLoop, calls=fused
})");
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "c", "f");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kMultiOutputNotPossible);
  EXPECT_EQ(record->explanation,
            "%f is a multi-output fusion whose tuple is the result of main; the tuple itself "
            "would have to stay");
}

// Fusing into a fusion drops an operand its body never reads, which can leave a multi-output
// fusion with only unused elements within the pass. Nothing may be fused into it then: the
// fusion would have no output.
TEST(PriorityFusionTest, NothingIsFusedIntoAMultiOutputFusionWhoseElementsAreUnused) {
  PriorityFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
fused {
  fa = f32[] parameter(0)
  fb = f32[8] parameter(1)
  fn = f32[8] negate(fb)
  fe = f32[8] exponential(fb)
  ROOT ft = (f32[8], f32[8]) tuple(fn, fe)
}
ignores_first {
  unused = f32[8] parameter(0)
  gp = f32[8] parameter(1)
  ROOT gn = f32[8] negate(gp)
}
ENTRY main {
  p0 = f32[] parameter(0)
  p1 = f32[8] parameter(1)
  a = f32[] negate(p0)
  f = (f32[8], f32[8]) fusion(a, p1), kind=kLoop, calls=fused
  g = f32[8] get-tuple-element(f), index=0
  h = f32[8] sqrt(g)
  ROOT user = f32[8] fusion(h, p1), kind=kLoop, calls=ignores_first
  b = f32[] add(a, a)
})");
  EXPECT_TRUE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "a", "f");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kNoUsers);
  EXPECT_EQ(record->explanation,
            "%f is a multi-output fusion none of whose elements is read; a fusion of it would "
            "have no output");
}

}  // namespace
}  // namespace fusescope::passes
