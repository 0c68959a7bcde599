// XLA:GPU's own priority-fusion record (importers/xla_fusion_process_dump.h) read into the
// decisions of an imported dump. The sample folder tests/data/xla_gpu_fusion_dump is written
// in XLA's documented layout by scripts/gen_xla_gpu_fusion_dump.py (no XLA:GPU dump can be
// made without a GPU): our GPU pipeline's snapshots and priority-fusion steps.

#include "importers/xla_fusion_process_dump.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
#include "passes/fusion_decision.h"
#include "recording/recording_store.h"

namespace fusescope::ir {
namespace {

const std::string kSample = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/xla_gpu_fusion_dump";

TEST(XlaFusionProcessDumpTest, ReadsEveryStepKind) {
  const std::string text = R"(# a comment
fusion_steps {
  update_priority {
    producer_name: "add.1"
    consumer_names: "mul.2"
    consumer_names: "exp.3"
    us_fused: 1.5
    us_unfused: 4.25
  }
}
fusion_steps { producer_ineligible { producer_name: "dot.4" reason: "not \"fusible\"" } }
fusion_steps <
  fusion < fusion_name: 'loop_fusion' producer_name: "add.1" consumer_name: "mul.2" >
>
hlo_module_before_fusion: "HloModule m\n"
  "ENTRY e {}"
)";
  auto dump = ParseXlaFusionProcessDump(text, "dump.txt");
  ASSERT_TRUE(dump.ok()) << dump.message();
  ASSERT_EQ(dump->steps.size(), 3u);
  EXPECT_TRUE(dump->has_module_before_fusion);
  const XlaFusionStep& update = dump->steps[0];
  EXPECT_EQ(update.kind, XlaFusionStep::Kind::kUpdatePriority);
  EXPECT_EQ(update.consumer_names, (std::vector<std::string>{"mul.2", "exp.3"}));
  EXPECT_DOUBLE_EQ(update.us_fused, 1.5);
  EXPECT_DOUBLE_EQ(update.us_unfused, 4.25);
  EXPECT_EQ(update.line, 3);
  EXPECT_EQ(dump->steps[1].kind, XlaFusionStep::Kind::kProducerIneligible);
  EXPECT_EQ(dump->steps[1].reason, "not \"fusible\"");
  EXPECT_EQ(dump->steps[2].kind, XlaFusionStep::Kind::kFusion);
  EXPECT_EQ(dump->steps[2].fusion_name, "loop_fusion");
  EXPECT_EQ(dump->steps[2].consumer_name, "mul.2");
}

TEST(XlaFusionProcessDumpTest, MalformedTextIsOneErrorWithItsPosition) {
  auto unclosed = ParseXlaFusionProcessDump("fusion_steps {\n  fusion {\n", "d.txt");
  ASSERT_FALSE(unclosed.ok());
  EXPECT_EQ(unclosed.message().rfind("d.txt:3:", 0), 0u) << unclosed.message();
  auto string = ParseXlaFusionProcessDump("fusion_steps { fusion { producer_name: \"a\n", "d.txt");
  ASSERT_FALSE(string.ok());
  EXPECT_NE(string.message().find("d.txt:1:"), std::string::npos) << string.message();
  auto junk = ParseXlaFusionProcessDump("not_a_dump: 3\n", "d.txt");
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.message().find("no fusion_steps"), std::string::npos);
}

// The sample's 20 fusions and 3 ineligible producers become decisions of its priority-fusion
// pass, in XLA's order, with the cost model's estimates on the fusions; they survive a save.
TEST(XlaFusionProcessDumpTest, DumpFolderImportsXlasDecisions) {
  auto folder = ScanXlaDumpFolder(kSample);
  ASSERT_TRUE(folder.ok()) << folder.message();
  ASSERT_EQ(folder->modules.size(), 1u);
  EXPECT_FALSE(folder->modules[0].fusion_process_dump.empty());
  auto imported = ImportXlaDumpModule(folder->modules[0], folder->path);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  const recording::Recording& recording = imported->recording;
  int64_t fused = 0;
  int64_t refused = 0;
  for (const passes::FusionDecisionRecord& decision : recording.decisions) {
    ASSERT_EQ(decision.pass_index, 1);
    EXPECT_EQ(recording.passes[1].name, "priority-fusion (fusion)");
    EXPECT_GE(decision.producer_id, 0);
    EXPECT_GE(decision.consumer_id, 0);
    if (decision.accepted()) {
      ++fused;
      EXPECT_NE(decision.explanation.find("its cost model: 2.00 us fused"), std::string::npos)
          << decision.explanation;
    } else {
      ++refused;
      EXPECT_EQ(decision.reason, passes::FusionReason::kProducerNotFusible);
      EXPECT_EQ(decision.explanation.rfind("XLA: ", 0), 0u);
    }
  }
  EXPECT_EQ(fused, 20);
  EXPECT_EQ(refused, 3);

  const std::string saved =
      (std::filesystem::temp_directory_path() / "xla_fusion_process_dump_test.fsdb").string();
  ASSERT_TRUE(recording::SaveRecording(recording, saved).ok());
  auto loaded = recording::LoadRecording(saved);
  std::filesystem::remove(saved);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_EQ(loaded->decisions.size(), recording.decisions.size());
}

// A step naming an instruction the modules do not have is a warning with its line.
TEST(XlaFusionProcessDumpTest, UnknownInstructionIsAWarningWithItsLine) {
  auto folder = ScanXlaDumpFolder(kSample);
  ASSERT_TRUE(folder.ok());
  auto imported = ImportXlaDumpModule(folder->modules[0], folder->path);
  ASSERT_TRUE(imported.ok());
  auto dump = ParseXlaFusionProcessDump(
      "fusion_steps {\n  fusion {\n    fusion_name: \"f\"\n    producer_name: \"nowhere.1\"\n"
      "    consumer_name: \"nowhere.2\"\n  }\n}\n",
      "d.txt");
  ASSERT_TRUE(dump.ok()) << dump.message();
  std::vector<std::string> warnings;
  const size_t before = imported->recording.decisions.size();
  auto added = AddXlaFusionDecisions(*dump, "d.txt", imported->recording, warnings);
  ASSERT_TRUE(added.ok()) << added.message();
  EXPECT_EQ(*added, 0);
  EXPECT_EQ(imported->recording.decisions.size(), before);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("d.txt:2:1: producer 'nowhere.1'", 0), 0u) << warnings[0];
}

}  // namespace
}  // namespace fusescope::ir
