#include "views/lesson_report.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "recording/compile_and_record.h"
#include "resources/explanations.h"
#include "resources/samples.h"
#include "views/markup.h"

namespace fusescope::views {
namespace {

recording::Recording CompileMlp(int64_t max_instructions = 0) {
  passes::PipelineOptions options;
  if (max_instructions > 0) options.fusion.max_instructions = max_instructions;
  auto recording =
      recording::CompileAndRecord(resources::FindSample("mlp").text, options, "sample:mlp");
  EXPECT_TRUE(recording.ok()) << recording.message();
  return std::move(*recording);
}

int Occurrences(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// lesson:mlp_fusion resolved against sample:mlp, its what-if compiled as the lesson asks
// (`--fusion-limit max_instructions=3`).
struct MlpReplay {
  Lesson lesson;
  recording::Recording recording = CompileMlp();
  std::vector<ResolvedStep> steps;
  std::vector<std::optional<recording::RecordingComparison>> what_ifs;

  MlpReplay() {
    auto loaded = LoadLesson("lesson:mlp_fusion");
    EXPECT_TRUE(loaded.ok()) << loaded.message();
    lesson = std::move(*loaded);
    ResolveInputs resolve;
    resolve.recording = &recording;
    auto resolved = ResolveLesson(lesson, resolve);
    EXPECT_TRUE(resolved.ok()) << resolved.message();
    steps = std::move(*resolved);
    what_ifs.resize(lesson.steps.size());
    const recording::Recording limited = CompileMlp(3);
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
      if (lesson.steps[i].what_if.empty()) continue;
      EXPECT_EQ(lesson.steps[i].what_if,
                (std::vector<std::string>{"--fusion-limit", "max_instructions=3"}));
      auto comparison = recording::CompareRecordings(recording, limited);
      EXPECT_TRUE(comparison.ok()) << comparison.message();
      what_ifs[i] = std::move(*comparison);
    }
  }

  LessonReplayInputs Inputs() const {
    LessonReplayInputs inputs;
    inputs.lesson = &lesson;
    inputs.recording = &recording;
    inputs.steps = &steps;
    inputs.what_ifs = &what_ifs;
    return inputs;
  }

  std::string Render() const {
    auto html = LessonReport::Render(Inputs());
    EXPECT_TRUE(html.ok()) << html.message();
    return html.ok() ? *html : "";
  }
};

const MlpReplay& Mlp() {
  static const MlpReplay replay;
  return replay;
}

TEST(LessonReportTest, EveryStepWithItsTitleTextAndQuestion) {
  const MlpReplay& replay = Mlp();
  const std::string html = replay.Render();
  ASSERT_EQ(replay.lesson.steps.size(), 6u);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<title>Lesson: What fusion does to an MLP</title>"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<article class=\"step\""), 6);
  for (size_t i = 0; i < replay.lesson.steps.size(); ++i) {
    const LessonStep& step = replay.lesson.steps[i];
    const std::string number = std::to_string(i + 1);
    EXPECT_NE(html.find("<article class=\"step\" id=\"step-" + number + "\""), std::string::npos);
    EXPECT_NE(html.find("<h2>Step " + number + " of 6: " + EscapeXml(step.title) + "</h2>"),
              std::string::npos)
        << step.title;
    // The step list links every step's address.
    EXPECT_NE(html.find("<a href=\"#step-" + number + "\">" + EscapeXml(step.title) + "</a>"),
              std::string::npos);
    if (!step.question.empty()) {
      EXPECT_NE(html.find("<strong>Question.</strong> " + EscapeXml(step.question)),
                std::string::npos);
    }
  }
  // The narrative's first paragraph, and inline code from backquotes.
  EXPECT_NE(html.find("<p>Three dense layers, each a dot"), std::string::npos);
  EXPECT_NE(html.find("options of the pipeline (<code>fusescope compile --fusion-limit</code>)"),
            std::string::npos);
  EXPECT_NE(html.find("id=\"prev-step\""), std::string::npos);
  EXPECT_NE(html.find("id=\"next-step\""), std::string::npos);
  EXPECT_NE(html.find("<pre id=\"selftest-result\" hidden></pre>"), std::string::npos);
}

TEST(LessonReportTest, NamesNoUrlAndForbidsLoading) {
  const std::string html = Mlp().Render();
  for (const char* needle : {"http://", "https://", "src=\"//", "src=", "url(http", "@import"}) {
    EXPECT_EQ(html.find(needle), std::string::npos) << needle;
  }
  EXPECT_NE(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"),
            std::string::npos);
}

