#include "recording/recorder.h"

#include "gtest/gtest.h"
#include "ir/hlo_printer.h"
#include "recording_test_util.h"

namespace fusescope::recording {
namespace {

using namespace testutil;  // NOLINT: the test passes and module

Recording Record(passes::Pipeline& pipeline, ir::Module& module, Status* status = nullptr) {
  Recorder recorder(pipeline);
  recorder.set_model("small", "small.hlo");
  pipeline.AddInstrumentation(&recorder);
  Status result = pipeline.Run(module);
  if (status) *status = result;
  return recorder.TakeRecording();
}

// One snapshot per pass plus the input; each pass's record says what it did.
TEST(RecorderTest, RecordsEveryPass) {
  auto module = ParseOrDie(kSmallModule);
  const uint64_t input_fingerprint = ir::Fingerprint(*module);
  passes::Pipeline pipeline("test");
  pipeline.Add<NoOpPass>();
  pipeline.Add<AddToMultiplyPass>();
  pipeline.Add<LyingPass>();
  Recording recording = Record(pipeline, *module);

  EXPECT_EQ(recording.model_name, "small");
  EXPECT_EQ(recording.source_path, "small.hlo");
  EXPECT_EQ(recording.pipeline_name, "test");
  EXPECT_NE(recording.input_text.find("%add.1"), std::string::npos);
  EXPECT_FALSE(recording.failed());
  ASSERT_EQ(recording.passes.size(), 3u);
  ASSERT_EQ(recording.snapshots.size(), 4u);
  EXPECT_EQ(recording.snapshots[0].pass_index(), -1);
  EXPECT_EQ(recording.snapshots[0].fingerprint(), input_fingerprint);

  const PassRecord& no_op = recording.passes[0];
  EXPECT_EQ(no_op.name, "no-op");
  EXPECT_FALSE(no_op.changed);
  EXPECT_FALSE(no_op.change_flag_lies);
  EXPECT_GE(no_op.wall_seconds, 0);

  const PassRecord& rewrite = recording.passes[1];
  EXPECT_TRUE(rewrite.changed);
  EXPECT_TRUE(rewrite.reported_changed);
  EXPECT_FALSE(rewrite.change_flag_lies);
  EXPECT_EQ(rewrite.fingerprint_before, input_fingerprint);
  EXPECT_EQ(rewrite.fingerprint_after, ir::Fingerprint(*module));
  EXPECT_EQ(rewrite.instructions_before, 9);
  EXPECT_EQ(rewrite.instructions_after, 9);
  EXPECT_EQ(rewrite.stats, (std::vector<std::pair<std::string, std::string>>{{"replaced", "1"}}));

  const PassRecord& lying = recording.passes[2];
  EXPECT_FALSE(lying.changed);
  EXPECT_TRUE(lying.reported_changed);
  EXPECT_TRUE(lying.change_flag_lies);

  EXPECT_NE(recording.SnapshotBefore(1)->FindInstruction("add.1"), nullptr);
  EXPECT_EQ(recording.SnapshotAfter(1)->FindInstruction("add.1"), nullptr);
  EXPECT_EQ(recording.SnapshotAfter(2)->Text(), ir::PrintModule(*module, [] {
              ir::PrintOptions options;
              options.print_ids = true;
              return options;
            }()));
  EXPECT_EQ(recording.SnapshotAfter(3), nullptr);
}

// Snapshots after passes that change nothing are the previous snapshot, shared whole.
TEST(RecorderTest, UnchangedPassesShareEverything) {
  auto module = ParseOrDie(kSmallModule);
  passes::Pipeline pipeline("test");
  pipeline.Add<NoOpPass>();
  pipeline.Add<AddToMultiplyPass>();
  pipeline.Add<LyingPass>();
  Recording recording = Record(pipeline, *module);

  SnapshotSharing no_op = recording.snapshots[1].SharingWith(recording.snapshots[0]);
  EXPECT_EQ(no_op.shared_instructions, no_op.instructions);
  EXPECT_EQ(no_op.shared_computations, no_op.computations);
  SnapshotSharing lying = recording.snapshots[3].SharingWith(recording.snapshots[2]);
  EXPECT_EQ(lying.shared_instructions, lying.instructions);
  SnapshotSharing rewrite = recording.snapshots[2].SharingWith(recording.snapshots[1]);
  EXPECT_EQ(rewrite.instructions, 9);
  EXPECT_EQ(rewrite.shared_instructions, 7);

  RecordingFootprint footprint = recording.Footprint();
  EXPECT_EQ(footprint.snapshots, 4);
  EXPECT_EQ(footprint.instruction_references, 36);
  EXPECT_EQ(footprint.unique_instruction_records, 11);  // 9 input + multiply + new exp
  EXPECT_EQ(footprint.unique_computations, 3);          // reducer, main before and after
  EXPECT_GT(footprint.bytes, 0);
}

// A disabled pass is recorded as skipped, with the previous snapshot.
TEST(RecorderTest, SkippedPassIsRecorded) {
  auto module = ParseOrDie(kSmallModule);
  passes::PipelineOptions options;
  options.disabled_passes.insert("add-to-multiply");
  passes::Pipeline pipeline("test", options);
  pipeline.Add<AddToMultiplyPass>();
  Recording recording = Record(pipeline, *module);
  ASSERT_EQ(recording.passes.size(), 1u);
  EXPECT_TRUE(recording.passes[0].skipped);
  EXPECT_FALSE(recording.passes[0].change_flag_lies);
  EXPECT_EQ(recording.options.disabled_passes, options.disabled_passes);
  SnapshotSharing sharing = recording.snapshots[1].SharingWith(recording.snapshots[0]);
  EXPECT_EQ(sharing.shared_instructions, 9);
}

// Decisions arrive with the index of the pass that made them.
TEST(RecorderTest, RecordsFusionDecisions) {
  auto module = ParseOrDie(kSmallModule);
  passes::Pipeline pipeline("test");
  pipeline.Add<NoOpPass>();
  pipeline.Add<ConsiderFusionPass>();
  Recording recording = Record(pipeline, *module);
  // Entry pairs: p0->add, p1->add, add->exp, exp->reduce, zero->reduce.
  ASSERT_EQ(recording.decisions.size(), 5u);
  EXPECT_TRUE(recording.DecisionsOf(0).empty());
  EXPECT_EQ(recording.DecisionsOf(1).size(), 5u);
  int accepted = 0;
  for (const passes::FusionDecisionRecord& decision : recording.decisions) {
    EXPECT_EQ(decision.pass, "consider-fusion");
    EXPECT_EQ(decision.pass_index, 1);
    if (decision.accepted()) {
      ++accepted;
      EXPECT_EQ(decision.producer_name, "add.1");
      EXPECT_EQ(decision.consumer_name, "exp.1");
    }
  }
  EXPECT_EQ(accepted, 1);
}

// A pass that returns an error ends the recording with a broken snapshot and a reproducer.
TEST(RecorderTest, FailedPassLeavesReproducer) {
  auto module = ParseOrDie(kSmallModule);
  passes::Pipeline pipeline("test");
  pipeline.Add<AddToMultiplyPass>();
  pipeline.Add<FailingPass>();
  pipeline.Add<NoOpPass>();
  Status status;
  Recording recording = Record(pipeline, *module, &status);
  EXPECT_FALSE(status.ok());
  ASSERT_TRUE(recording.failed());
  ASSERT_EQ(recording.passes.size(), 2u);
  ASSERT_EQ(recording.snapshots.size(), 3u);
  EXPECT_TRUE(recording.passes[1].failed);
  EXPECT_NE(recording.passes[1].error.find("nothing works today"), std::string::npos);
  EXPECT_TRUE(recording.snapshots[2].broken());
  EXPECT_FALSE(recording.snapshots[1].broken());
  EXPECT_EQ(recording.reproducer->pass_name, "failing");
  EXPECT_EQ(recording.reproducer->pass_index, 1);
  // The reproducer is the module the failing pass was given: after add-to-multiply.
  EXPECT_NE(recording.reproducer->module_text.find("multiply("), std::string::npos);
  EXPECT_EQ(recording.reproducer->module_text.find("add.1"), std::string::npos);
}

// A pass that breaks the IR: the verifier's refusal is recorded with the broken module.
TEST(RecorderTest, BrokenIrIsKept) {
  auto module = ParseOrDie(kSmallModule);
  passes::Pipeline pipeline("test");
  pipeline.Add<BreakingPass>();
  Status status;
  Recording recording = Record(pipeline, *module, &status);
  ASSERT_FALSE(status.ok());
  ASSERT_TRUE(recording.failed());
  ASSERT_EQ(recording.snapshots.size(), 2u);
  const Snapshot& broken = recording.snapshots[1];
  EXPECT_TRUE(broken.broken());
  EXPECT_FALSE(broken.error().empty());
  EXPECT_NE(broken.FindInstruction("exp.1")->text.find("f32[4]"), std::string::npos);
  EXPECT_NE(recording.reproducer->module_text.find("f32[8]{0} exponential"), std::string::npos);
}

}  // namespace
}  // namespace fusescope::recording
