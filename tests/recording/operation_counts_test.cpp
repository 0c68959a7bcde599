#include "recording/operation_counts.h"

#include "gtest/gtest.h"
#include "recording/compile_and_record.h"
#include "recording_test_util.h"
#include "resources/samples.h"

namespace fusescope::recording {
namespace {

// One fusion of three instructions (two fused parameters and an add) in an entry of four,
// and a reduction body of three that is not a fusion body.
constexpr std::string_view kFusedModule = R"hlo(HloModule fused

%add_reducer (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}

%fused_add (x: f32[8], y: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %y = f32[8]{0} parameter(1)
  ROOT %add = f32[8]{0} add(f32[8]{0} %x, f32[8]{0} %y)
}

ENTRY %main (p0: f32[8], p1: f32[8]) -> f32[] {
  %p0 = f32[8]{0} parameter(0)
  %p1 = f32[8]{0} parameter(1)
  %fusion = f32[8]{0} fusion(f32[8]{0} %p0, f32[8]{0} %p1), kind=kLoop, calls=%fused_add
  %zero = f32[] constant(0)
  ROOT %reduce = f32[] reduce(f32[8]{0} %fusion, f32[] %zero), dimensions={0}, to_apply=%add_reducer
}
)hlo";

// Counts the instructions inside the fusion bodies of `module` from the fusions themselves,
// nested fusions included, independently of CountOperations.
int64_t InstructionsInsideFusions(const ir::Computation& computation) {
  int64_t inside = 0;
  for (const auto& instruction : computation.instructions()) {
    const ir::Computation* body = instruction->fused_computation();
    if (!body) continue;
    inside += body->instruction_count() + InstructionsInsideFusions(*body);
  }
  return inside;
}

// The reader's numbers for a small module: the fusion is one operation, its body is not work
// of its own, and a reduction body counts as operations.
TEST(OperationCountsTest, CountsFusionBodiesApart) {
  std::unique_ptr<ir::Module> module = testutil::ParseOrDie(kFusedModule);
  ASSERT_NE(module, nullptr);
  const OperationCounts counts = CountOperations(*module);
  EXPECT_EQ(counts.operations, 8);  // 5 in the entry, 3 in the reducer
  EXPECT_EQ(counts.fusions, 1);
  EXPECT_EQ(counts.fused_instructions, 3);
  EXPECT_EQ(counts.instructions(), module->instruction_count());
}

// A snapshot counts the same as the module it captured.
TEST(OperationCountsTest, SnapshotAgreesWithModule) {
  std::unique_ptr<ir::Module> module = testutil::ParseOrDie(kFusedModule);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(CountOperations(Snapshot::Capture(*module, nullptr)), CountOperations(*module));
}

TEST(OperationCountsTest, DescribesAChange) {
  const OperationCounts unfused{131, 0, 0};
  const OperationCounts fused{40, 17, 98};
  EXPECT_EQ(DescribeCounts(unfused, fused),
            "131 → 40 operations, 17 fusions holding 98 instructions");
  EXPECT_EQ(DescribeCounts(unfused, unfused), "131 operations");
  EXPECT_EQ(DescribeCounts(fused, OperationCounts{38, 16, 100}),
            "40 → 38 operations, 17 → 16 fusions holding 98 → 100 instructions");
  EXPECT_EQ(DescribeCounts(OperationCounts{2, 0, 0}, OperationCounts{1, 1, 1}),
            "2 → 1 operation, 1 fusion holding 1 instruction");
}

// On a built-in sample compiled for real: every snapshot counts as its rebuilt module does,
// the counts add up to all instructions, and a fusion pass lowers the operations while what
// it fused is found inside its fusions.
TEST(OperationCountsTest, FusionPassOfASampleLowersOperations) {
  passes::PipelineOptions options;
  options.target = "cpu";
  StatusOr<Recording> recording =
      CompileAndRecord(resources::FindSample("bert_encoder").text, options, "bert_encoder.hlo");
  ASSERT_TRUE(recording.ok()) << recording.message();
  const std::vector<OperationCounts> counts = CountSnapshots(*recording);
  ASSERT_EQ(counts.size(), recording->passes.size() + 1);
  bool fusion_pass_seen = false;
  for (const PassRecord& pass : recording->passes) {
    const OperationCounts& before = counts[static_cast<size_t>(pass.index)];
    const OperationCounts& after = counts[static_cast<size_t>(pass.index) + 1];
    EXPECT_EQ(before.instructions(), pass.instructions_before) << pass.name;
    EXPECT_EQ(after.instructions(), pass.instructions_after) << pass.name;
    StatusOr<std::unique_ptr<ir::Module>> module = recording->SnapshotAfter(pass.index)->ToModule();
    ASSERT_TRUE(module.ok()) << module.message();
    EXPECT_EQ(after, CountOperations(**module)) << pass.name;
    EXPECT_EQ(after.fused_instructions, InstructionsInsideFusions(*(*module)->entry()))
        << pass.name;
    if (pass.changed && before.fusions == 0 && after.fusions > 0) {
      fusion_pass_seen = true;
      EXPECT_LT(after.operations, before.operations) << pass.name;
      EXPECT_GT(after.fused_instructions, 0) << pass.name;
    }
  }
  EXPECT_TRUE(fusion_pass_seen);
}

}  // namespace
}  // namespace fusescope::recording
