#include "passes/rename_fusions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "passes/priority_fusion.h"
#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

using testing::Fusions;
using testing::ParseOrDie;
using testing::RunPass;

std::set<std::string> FusionNames(const ir::Computation& computation) {
  std::set<std::string> names;
  for (const ir::Instruction* fusion : Fusions(computation)) {
    names.insert(fusion->name() + " calls " + fusion->fused_computation()->name());
  }
  return names;
}

// Kind and hero, as XLA:GPU names its kernels: a reduction hero makes an input fusion named
// after the reduce, a loop fusion is named after its root, a multi-output fusion after all
// of its heroes (sorted, `-` turned into `_`), and two fusions of one name are numbered.
TEST(RenameFusionsTest, NamesFusionsAfterKindAndHeroes) {
  RenameFusions pass;
  auto run = RunPass(pass, R"(
HloModule m
add {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT sum = f32[] add(lhs, rhs)
}
fused_computation {
  p = f32[128,1024] parameter(0)
  e = f32[128,1024] exponential(p)
  c = f32[] constant(0)
  ROOT r = f32[128] reduce(e, c), dimensions={1}, to_apply=add
}
fused_computation.1 {
  p = f32[128] parameter(0)
  ROOT b = f32[128,4] broadcast(p), dimensions={0}
}
fused_computation.2 {
  p = f32[128] parameter(0)
  ROOT b = f32[128,4] broadcast(p), dimensions={0}
}
fused_computation.3 {
  p = f32[128] parameter(0)
  n = f32[128] negate(p)
  c = s32[] constant(0)
  s = f32[64] dynamic-slice(n, c), dynamic_slice_sizes={64}
  ROOT t = (f32[128], f32[64]) tuple(n, s)
}
ENTRY main {
  x = f32[128,1024] parameter(0)
  fusion = f32[128] fusion(x), kind=kInput, calls=fused_computation
  fusion.1 = f32[128,4] fusion(fusion), kind=kLoop, calls=fused_computation.1
  fusion.2 = f32[128,4] fusion(fusion), kind=kLoop, calls=fused_computation.2
  fusion.3 = (f32[128], f32[64]) fusion(fusion), kind=kLoop, calls=fused_computation.3
  ROOT t = (f32[128,4], f32[128,4], (f32[128], f32[64])) tuple(fusion.1, fusion.2, fusion.3)
})");
  // Names are not structure: the module's fingerprint stays, so the pass reports no change.
  EXPECT_FALSE(run->changed);
  EXPECT_THAT(FusionNames(*run->module->entry()),
              ::testing::UnorderedElementsAre(
                  "input_reduce_fusion calls fused_reduce",
                  "loop_broadcast_fusion calls fused_broadcast",
                  "loop_broadcast_fusion.1 calls fused_broadcast.1",
                  "loop_dynamic_slice_negate_fusion calls fused_dynamic_slice_negate"));
  // Run again: nothing to rename.
  PassContext context;
  ASSERT_TRUE(pass.Run(*run->module, context).ok());
  EXPECT_THAT(context.stats, ::testing::Contains(std::pair<std::string, std::string>(
                                 "renamed_fusions", "0")));
}

}  // namespace
}  // namespace fusescope::passes