TEST(LessonReportTest, ExplainsEachPassAndSaysWhenNothingIsWritten) {
  const MlpReplay& replay = Mlp();
  const std::string html = replay.Render();
  const auto fusion = resources::ExplainPass("fusion");
  ASSERT_TRUE(fusion.has_value());
  EXPECT_NE(html.find("<dt>What it does</dt><dd>" + EscapeXml(fusion->does) + "</dd>"),
            std::string::npos);
  EXPECT_NE(html.find("<dt>What it cannot do</dt><dd>" + EscapeXml(fusion->cannot) + "</dd>"),
            std::string::npos);
  EXPECT_NE(html.find("<dt>Its documentation</dt><dd>" + EscapeXml(fusion->docs) + "</dd>"),
            std::string::npos);
  EXPECT_EQ(html.find("No explanation written"), std::string::npos);

  std::vector<ResolvedStep> steps = replay.steps;
  steps[0].pass_name = "a-pass-nobody-explained";
  LessonReplayInputs inputs = replay.Inputs();
  inputs.steps = &steps;
  auto unexplained = LessonReport::Render(inputs);
  ASSERT_TRUE(unexplained.ok()) << unexplained.message();
  EXPECT_EQ(Occurrences(*unexplained, "No explanation written for this pass."), 1);
}

// Each distinct pass is drawn once; the other steps on it get its picture from the script,
// and without script a link to the step that holds it.
TEST(LessonReportTest, OnePicturePerDistinctPass) {
  const MlpReplay& replay = Mlp();
  const std::string html = replay.Render();
  std::set<int64_t> passes;
  for (const ResolvedStep& step : replay.steps) passes.insert(step.pass);
  ASSERT_EQ(passes.size(), 3u);  // input, fusion, buffer-assignment
  EXPECT_EQ(Occurrences(html, "<svg"), 3);
  EXPECT_EQ(Occurrences(html, "class=\"picture-slot\""), 6);
  for (int64_t pass : passes) {
    EXPECT_EQ(Occurrences(html, "id=\"picture-pass-" + std::to_string(pass) + "\""), 1) << pass;
  }
  // Steps 2 to 5 are all at the fusion pass: step 2 holds its picture.
  EXPECT_EQ(Occurrences(html, "The picture of this pass is in <a href=\"#step-2\">step 2</a>."), 3);
  // The diff's summary as the report writes it.
  EXPECT_NE(html.find("instructions became broadcast_maximum_fusion"), std::string::npos);
}

TEST(LessonReportTest, TheSelectedNodeAndTheDecisionsEdgeAreOutlined) {
  const MlpReplay& replay = Mlp();
  const std::string html = replay.Render();
  // Step 2 selects broadcast_maximum_fusion.1, a fusion drawn as a closed box.
  const ResolvedStep& selected = replay.steps[1];
  ASSERT_GE(selected.instruction_id, 0);
  const std::string key = "f" + std::to_string(selected.instruction_id);
  EXPECT_NE(html.find("data-key=\"" + key + "\""), std::string::npos);
  EXPECT_NE(html.find("<article class=\"step\" id=\"step-2\" data-pass=\"" +
                      std::to_string(selected.pass) + "\" data-marked=\"" + key + "\">"),
            std::string::npos);
  EXPECT_NE(html.find("#step-2 .picture g[data-key=\"" + key + "\"] > rect { stroke: #d81b60;"),
            std::string::npos);
  EXPECT_NE(html.find("Selected: <span class=\"mark\">%broadcast_maximum_fusion.1</span>, "
                      "outlined in the picture"),
            std::string::npos);
  // Step 3's decision add.19 -> maximum.22 is drawn as the edge between the two, before the
  // pass fused them.
  const auto* add = replay.recording.input().FindInstruction("add.19");
  const auto* maximum = replay.recording.input().FindInstruction("maximum.22");
  ASSERT_NE(add, nullptr);
  ASSERT_NE(maximum, nullptr);
  const std::string from = "i" + std::to_string(add->id);
  const std::string to = "i" + std::to_string(maximum->id);
  EXPECT_NE(html.find("data-marked-edge=\"" + from + " " + to + "\""), std::string::npos);
  EXPECT_NE(html.find("#step-3 .picture g.fs-edge[data-from=\"" + from + "\"][data-to=\"" + to +
                      "\"] > path { stroke: #d81b60;"),
            std::string::npos);
  EXPECT_NE(html.find("data-from=\"" + from + "\" data-to=\"" + to + "\""), std::string::npos);
}

