#include "views/pass_diff.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "recording/compile_and_record.h"
#include "resources/samples.h"
#include "tests/views/xml_check.h"

namespace fusescope::views {
namespace {

using testing::XmlDocument;
using testing::XmlReader;

recording::Recording Record(std::string_view sample, const std::string& target) {
  passes::PipelineOptions options;
  options.target = target;
  StatusOr<recording::Recording> recording =
      recording::CompileAndRecord(resources::FindSample(sample).text, options, sample);
  EXPECT_TRUE(recording.ok()) << recording.message();
  return recording.ok() ? std::move(recording).value() : recording::Recording{};
}

const recording::Recording& MlpCpu() {
  static const recording::Recording recording = Record("mlp", "cpu");
  return recording;
}

// The first changed pass that formed fusions.
int64_t FusionPass(const recording::Recording& recording) {
  for (const recording::PassRecord& pass : recording.passes) {
    if (pass.changed && pass.name.find("fusion") != std::string::npos) return pass.index;
  }
  return -1;
}

// Real snapshot pairs from our pipelines: every new fusion's members are instructions of the
// snapshot before, and their provenance is part of the fusion's.
TEST(PassDiffTest, FusionPassesOfRealRecordingsFormConsistentGroups) {
  for (const char* target : {"cpu", "gpu"}) {
    recording::Recording recording = Record("mlp", target);
    int64_t pass = FusionPass(recording);
    ASSERT_GE(pass, 0) << target;
    StatusOr<PassDiff> diff = PassDiff::Compute(recording, pass);
    ASSERT_TRUE(diff.ok()) << diff.message();
    EXPECT_TRUE(diff->diff().used_ids());
    ASSERT_FALSE(diff->diff().fusion_groups().empty()) << target;
    for (const ir::FusionGroup& group : diff->diff().fusion_groups()) {
      EXPECT_EQ(group.fusion->opcode(), ir::Opcode::kFusion);
      EXPECT_EQ(diff->after().FindInstructionById(group.fusion->id()), group.fusion);
      for (const ir::Instruction* member : group.members) {
        EXPECT_EQ(diff->before().FindInstructionById(member->id()), member);
        for (int64_t id : member->provenance().ids()) {
          EXPECT_TRUE(group.fusion->provenance().Contains(id))
              << member->name() << " in " << group.fusion->name();
        }
      }
    }
    const ir::DiffCounts& c = diff->diff().counts();
    EXPECT_EQ(c.unchanged + c.changed + c.removed + c.fused + c.replaced,
              diff->before().instruction_count());
  }
}

TEST(PassDiffTest, PassesThatChangedNothingHaveNoDifference) {
  const recording::Recording& recording = MlpCpu();
  int checked = 0;
  for (const recording::PassRecord& pass : recording.passes) {
    if (pass.changed) continue;
    StatusOr<PassDiff> diff = PassDiff::Compute(recording, pass.index);
    ASSERT_TRUE(diff.ok()) << diff.message();
    EXPECT_FALSE(diff->diff().counts().any_difference()) << pass.name;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(PassDiffTest, OutOfRangePassIsAnError) {
  const recording::Recording& recording = MlpCpu();
  StatusOr<PassDiff> diff = PassDiff::Compute(recording, 999);
  ASSERT_FALSE(diff.ok());
  EXPECT_EQ(diff.message(), "pass 999 is out of range (the recording has " +
                                std::to_string(recording.passes.size()) + " passes)");
  std::ostringstream out;
  EXPECT_FALSE(WriteDiffText(recording, -1, out).ok());
}

TEST(PassDiffTest, TextAndJsonDescribeTheFusionPass) {
  const recording::Recording& recording = MlpCpu();
  int64_t pass = FusionPass(recording);
  std::ostringstream text;
  ASSERT_TRUE(WriteDiffText(recording, pass, text).ok());
  const std::string name = recording.passes[static_cast<size_t>(pass)].name;
  EXPECT_EQ(text.str().rfind("pass #" + std::to_string(pass) + " " + name + ": changed", 0), 0u)
      << text.str();
  // Fusions are named after the pair that formed them, as XLA names them.
  EXPECT_NE(text.str().find(" became broadcast_maximum_fusion (kOutput): dot."), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("fusion decisions: "), std::string::npos) << text.str();
  std::ostringstream json;
  ASSERT_TRUE(WriteDiffJson(recording, pass, json).ok());
  EXPECT_EQ(json.str().front(), '{');
  EXPECT_NE(json.str().find("\"statements\""), std::string::npos);
  EXPECT_NE(json.str().find("\"status\": \"fused\""), std::string::npos) << json.str();
}

TEST(PassDiffTest, SvgFileShowsFusedAndAddedNodesAndRefusals) {
  const recording::Recording& recording = MlpCpu();
  int64_t pass = FusionPass(recording);
  std::string path = ::testing::TempDir() + "/pass_diff_test.svg";
  DiffViewOptions options;
  options.budget = 0;
  ASSERT_TRUE(WriteDiffSvg(recording, pass, path, options).ok());
  std::ifstream file(path);
  std::stringstream content;
  content << file.rdbuf();
  std::remove(path.c_str());
  XmlDocument document = XmlReader::Read(content.str());
  ASSERT_TRUE(document.ok()) << document.error;
  int fused = 0;
  int added_fusions = 0;
  int refused = 0;
  for (const testing::XmlElement* g : document.All("g")) {
    fused += g->HasClass("diff-fused") ? 1 : 0;
    added_fusions += g->HasClass("fs-fusion") && g->HasClass("diff-added") ? 1 : 0;
    refused += g->HasClass("fs-refused") ? 1 : 0;
  }
  EXPECT_GT(fused, 0);
  EXPECT_GT(added_fusions, 0);
  EXPECT_GT(refused, 0);
  EXPECT_FALSE(WriteDiffSvg(recording, pass, "/nonexistent-dir/x.svg").ok());
}

}  // namespace
}  // namespace fusescope::views
