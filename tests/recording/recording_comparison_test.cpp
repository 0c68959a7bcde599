#include "recording/recording_comparison.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "recording/compile_and_record.h"
#include "resources/samples.h"

namespace fusescope::recording {
namespace {

Recording Compile(const passes::PipelineOptions& options) {
  const resources::SampleModel sample = resources::FindSample("bert_encoder");
  auto recording = CompileAndRecord(sample.text, options, "bert_encoder.hlo");
  EXPECT_TRUE(recording.ok()) << recording.message();
  return std::move(recording).value();
}

// A recording against itself: nothing differs.
TEST(RecordingComparisonTest, SameRunsDifferInNothing) {
  const Recording a = Compile({});
  auto c = CompareRecordings(a, a);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(c->options_a.empty());
  EXPECT_TRUE(c->different.empty()) << c->different.front().fusion_a << " / "
                                    << c->different.front().fusion_b;
  EXPECT_TRUE(c->only_a.empty() && c->only_b.empty());
  EXPECT_TRUE(c->edges_only_a.empty() && c->edges_only_b.empty());
  EXPECT_FALSE(c->same.empty());
  EXPECT_GT(c->edges_both, 0);
  ASSERT_EQ(c->passes.size(), a.passes.size());
}

// A what-if: the fusion size limit cut to 4 and a pass disabled. The options that differ are
// named, the disabled pass is skipped in B's row, fusions of A are split in B, and every edge
// A fused and B did not carries B's own refusal (the size limit, or a reason of its own).
TEST(RecordingComparisonTest, SmallerFusionLimitSplitsFusionsWithBsReasons) {
  const Recording a = Compile({});
  passes::PipelineOptions smaller;
  smaller.fusion.max_instructions = 4;
  smaller.disabled_passes.insert("cse");
  const Recording b = Compile(smaller);
  auto c = CompareRecordings(a, b);
  ASSERT_TRUE(c.ok()) << c.message();
  std::vector<std::string> keys;
  for (const auto& [key, value] : c->options_b) keys.push_back(key);
  EXPECT_NE(std::find(keys.begin(), keys.end(), "fusion.max_instructions"), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "disabled_passes"), keys.end());
  ASSERT_GT(c->passes.size(), 3u);
  EXPECT_EQ(c->passes[3].name_b, "cse");
  EXPECT_TRUE(c->passes[3].skipped_b);
  EXPECT_FALSE(c->passes[3].skipped_a);
  EXPECT_FALSE(c->different.empty());
  for (const FusionMatch& match : c->different) EXPECT_FALSE(match.common.empty());
  ASSERT_FALSE(c->edges_only_a.empty());
  EXPECT_TRUE(c->edges_only_b.empty());
  int64_t size_limited = 0;
  for (const FusedPair& edge : c->edges_only_a) {
    EXPECT_FALSE(edge.second_reason.empty()) << edge.producer << " -> " << edge.consumer;
    size_limited += edge.second_reason == "size_limit";
  }
  EXPECT_GT(size_limited, 0);
  // The other way round, the same edges are B's "only in the other".
  auto reversed = CompareRecordings(b, a);
  ASSERT_TRUE(reversed.ok());
  EXPECT_EQ(reversed->edges_only_b.size(), c->edges_only_a.size());
}

TEST(RecordingComparisonTest, DifferentModulesAreRefused) {
  const Recording a = Compile({});
  auto other = CompileAndRecord(resources::FindSample("mlp").text, passes::PipelineOptions{},
                                "mlp.hlo");
  ASSERT_TRUE(other.ok());
  auto c = CompareRecordings(a, *other);
  EXPECT_FALSE(c.ok());
  EXPECT_NE(c.message().find("different modules"), std::string::npos) << c.message();
}

}  // namespace
}  // namespace fusescope::recording
