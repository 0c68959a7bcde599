#include "recording/compile_and_record.h"

#include "gtest/gtest.h"
#include "ir/hlo_printer.h"
#include "recording/recording_store.h"
#include "recording_test_util.h"
#include "resources/samples.h"

namespace fusescope::recording {
namespace {

using testutil::TemporaryDirectory;

StatusOr<Recording> CompileSample(std::string_view name, std::string_view target) {
  resources::SampleModel sample = resources::FindSample(name);
  EXPECT_FALSE(sample.text.empty()) << name;
  passes::PipelineOptions options;
  options.target = std::string(target);
  return CompileAndRecord(sample.text, options, std::string(name) + ".hlo");
}

class BuiltinPipelineTest : public ::testing::TestWithParam<const char*> {};

// The real pipeline, recorded: one snapshot per pass, fingerprints that chain, every
// snapshot rebuilding to the module it recorded, fusions formed and explained.
TEST_P(BuiltinPipelineTest, RecordsTheRealPipeline) {
  StatusOr<Recording> recording = CompileSample("mlp", GetParam());
  ASSERT_TRUE(recording.ok()) << recording.message();
  EXPECT_EQ(recording->pipeline_name, GetParam());
  EXPECT_EQ(recording->options.target, GetParam());
  EXPECT_EQ(recording->source_path, "mlp.hlo");
  EXPECT_EQ(recording->input_text, resources::FindSample("mlp").text);
  EXPECT_FALSE(recording->failed());
  ASSERT_GT(recording->passes.size(), 5u);
  ASSERT_EQ(recording->snapshots.size(), recording->passes.size() + 1);
  EXPECT_FALSE(recording->decisions.empty());
  bool any_fusion = false;
  for (size_t i = 0; i < recording->passes.size(); ++i) {
    const PassRecord& pass = recording->passes[i];
    const Snapshot& before = recording->snapshots[i];
    const Snapshot& after = recording->snapshots[i + 1];
    EXPECT_EQ(pass.fingerprint_before, before.fingerprint()) << pass.name;
    EXPECT_EQ(pass.fingerprint_after, after.fingerprint()) << pass.name;
    EXPECT_EQ(pass.instructions_after, after.instruction_count()) << pass.name;
    // rename-fusions changes names only (which fingerprints ignore): its renamed fusions are
    // new records, everything else is shared.
    if (!pass.changed && pass.name != "rename-fusions") {
      EXPECT_EQ(after.SharingWith(before).shared_instructions, after.instruction_count())
          << pass.name;
    }
    StatusOr<std::unique_ptr<ir::Module>> rebuilt = after.ToModule();
    ASSERT_TRUE(rebuilt.ok()) << pass.name << ": " << rebuilt.message();
    EXPECT_EQ(ir::Fingerprint(**rebuilt), after.fingerprint()) << pass.name;
    for (const auto& computation : after.computations()) {
      for (const auto& record : computation->instructions) {
        any_fusion |= record->opcode == "fusion";
      }
    }
  }
  EXPECT_TRUE(any_fusion);
}

// Saved and loaded, a real recording is the same recording.
TEST_P(BuiltinPipelineTest, RealRecordingRoundTripsThroughTheStore) {
  TemporaryDirectory dir;
  StatusOr<Recording> recording = CompileSample("bert_encoder", GetParam());
  ASSERT_TRUE(recording.ok()) << recording.message();
  const std::string path = dir.File("run.fsdb");
  ASSERT_TRUE(SaveRecording(*recording, path).ok());
  StatusOr<Recording> loaded = LoadRecording(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_EQ(loaded->passes, recording->passes);
  ASSERT_EQ(loaded->snapshots.size(), recording->snapshots.size());
  for (size_t i = 0; i < loaded->snapshots.size(); ++i) {
    EXPECT_EQ(loaded->snapshots[i].Text(), recording->snapshots[i].Text()) << i;
    EXPECT_EQ(loaded->snapshots[i].fingerprint(), recording->snapshots[i].fingerprint()) << i;
  }
  ASSERT_EQ(loaded->decisions.size(), recording->decisions.size());
  for (size_t i = 0; i < loaded->decisions.size(); ++i) {
    EXPECT_EQ(loaded->decisions[i].pass_index, recording->decisions[i].pass_index);
    EXPECT_EQ(loaded->decisions[i].reason, recording->decisions[i].reason);
    EXPECT_EQ(loaded->decisions[i].explanation, recording->decisions[i].explanation);
  }
  const Snapshot& last = loaded->snapshots.back();
  for (const auto& computation : last.computations()) {
    for (const auto& record : computation->instructions) {
      const InstructionRecord* original = recording->snapshots.back().FindInstruction(record->id);
      ASSERT_NE(original, nullptr) << record->name;
      EXPECT_EQ(record->provenance(), original->provenance()) << record->name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, BuiltinPipelineTest, ::testing::Values("cpu", "gpu"));

TEST(CompileAndRecordTest, ParseErrorIsReported) {
  StatusOr<Recording> recording = CompileAndRecord("HloModule broken\nENTRY {", {}, "bad.hlo");
  ASSERT_FALSE(recording.ok());
  EXPECT_EQ(recording.message().rfind("bad.hlo:", 0), 0u) << recording.message();
}

TEST(CompileAndRecordTest, UnknownPipelineIsReported) {
  passes::PipelineOptions options;
  options.target = "tpu";
  StatusOr<Recording> recording =
      CompileAndRecord(resources::FindSample("mlp").text, options, "mlp.hlo");
  ASSERT_FALSE(recording.ok());
  EXPECT_NE(recording.message().find("tpu"), std::string::npos);
}

// Compiling a module (rather than text) leaves the caller's module as it was.
TEST(CompileAndRecordTest, ModuleIsNotChanged) {
  auto module = testutil::ParseOrDie(resources::FindSample("mlp").text);
  const uint64_t fingerprint = ir::Fingerprint(*module);
  StatusOr<Recording> recording = CompileAndRecord(*module, passes::PipelineOptions());
  ASSERT_TRUE(recording.ok()) << recording.message();
  EXPECT_EQ(ir::Fingerprint(*module), fingerprint);
  EXPECT_EQ(recording->input().fingerprint(), fingerprint);
  EXPECT_NE(recording->snapshots.back().fingerprint(), fingerprint);
}

}  // namespace
}  // namespace fusescope::recording
