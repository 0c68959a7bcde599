#include "passes/fusion_merger.h"

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

// A loop fusion is merged into both of its fusion users and disappears.
TEST(FusionMergerTest, MergesLoopFusionIntoAllUsers) {
  const char* text = R"(
HloModule m
fused_computation.1 {
  param_0.1 = f32[64] parameter(0)
  ROOT e = f32[64] exponential(param_0.1)
}
fused_computation.2 {
  param_0.2 = f32[64] parameter(0)
  ROOT n = f32[64] negate(param_0.2)
}
fused_computation.3 {
  param_0.3 = f32[64] parameter(0)
  param_1.3 = f32[64] parameter(1)
  ROOT a = f32[64] add(param_0.3, param_1.3)
}
ENTRY main {
  p0 = f32[64] parameter(0)
  p1 = f32[64] parameter(1)
  fusion.1 = f32[64] fusion(p0), kind=kLoop, calls=fused_computation.1
  fusion.2 = f32[64] fusion(fusion.1), kind=kLoop, calls=fused_computation.2
  fusion.3 = f32[64] fusion(fusion.1, p1), kind=kLoop, calls=fused_computation.3
  ROOT t = (f32[64], f32[64]) tuple(fusion.2, fusion.3)
})";
  auto original = testing::ParseOrDie(text);
  FusionMerger pass;
  auto run = RunPass(pass, text);
  ASSERT_TRUE(run->changed);
  const ir::Computation& entry = *run->module->entry();
  EXPECT_EQ(entry.FindInstruction("fusion.1"), nullptr);
  EXPECT_EQ(run->module->FindComputation("fused_computation.1"), nullptr);
  ASSERT_EQ(Fusions(entry).size(), 2u);
  for (const ir::Instruction* fusion : Fusions(entry)) {
    EXPECT_EQ(FusedOpcodes(*fusion).count("exponential"), 1u);
  }
  const FusionDecisionRecord* record = FindDecision(run->log, "fusion.1", "fusion.2");
  ASSERT_NE(record, nullptr);
  EXPECT_THAT(record->explanation,
              ::testing::MatchesRegex("merged a copy of %fusion.1 into %fusion.2 \\(kLoop\\); a "
                                      "copy goes into each of its 2 users; the cost model "
                                      "expects it to save [0-9.]+ us"));
  testing::ExpectProvenanceComplete(*original, *run->module);
}

// All users or none: one user that cannot take the producer blocks the others too.
TEST(FusionMergerTest, RefusesWhenOneUserCannotTakeIt) {
  FusionMerger pass;
  auto run = RunPass(pass, R"(
HloModule m
fused_computation.1 {
  param_0.1 = f32[8,64] parameter(0)
  ROOT e = f32[8,64] exponential(param_0.1)
}
fused_computation.2 {
  param_0.2 = f32[8,64] parameter(0)
  ROOT n = f32[8,64] negate(param_0.2)
}
ENTRY main {
  p0 = f32[8,64] parameter(0)
  w = f32[64,32] parameter(1)
  fusion.1 = f32[8,64] fusion(p0), kind=kLoop, calls=fused_computation.1
  fusion.2 = f32[8,64] fusion(fusion.1), kind=kLoop, calls=fused_computation.2
  dot.3 = f32[8,32] dot(fusion.1, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[8,64], f32[8,32]) tuple(fusion.2, dot.3)
})");
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* culprit = FindDecision(run->log, "fusion.1", "dot.3");
  ASSERT_NE(culprit, nullptr);
  EXPECT_EQ(culprit->reason, FusionReason::kConsumerNotFusible);
  EXPECT_EQ(culprit->explanation,
            "%dot.3 (dot) runs as a library call (cuBLAS/cuDNN), not inside a fusion");
  const FusionDecisionRecord* other = FindDecision(run->log, "fusion.1", "fusion.2");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->explanation,
            "%fusion.1 merges into all users or none, and %dot.3 refuses: %dot.3 (dot) runs as "
            "a library call (cuBLAS/cuDNN), not inside a fusion");
}

// A transposing producer is not merged into a reduction, which would read it uncoalesced.
TEST(FusionMergerTest, RefusesUncoalescedReadsIntoReduction) {
  FusionMerger pass;
  auto run = RunPass(pass, R"(
HloModule m
add {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT sum = f32[] add(lhs, rhs)
}
fused_computation.1 {
  param_0.1 = f32[512,256] parameter(0)
  ROOT tr = f32[256,512] transpose(param_0.1), dimensions={1,0}
}
fused_computation.2 {
  param_0.2 = f32[256,512] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[256] reduce(param_0.2, zero), dimensions={1}, to_apply=add
}
ENTRY main {
  p0 = f32[512,256] parameter(0)
  fusion.1 = f32[256,512] fusion(p0), kind=kLoop, calls=fused_computation.1
  ROOT fusion.2 = f32[256] fusion(fusion.1), kind=kInput, calls=fused_computation.2
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "fusion.1", "fusion.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kIncompatibleIterationSpace);
  EXPECT_EQ(record->explanation,
            "merging %fusion.1 into the reduction %fusion.2 would read mostly uncoalesced data: "
            "it transposes, and the reduction iterates in the untransposed order");
}

// The cost model refuses to copy a producer with large inputs into many users.
TEST(FusionMergerTest, RefusesWhenSlowerByTheCostModel) {
  std::string text = R"(
HloModule m
fused_computation.1 {
  param_0.1 = f32[1024,1024] parameter(0)
  param_1.1 = f32[1024,1024] parameter(1)
  ROOT a = f32[1024,1024] add(param_0.1, param_1.1)
}
)";
  std::string entry = R"(ENTRY main {
  p0 = f32[1024,1024] parameter(0)
  p1 = f32[1024,1024] parameter(1)
  fusion.1 = f32[1024,1024] fusion(p0, p1), kind=kLoop, calls=fused_computation.1
)";
  std::string shapes;
  std::string users;
  for (int i = 0; i < 8; ++i) {
    const std::string n = std::to_string(i + 10);
    text += "fused_computation." + n + " {\n  param_0." + n +
            " = f32[1024,1024] parameter(0)\n  ROOT n." + n + " = f32[1024,1024] negate(param_0." +
            n + ")\n}\n";
    entry += "  fusion." + n +
             " = f32[1024,1024] fusion(fusion.1), kind=kLoop, calls=fused_computation." + n + "\n";
    shapes += std::string(i ? ", " : "") + "f32[1024,1024]";
    users += std::string(i ? ", " : "") + "fusion." + n;
  }
  entry += "  ROOT t = (" + shapes + ") tuple(" + users + ")\n}\n";
  FusionMerger pass;
  auto run = RunPass(pass, text + entry);
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "fusion.1", "fusion.10");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kNotProfitable);
  EXPECT_THAT(record->explanation,
              ::testing::MatchesRegex("merging %fusion.1 into its 8 users would take [0-9.]+ us "
                                      "against [0-9.]+ us unfused; it will execute slower if "
                                      "merged"));
}

}  // namespace
}  // namespace fusescope::passes
