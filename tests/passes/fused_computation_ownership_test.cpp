// A fused computation belongs to exactly one fusion instruction and goes when it goes. Real
// training graphs broke this: CSE merged two equal fusions and left the loser's fused
// computation naming a freed instruction, which the verifier then read.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/verifier.h"
#include "passes/call_inliner.h"
#include "passes/cse.h"
#include "passes/dce.h"
#include "passes/pipeline.h"
#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

using testing::ParseOrDie;
using testing::RunPass;

std::vector<std::string> FusedComputationNames(const ir::Module& module) {
  std::vector<std::string> names;
  for (const auto& computation : module.computations()) {
    if (computation->fusion_instruction() != nullptr) names.push_back(computation->name());
  }
  return names;
}

int64_t CountOpcode(const ir::Computation& computation, ir::Opcode opcode) {
  int64_t count = 0;
  for (const auto& instruction : computation.instructions()) {
    count += instruction->opcode() == opcode ? 1 : 0;
  }
  return count;
}

constexpr char kTwoEqualFusions[] = R"(
HloModule twins

fused_a {
  p = f32[8] parameter(0)
  ROOT e = f32[8] exponential(p)
}

fused_b {
  q = f32[8] parameter(0)
  ROOT e2 = f32[8] exponential(q)
}

ENTRY main {
  x = f32[8] parameter(0)
  f1 = f32[8] fusion(x), kind=kLoop, calls=fused_a
  f2 = f32[8] fusion(x), kind=kLoop, calls=fused_b
  ROOT t = (f32[8], f32[8]) tuple(f1, f2)
}
)";

// CSE keeps one of two equal fusions; the other one's fused computation leaves with it.
TEST(FusedComputationOwnershipTest, CseTakesTheMergedFusionsBodyAlong) {
  Cse cse;
  auto result = RunPass(cse, kTwoEqualFusions);
  ASSERT_NE(result->module, nullptr);
  EXPECT_TRUE(result->changed);
  EXPECT_EQ(CountOpcode(*result->module->entry(), ir::Opcode::kFusion), 1);
  EXPECT_EQ(FusedComputationNames(*result->module), std::vector<std::string>{"fused_a"});
  // A copy made now must not trip over the removed fusion either.
  EXPECT_TRUE(ir::VerifyModule(*result->module->Clone()).ok());
}

// A dead fusion removed by DCE takes its fused computation along.
TEST(FusedComputationOwnershipTest, RemovingADeadFusionRemovesItsBody) {
  std::unique_ptr<ir::Module> module = ParseOrDie(R"(
HloModule dead

fused_a {
  p = f32[8] parameter(0)
  ROOT e = f32[8] exponential(p)
}

ENTRY main {
  x = f32[8] parameter(0)
  f1 = f32[8] fusion(x), kind=kLoop, calls=fused_a
  ROOT n = f32[8] negate(x)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->RemoveDeadInstructions(), 1);
  EXPECT_TRUE(FusedComputationNames(*module).empty());
  const Status verified = ir::VerifyModule(*module);
  EXPECT_TRUE(verified.ok()) << verified.message();
}

constexpr char kCalledTwice[] = R"(
HloModule calls

fused_e {
  p = f32[8] parameter(0)
  ROOT e = f32[8] exponential(p)
}

helper {
  a = f32[8] parameter(0)
  ROOT f = f32[8] fusion(a), kind=kLoop, calls=fused_e
}

ENTRY main {
  x = f32[8] parameter(0)
  c1 = f32[8] call(x), to_apply=helper
  c2 = f32[8] call(c1), to_apply=helper
  ROOT t = (f32[8], f32[8]) tuple(c1, c2)
}
)";

// Inlining a computation that holds a fusion gives each inlined fusion a body of its own.
TEST(FusedComputationOwnershipTest, InliningCopiesOrMovesFusedBodies) {
  CallInliner inliner;
  auto result = RunPass(inliner, kCalledTwice);
  ASSERT_NE(result->module, nullptr);
  EXPECT_TRUE(result->changed);
  const ir::Computation& entry = *result->module->entry();
  EXPECT_EQ(CountOpcode(entry, ir::Opcode::kFusion), 2);
  EXPECT_EQ(FusedComputationNames(*result->module).size(), 2u);
  for (const auto& instruction : entry.instructions()) {
    if (instruction->opcode() != ir::Opcode::kFusion) continue;
    EXPECT_EQ(instruction->fused_computation()->fusion_instruction(), instruction.get());
  }
  EXPECT_EQ(result->module->FindComputation("helper"), nullptr);
}

// Two fusions that share a fused computation are refused, as XLA's verifier refuses them.
TEST(FusedComputationOwnershipTest, VerifierRefusesASharedFusedComputation) {
  std::unique_ptr<ir::Module> module = ParseOrDie(R"(
HloModule shared

fused_a {
  p = f32[8] parameter(0)
  ROOT e = f32[8] exponential(p)
}

ENTRY main {
  x = f32[8] parameter(0)
  f1 = f32[8] fusion(x), kind=kLoop, calls=fused_a
  f2 = f32[8] fusion(f1), kind=kLoop, calls=fused_a
  ROOT t = (f32[8], f32[8]) tuple(f1, f2)
}
)");
  ASSERT_NE(module, nullptr);
  const Status verified = ir::VerifyModule(*module);
  ASSERT_FALSE(verified.ok());
  EXPECT_NE(verified.message().find("which is the fused computation of %f2"), std::string::npos)
      << verified.message();
}

// The whole GPU pipeline on equal fusions: CSE merges them, and every later pass (the
// verifier runs after each) finds no trace of the removed one.
TEST(FusedComputationOwnershipTest, PipelineAfterMergedFusionsVerifies) {
  std::unique_ptr<ir::Module> module = ParseOrDie(kTwoEqualFusions);
  ASSERT_NE(module, nullptr);
  for (const std::string target : {"cpu", "gpu"}) {
    std::unique_ptr<ir::Module> copy = module->Clone();
    PipelineOptions options;
    options.target = target;
    StatusOr<std::unique_ptr<Pipeline>> pipeline = MakeBuiltinPipeline(options);
    ASSERT_TRUE(pipeline.ok()) << pipeline.message();
    const Status status = (*pipeline)->Run(*copy);
    EXPECT_TRUE(status.ok()) << target << ": " << status.message();
  }
}

}  // namespace
}  // namespace fusescope::passes
