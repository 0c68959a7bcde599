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

// The operand budget cut to 8 on BERT's layer norms: the options name the short key, each
// fusion of A that B builds smaller is paired with the B fusion that computes the same
// output, and what it lacks is explained by B's refusals for exceeding 8 operands.
TEST(RecordingComparisonTest, OperandBudgetRefusalsExplainSmallerFusions) {
  const Recording a = Compile({});
  passes::PipelineOptions eight;
  eight.fusion.max_operands_and_outputs = 8;
  const Recording b = Compile(eight);
  auto c = CompareRecordings(a, b);
  ASSERT_TRUE(c.ok()) << c.message();
  ASSERT_EQ(c->options_b.size(), 1u);
  EXPECT_EQ(c->options_b[0], std::make_pair(std::string("fusion.max_operands"), std::string("8")));
  EXPECT_EQ(c->options_a[0].second, "64");
  int64_t paired_by_output = 0, operand_refusals = 0;
  for (const FusionMatch& match : c->different) {
    EXPECT_FALSE(match.common.empty());
    if (match.from_b) {
      for (const FusionRefusal& refusal : match.refusals) EXPECT_FALSE(refusal.refused_by_b);
      continue;
    }
    paired_by_output += match.fusion_a == match.fusion_b;
    for (const FusionRefusal& refusal : match.refusals) {
      if (refusal.decision_index < 0) continue;
      EXPECT_TRUE(refusal.refused_by_b);
      EXPECT_FALSE(refusal.members.empty());
      const passes::FusionDecisionRecord& decision =
          b.decisions[static_cast<size_t>(refusal.decision_index)];
      EXPECT_FALSE(decision.accepted());
      EXPECT_EQ(decision.explanation, refusal.explanation);
      if (refusal.reason == "too_many_operands") {
        ++operand_refusals;
        EXPECT_NE(refusal.explanation.find("limit is 8"), std::string::npos) << refusal.explanation;
      }
    }
  }
  EXPECT_GT(paired_by_output, 0);
  EXPECT_GT(operand_refusals, 0);
}

// One pass of both: the fusion pass formed the fusions that differ; a pass before it formed
// none; a pass neither has is an error.
TEST(RecordingComparisonTest, ComparePassListsTheFusionsItFormed) {
  const Recording a = Compile({});
  passes::PipelineOptions eight;
  eight.fusion.max_operands_and_outputs = 8;
  const Recording b = Compile(eight);
  int64_t fusion_pass = -1;
  for (const PassRecord& pass : a.passes) {
    if (pass.name == "fusion") fusion_pass = pass.index;
  }
  ASSERT_GE(fusion_pass, 0);
  auto at_fusion = ComparePass(a, b, fusion_pass);
  ASSERT_TRUE(at_fusion.ok()) << at_fusion.message();
  EXPECT_EQ(at_fusion->pass.name_a, "fusion");
  EXPECT_TRUE(at_fusion->pass.changed_a && at_fusion->pass.changed_b);
  EXPECT_NE(at_fusion->pass.fusions_a, at_fusion->pass.fusions_b);
  EXPECT_FALSE(at_fusion->same.empty());
  EXPECT_FALSE(at_fusion->different.empty());
  EXPECT_GT(at_fusion->refused_b, at_fusion->refused_a);
  EXPECT_GT(at_fusion->accepted_a, 0);

  auto before = ComparePass(a, b, fusion_pass - 1);
  ASSERT_TRUE(before.ok());
  EXPECT_TRUE(before->same.empty() && before->different.empty() && before->only_a.empty() &&
              before->only_b.empty());
  EXPECT_EQ(before->accepted_a + before->refused_a, 0);

  auto beyond = ComparePass(a, b, static_cast<int64_t>(a.passes.size()));
  ASSERT_FALSE(beyond.ok());
  EXPECT_NE(beyond.message().find("no pass"), std::string::npos);
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
