#include "passes/call_inliner.h"

#include <gtest/gtest.h>

#include "passes/provenance_util.h"
#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

// A body called once moves into its caller: same names and ids, the body is gone.
TEST(CallInlinerTest, MovesABodyCalledOnce) {
  const char* text = R"(
HloModule m
relu {
  arg = f32[8] parameter(0)
  zero = f32[] constant(0)
  zeros = f32[8] broadcast(zero), dimensions={}
  ROOT max = f32[8] maximum(arg, zeros)
}
ENTRY main {
  p0 = f32[8] parameter(0)
  ROOT call.1 = f32[8] call(p0), to_apply=relu
})";
  auto original = testing::ParseOrDie(text);
  CallInliner pass;
  auto run = testing::RunPass(pass, text);
  ASSERT_TRUE(run->changed);
  EXPECT_EQ(run->module->FindComputation("relu"), nullptr);
  const ir::Instruction* root = run->module->entry()->root();
  EXPECT_EQ(root->name(), "max");
  EXPECT_EQ(root->id(), original->FindInstruction("max")->id());
  EXPECT_TRUE(root->provenance().Contains(original->FindInstruction("call.1")->id()));
  EXPECT_TRUE(CheckProvenanceCovers(*run->module, LiveInstructionIds(*original)).ok());
}

// A body called twice is copied twice under fresh names.
TEST(CallInlinerTest, CopiesABodyCalledTwice) {
  CallInliner pass;
  auto run = testing::RunPass(pass, R"(
HloModule m
twice {
  arg = f32[8] parameter(0)
  ROOT sum = f32[8] add(arg, arg)
}
ENTRY main {
  p0 = f32[8] parameter(0)
  c.1 = f32[8] call(p0), to_apply=twice
  c.2 = f32[8] call(c.1), to_apply=twice
  ROOT t = (f32[8], f32[8]) tuple(c.1, c.2)
})");
  const ir::Computation& entry = *run->module->entry();
  int adds = 0;
  for (const auto& instruction : entry.instructions()) {
    adds += instruction->opcode() == ir::Opcode::kAdd ? 1 : 0;
    EXPECT_NE(instruction->opcode(), ir::Opcode::kCall);
  }
  EXPECT_EQ(adds, 2);
  EXPECT_EQ(run->module->FindComputation("twice"), nullptr);
}

// A fusion inside a body moved into its caller keeps its fused computation, which now names
// the moved fusion (not the one freed with the body).
TEST(CallInlinerTest, MovedFusionOwnsItsFusedComputation) {
  CallInliner pass;
  auto run = testing::RunPass(pass, R"(
HloModule m
fused {
  fp = s32[2,2] parameter(0)
  ROOT fabs = s32[2,2] abs(fp)
}
body {
  arg = s32[2,2] parameter(0)
  ROOT f = s32[2,2] fusion(arg), kind=kLoop, calls=fused
}
ENTRY main {
  p0 = s32[2,2] parameter(0)
  ROOT c = s32[2,2] call(p0), to_apply=body
})");
  ASSERT_TRUE(run->changed);
  const ir::Instruction* fusion = run->module->entry()->root();
  ASSERT_EQ(fusion->opcode(), ir::Opcode::kFusion);
  EXPECT_EQ(fusion->fused_computation()->name(), "fused");
  EXPECT_EQ(fusion->fused_computation()->fusion_instruction(), fusion);
}

// A body called twice is copied twice; each copied fusion gets a fused computation of its
// own, since a fused computation belongs to one fusion.
TEST(CallInlinerTest, CopiedFusionsGetTheirOwnFusedComputations) {
  CallInliner pass;
  auto run = testing::RunPass(pass, R"(
HloModule m
fused {
  fp = f32[4] parameter(0)
  ROOT fneg = f32[4] negate(fp)
}
body {
  arg = f32[4] parameter(0)
  ROOT f = f32[4] fusion(arg), kind=kLoop, calls=fused
}
ENTRY main {
  p0 = f32[4] parameter(0)
  c.1 = f32[4] call(p0), to_apply=body
  c.2 = f32[4] call(c.1), to_apply=body
  ROOT t = (f32[4], f32[4]) tuple(c.1, c.2)
})");
  ASSERT_TRUE(run->changed);
  std::vector<const ir::Instruction*> fusions = testing::Fusions(*run->module->entry());
  ASSERT_EQ(fusions.size(), 2u);
  EXPECT_NE(fusions[0]->fused_computation(), fusions[1]->fused_computation());
  for (const ir::Instruction* fusion : fusions) {
    EXPECT_EQ(fusion->fused_computation()->fusion_instruction(), fusion);
  }
}

}  // namespace
}  // namespace fusescope::passes