TEST(LessonReportTest, DecisionsWithOutcomeReasonAndSentence) {
  const MlpReplay& replay = Mlp();
  const std::string html = replay.Render();
  const auto& refused =
      replay.recording.decisions[static_cast<size_t>(replay.steps[3].decision_index)];
  ASSERT_FALSE(refused.accepted());
  EXPECT_NE(html.find("<div class=\"decision refused\">"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"outcome refused\">refused to fuse</span> %" +
                      EscapeXml(refused.producer_name)),
            std::string::npos);
  EXPECT_NE(html.find("Reason <code>" + EscapeXml(passes::FusionReasonCode(refused.reason)) +
                      "</code>: " + EscapeXml(refused.explanation)),
            std::string::npos);
  EXPECT_NE(html.find("<div class=\"decision accepted\">"), std::string::npos);
}

TEST(LessonReportTest, WhatIfComparisonAsTables) {
  const MlpReplay& replay = Mlp();
  const std::string html = replay.Render();
  const recording::RecordingComparison& comparison = *replay.what_ifs[4];
  ASSERT_FALSE(comparison.edges_only_a.empty());
  EXPECT_NE(html.find("What if: <code>--fusion-limit max_instructions=3</code>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td>fusion.max_instructions</td><td>128</td><td>3</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td>with different members</td><td class=\"num\">" +
                      std::to_string(comparison.different.size()) + "</td></tr>"),
            std::string::npos);
  const recording::FusedPair& edge = comparison.edges_only_a.front();
  EXPECT_NE(html.find("<tr><td>" + EscapeXml(edge.producer) + "</td><td>" +
                      EscapeXml(edge.consumer) + "</td><td><code>" + EscapeXml(edge.second_reason) +
                      "</code></td><td>" + EscapeXml(edge.second_explanation) + "</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find(EscapeXml("Edges fused only in the lesson's compile (") +
                      std::to_string(comparison.edges_only_a.size()) + ")"),
            std::string::npos);
}

// Long lists are cut at 40 rows across the three kinds of differing fusions, and counted.
TEST(LessonReportTest, WhatIfTablesAreCut) {
  const MlpReplay& replay = Mlp();
  std::vector<std::optional<recording::RecordingComparison>> what_ifs = replay.what_ifs;
  recording::RecordingComparison& comparison = *what_ifs[4];
  auto match = [](std::string a, std::string b, std::vector<std::string> common,
                  std::vector<std::string> only_a, std::vector<std::string> only_b) {
    recording::FusionMatch m;
    m.fusion_a = std::move(a);
    m.fusion_b = std::move(b);
    m.common = std::move(common);
    m.only_a = std::move(only_a);
    m.only_b = std::move(only_b);
    return m;
  };
  comparison.different.assign(30, match("fa", "fb", {"x.1"}, {"y.1"}, {}));
  comparison.only_a.assign(15, match("ga", "", {}, {"z.1"}, {}));
  comparison.only_b.assign(5, match("", "hb", {}, {}, {"w.1"}));
  LessonReplayInputs inputs = replay.Inputs();
  inputs.what_ifs = &what_ifs;
  auto html = LessonReport::Render(inputs);
  ASSERT_TRUE(html.ok()) << html.message();
  EXPECT_EQ(Occurrences(*html, "<tr><td>fa</td><td>fb</td>"), 30);
  EXPECT_EQ(Occurrences(*html, "<tr><td>ga</td><td>-</td>"), 10);
  EXPECT_EQ(Occurrences(*html, "<tr><td>-</td><td>hb</td>"), 0);
  EXPECT_NE(html->find("<p class=\"muted\">and 10 more</p>"), std::string::npos);
}

