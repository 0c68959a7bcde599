#include "passes/fusion_utils.h"

#include <gtest/gtest.h>

#include "passes/reachability_map.h"
#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

constexpr const char* kModule = R"(
HloModule m
add {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT sum = f32[] add(lhs, rhs)
}
ENTRY main {
  p0 = f32[128,1024]{1,0} parameter(0)
  p1 = f32[8] parameter(1)
  c = f32[] constant(0)
  row = f32[128] reduce(p0, c), dimensions={1}, to_apply=add
  column = f32[1024] reduce(p0, c), dimensions={0}, to_apply=add
  tiny = f32[128,1]{1,0} reshape(row)
  flip = f32[1024,128]{1,0} transpose(p0), dimensions={1,0}
  relabel = f32[1024,128]{0,1} transpose(p0), dimensions={1,0}
  grow = f32[8,32] broadcast(p1), dimensions={0}
  e = f32[8] exponential(p1)
  d = f32[8] divide(e, p1)
  ROOT t = (f32[128], f32[1024], f32[128,1], f32[1024,128], f32[1024,128], f32[8,32], f32[8]) tuple(row, column, tiny, flip, relabel, grow, d)
})";

class FusionUtilsTest : public ::testing::Test {
 protected:
  void SetUp() override { module_ = testing::ParseOrDie(kModule); }
  const ir::Instruction& Get(const char* name) { return *module_->FindInstruction(name); }
  std::unique_ptr<ir::Module> module_;
};

// Reductions over the minor or major dimensions are the GPU's reduction-emitter heroes.
TEST_F(FusionUtilsTest, RecognisesRowAndColumnReductions) {
  EXPECT_TRUE(IsReductionFromOrToContiguousDimensions(Get("row")));
  EXPECT_TRUE(IsReductionFromOrToContiguousDimensions(Get("column")));
  EXPECT_FALSE(IsReductionFromOrToContiguousDimensions(Get("e")));
  EXPECT_EQ(ChooseGpuFusionKind(Get("row")), FusionKind::kInput);
  EXPECT_EQ(ChooseGpuFusionKind(Get("e")), FusionKind::kLoop);
}

// A transpose that only relabels dimensions is a bitcast; one that moves bytes is tiled.
TEST_F(FusionUtilsTest, TellsBitcastsFromPhysicalTransposes) {
  EXPECT_TRUE(IsBitcastLike(Get("tiny")));
  EXPECT_TRUE(IsBitcastLike(Get("relabel")));
  EXPECT_FALSE(IsBitcastLike(Get("flip")));
  EXPECT_TRUE(IsTiledTranspose(Get("flip")));
  EXPECT_FALSE(IsTiledTranspose(Get("relabel")));
  EXPECT_TRUE(IsPhysicallyTransposing(Get("flip")));
}

// Cost classes: transcendentals and float division are expensive, broadcasts duplicable.
TEST_F(FusionUtilsTest, ClassifiesCosts) {
  EXPECT_TRUE(IsExpensive(Get("e")));
  EXPECT_TRUE(IsExpensive(Get("d")));
  EXPECT_FALSE(IsExpensive(Get("grow")));
  EXPECT_TRUE(IsAlwaysDuplicable(Get("grow")));
  EXPECT_EQ(CostClassPhrase(Get("e")), "a transcendental");
  EXPECT_EQ(CostClassPhrase(Get("row")), "a reduction");
}

// A growing broadcast re-reads its operand; an elementwise op does not.
TEST_F(FusionUtilsTest, KnowsWhoReusesOperandElements) {
  EXPECT_TRUE(ReusesOperandElements(Get("grow"), 0));
  EXPECT_FALSE(ReusesOperandElements(Get("d"), 0));
  EXPECT_FALSE(ReusesOperandElements(Get("row"), 0));
  EXPECT_TRUE(ReusesOperandElements(Get("row"), 1));  // the init value, once per output
}

// The footprint of a would-be fusion counts distinct outside operands and outputs.
TEST_F(FusionUtilsTest, MeasuresAWouldBeFusion) {
  const FusionFootprint fused = MeasureFusion({&Get("e"), &Get("d")}, {&Get("d")});
  EXPECT_EQ(fused.operands, 1);  // p1, read by both
  EXPECT_EQ(fused.outputs, 1);
  EXPECT_EQ(fused.instructions, 2);
  const FusionFootprint reductions =
      MeasureFusion({&Get("row"), &Get("column")}, {&Get("row"), &Get("column")});
  EXPECT_EQ(reductions.reductions, 2);
  EXPECT_EQ(reductions.unnested_reductions, 2);
  EXPECT_GT(reductions.shared_memory_bytes, 0);
}

// Reachability follows uses; siblings reading a common operand are not connected.
TEST_F(FusionUtilsTest, ReachabilityFollowsUses) {
  ReachabilityMap reachability(*module_->entry());
  EXPECT_TRUE(reachability.IsReachable(&Get("p1"), &Get("d")));
  EXPECT_TRUE(reachability.IsReachable(&Get("e"), &Get("d")));
  EXPECT_FALSE(reachability.IsReachable(&Get("d"), &Get("e")));
  EXPECT_FALSE(reachability.IsConnected(&Get("row"), &Get("column")));
  EXPECT_TRUE(reachability.Descendants(&Get("p1"), 1 << 20).count(&Get("d")));
}

// Only control flow bodies and the entry are places to fuse in.
TEST_F(FusionUtilsTest, FusibleComputationsSkipReducers) {
  const std::vector<ir::Computation*> computations = FusibleComputations(*module_);
  ASSERT_EQ(computations.size(), 1u);
  EXPECT_EQ(computations.front(), module_->entry());
}

}  // namespace
}  // namespace fusescope::passes