TEST(LessonReportTest, MissingPartsAreErrorsNamingTheStep) {
  const MlpReplay& replay = Mlp();
  LessonReplayInputs inputs = replay.Inputs();
  inputs.what_ifs = nullptr;
  auto html = LessonReport::Render(inputs);
  ASSERT_FALSE(html.ok());
  EXPECT_EQ(html.message(),
            "lesson:mlp_fusion:36: step 5 ('What if a fusion could hold at most "
            "three instructions?'): its what-if was not compiled");
  std::vector<ResolvedStep> fewer(replay.steps.begin(), replay.steps.end() - 1);
  inputs = replay.Inputs();
  inputs.steps = &fewer;
  html = LessonReport::Render(inputs);
  ASSERT_FALSE(html.ok());
  EXPECT_EQ(html.message(), "lesson:mlp_fusion: 5 resolved steps for a lesson of 6");
}

constexpr char kKernelLesson[] = R"(lesson: A kernel's stages
model: sample:mlp

step: The fusion
pass: fusion
select: add_reduce_fusion
text: A paragraph.

  - one list line
  - another

step: Lowered
pass: fusion
kernel: add_reduce_fusion
stage: lower
text: The loops appear.
)";

TEST(LessonReportTest, KernelStepsShowTheStageAndItsDiff) {
  const recording::Recording recording = CompileMlp();
  const int last = static_cast<int>(recording.snapshots.size()) - 1;
  const auto* fusion = recording.snapshots.back().FindInstruction("add_reduce_fusion");
  ASSERT_NE(fusion, nullptr);
  recording::KernelRecord kernel;
  kernel.kernel = "add_reduce_fusion";
  kernel.instruction_id = fusion->id;
  kernel.snapshot = last;
  kernel.backend = "mlir-cpu";
  kernel.options = "tile=32 vector=8";
  kernel.stages = {{"input", "func @k {\n  linalg.generic <a & b>\n}\n"},
                   {"lower", "func @k {\n  scf.for loops\n}\n"},
                   {"asm", "ret\n"}};
  recording::KernelSummary summary;
  summary.kernel = kernel.kernel;
  summary.instruction_id = kernel.instruction_id;
  summary.snapshot = last;
  for (const auto& stage : kernel.stages) summary.stages.push_back({stage.name, 1, 1});
  const std::vector<recording::KernelSummary> summaries = {summary};
  const std::vector<recording::KernelRecord> kernels = {kernel};

  auto lesson = ParseLesson(kKernelLesson, "kernel.lesson");
  ASSERT_TRUE(lesson.ok()) << lesson.message();
  ResolveInputs resolve;
  resolve.recording = &recording;
  resolve.kernels = &summaries;
  auto steps = ResolveLesson(*lesson, resolve);
  ASSERT_TRUE(steps.ok()) << steps.message();
  LessonReplayInputs inputs;
  inputs.lesson = &*lesson;
  inputs.recording = &recording;
  inputs.steps = &*steps;
  auto missing = LessonReport::Render(inputs);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(),
            "kernel.lesson:12: step 2 ('Lowered'): kernel add_reduce_fusion "
            "of snapshot " +
                std::to_string(last) + " was not loaded with its stages");
  inputs.kernels = &kernels;
  auto html = LessonReport::Render(inputs);
  ASSERT_TRUE(html.ok()) << html.message();
  EXPECT_NE(html->find("<h3>Kernel add_reduce_fusion, stage 2 of 3: lower</h3>"),
            std::string::npos);
  EXPECT_NE(html->find("<pre class=\"stage\">func @k {\n  scf.for loops\n}\n</pre>"),
            std::string::npos);
  EXPECT_NE(html->find("<span class=\"del\">-  linalg.generic &lt;a &amp; b&gt;</span>\n"
                       "<span class=\"add\">+  scf.for loops</span>"),
            std::string::npos);
  EXPECT_NE(html->find("What this stage changed after input (+1 &minus;1 lines)"),
            std::string::npos);
  // The stage step, at the fusion pass, outlines the kernel's fusion there.
  EXPECT_EQ((*steps)[1].pass, (*steps)[0].pass);
  EXPECT_EQ((*steps)[1].instruction_id, fusion->id);
  EXPECT_NE(html->find("<article class=\"step\" id=\"step-2\" data-pass=\"" +
                       std::to_string((*steps)[1].pass) + "\" data-marked=\"f" +
                       std::to_string(fusion->id) + "\">"),
            std::string::npos);
  // Paragraphs and list lines of the narrative.
  EXPECT_NE(html->find("<p>A paragraph.</p>\n<ul>\n<li>one list line</li>\n<li>another</li>\n"
                       "</ul>"),
            std::string::npos);
}

}  // namespace
}  // namespace fusescope::views
