#include "views/lesson.h"

#include <gtest/gtest.h>

#include <string>

#include "recording/compile_and_record.h"
#include "resources/lessons.h"
#include "resources/samples.h"

namespace fusescope::views {
namespace {

constexpr char kMinimal[] = R"(# a comment
lesson: Fusion on the MLP
model: sample:mlp
about: First line
  continues here.

step: Before
pass: input
select: dot.17
text: One paragraph
  that wraps.

  A second paragraph.
  - a list line

step: The decision
decision: %add.19 -> %maximum.22
question: Why?
)";

recording::Recording CompileSample(const char* name, const std::string& target = "cpu") {
  passes::PipelineOptions options;
  options.target = target;
  auto recording = recording::CompileAndRecord(resources::FindSample(name).text, options, name);
  EXPECT_TRUE(recording.ok()) << recording.message();
  return std::move(*recording);
}

TEST(LessonParse, ReadsHeaderStepsAndContinuations) {
  auto lesson = ParseLesson(kMinimal, "m.lesson");
  ASSERT_TRUE(lesson.ok()) << lesson.message();
  EXPECT_EQ(lesson->title, "Fusion on the MLP");
  EXPECT_EQ(lesson->model, "sample:mlp");
  EXPECT_EQ(lesson->pipeline, "cpu");
  EXPECT_EQ(lesson->about, "First line continues here.");
  ASSERT_EQ(lesson->steps.size(), 2u);
  EXPECT_EQ(lesson->steps[0].line, 7);
  EXPECT_EQ(lesson->steps[0].text, "One paragraph that wraps.\n\nA second paragraph.\n- a list line");
  EXPECT_EQ(lesson->steps[0].select, "dot.17");
  EXPECT_EQ(lesson->steps[0].view, LessonView::kGraph);
  // A decision step shows the decisions unless it says otherwise.
  EXPECT_EQ(lesson->steps[1].view, LessonView::kDecisions);
  EXPECT_EQ(lesson->steps[1].question, "Why?");
  EXPECT_FALSE(lesson->kernels);
}

TEST(LessonParse, ErrorsNameFileLineAndColumn) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"model: sample:mlp\n", "x.lesson:1:1: the file must start with `lesson: TITLE`"},
      {"lesson: T\nmodel: sample:mlp\n", "x.lesson:2:1: the lesson has no steps"},
      {"lesson: T\nstep: S\ntext: t\n", "x.lesson:1:1: the lesson names no model"},
      {"lesson: T\nmodel: m\nstep: S\ncolour: red\n", "x.lesson:4:1: unknown key 'colour'"},
      {"lesson: T\nmodel: m\nstep: S\ntext: t\nshow: movie\n", "x.lesson:5:7: unknown view 'movie'"},
      {"lesson: T\nmodel: m\nstep: S\ndecision: a b\n",
       "x.lesson:4:11: a decision is `PRODUCER -> CONSUMER`"},
      {"lesson: T\nmodel: m\nstep: S\ntext: t\ntext: u\n", "x.lesson:5:1: 'text' is given twice"},
      {"lesson: T\nmodel: m\nstep: S\nstage: asm\ntext: t\n",
       "x.lesson:3:1: step 'S' names a stage but no kernel"},
      {"lesson: T\nmodel: m\nstep: S\npass: 3\n", "x.lesson:3:1: step 'S' has neither text"},
      {"lesson: T\nmodel: m\npipeline: tpu\n", "x.lesson:3:11: unknown pipeline 'tpu'"},
      {"lesson: T\nmodel: m\nstep: S\ntext: t\nmodel: n\n",
       "x.lesson:5:1: 'model' belongs to the lesson's header"},
      {"# header\n  dangling\nlesson: T\n", "x.lesson:2:3: an indented line continues"},
      {"lesson: T\nmodel: m\nstep: S\ntext: t\nwhat-if: --disable-pass \"cse\n",
       "x.lesson:5:10: an option's quote is not closed"},
      {"lesson: T\nmodel: m\nno colon here\n", "x.lesson:3:1: expected `key: value`"},
  };
  for (const Case& c : cases) {
    auto lesson = ParseLesson(c.text, "x.lesson");
    ASSERT_FALSE(lesson.ok()) << c.text;
    EXPECT_EQ(lesson.message().rfind(c.error, 0), 0u) << "got: " << lesson.message();
  }
}

TEST(LessonParse, SplitOptionsLikeAShell) {
  auto words = SplitOptions(R"(--fusion-limit max_instructions=3  --disable-pass "a b")");
  ASSERT_TRUE(words.ok());
  EXPECT_EQ(*words, (std::vector<std::string>{"--fusion-limit", "max_instructions=3",
                                               "--disable-pass", "a b"}));
  EXPECT_FALSE(SplitOptions("   ").ok());
}

TEST(LessonResolve, PinsPassesNodesAndDecisions) {
  auto lesson = ParseLesson(kMinimal, "m.lesson");
  ASSERT_TRUE(lesson.ok());
  const recording::Recording recording = CompileSample("mlp");
  ResolveInputs inputs;
  inputs.recording = &recording;
  auto steps = ResolveLesson(*lesson, inputs);
  ASSERT_TRUE(steps.ok()) << steps.message();
  ASSERT_EQ(steps->size(), 2u);
  EXPECT_EQ((*steps)[0].pass, 0);
  EXPECT_EQ((*steps)[0].instruction_id,
            recording.input().FindInstruction("dot.17")->id);
  // The decision is named by the instructions of the input; the pass recorded it against the
  // fusion the add had already joined, and provenance makes the link.
  ASSERT_GE((*steps)[1].decision_index, 0);
  const auto& decision = recording.decisions[static_cast<size_t>((*steps)[1].decision_index)];
  EXPECT_EQ(decision.producer_name, "add.19");
  EXPECT_TRUE(decision.accepted());
  EXPECT_EQ((*steps)[1].pass_name, "fusion");
  EXPECT_EQ((*steps)[1].pass, decision.pass_index);
}

TEST(LessonResolve, NamesTheStepThatDoesNotFit) {
  const recording::Recording recording = CompileSample("mlp");
  struct Case {
    const char* steps;
    const char* error;
  };
  const Case cases[] = {
      {"step: A\npass: 40\ntext: t\n",
       "x.lesson:4:7: step 1 ('A'): pass 40 is out of range (the recording has 12 passes"},
      {"step: A\npass: priority-fusion\ntext: t\n",
       "x.lesson:4:7: step 1 ('A'): no pass named 'priority-fusion' in this recording"},
      {"step: A\npass: cse#3\ntext: t\n", "x.lesson:4:7: step 1 ('A'): pass 'cse' runs 2 time(s)"},
      {"step: A\ntext: t\nstep: B\npass: fusion\nselect: reduce.99\ntext: t\n",
       "x.lesson:7:9: step 2 ('B'): no node named 'reduce.99' before or after pass 7 (fusion)"},
      {"step: A\npass: cse\ndecision: add.19 -> maximum.22\ntext: t\n",
       "x.lesson:5:11: step 1 ('A'): no fusion decision on add.19 -> maximum.22 at pass 3 (cse)"},
      {"step: A\nkernel: add_reduce_fusion\ntext: t\n",
       "x.lesson:4:9: step 1 ('A'): the recording has no kernels"},
  };
  for (const Case& c : cases) {
    const std::string text = std::string("lesson: L\nmodel: sample:mlp\n") + c.steps;
    auto lesson = ParseLesson(text, "x.lesson");
    ASSERT_TRUE(lesson.ok()) << lesson.message();
    ResolveInputs inputs;
    inputs.recording = &recording;
    auto steps = ResolveLesson(*lesson, inputs);
    ASSERT_FALSE(steps.ok()) << c.steps;
    EXPECT_EQ(steps.message().rfind(c.error, 0), 0u) << "got: " << steps.message();
  }
}

TEST(LessonResolve, KernelStagesByNameOrPosition) {
  const recording::Recording recording = CompileSample("mlp");
  recording::KernelSummary kernel;
  kernel.kernel = "add_reduce_fusion";
  kernel.snapshot = 12;
  kernel.stages = {{"input", 1, 1}, {"one-shot-bufferize", 1, 1}, {"asm", 1, 1}};
  const std::vector<recording::KernelSummary> kernels = {kernel};
  auto lesson = ParseLesson(
      "lesson: L\nmodel: sample:mlp\nstep: A\nkernel: add_reduce_fusion\nstage: asm\ntext: t\n"
      "step: B\nkernel: add_reduce_fusion\nstage: 2\ntext: t\n"
      "step: C\nkernel: add_reduce_fusion\nstage: llvm-ir\ntext: t\n",
      "k.lesson");
  ASSERT_TRUE(lesson.ok()) << lesson.message();
  EXPECT_TRUE(lesson->kernels);
  EXPECT_EQ(lesson->steps[0].view, LessonView::kKernel);
  ResolveInputs inputs;
  inputs.recording = &recording;
  inputs.kernels = &kernels;
  auto steps = ResolveLesson(*lesson, inputs);
  ASSERT_FALSE(steps.ok());
  EXPECT_NE(steps.message().find("k.lesson:13:8: step 3 ('C'): kernel add_reduce_fusion has no "
                                 "stage 'llvm-ir' (input, one-shot-bufferize, asm)"),
            std::string::npos)
      << steps.message();
  lesson->steps.pop_back();
  steps = ResolveLesson(*lesson, inputs);
  ASSERT_TRUE(steps.ok()) << steps.message();
  EXPECT_EQ((*steps)[0].stage_index, 2);
  // The kernel was compiled from snapshot 12, the graph after pass 11.
  EXPECT_EQ((*steps)[0].pass, 11);
  EXPECT_EQ((*steps)[1].stage_name, "one-shot-bufferize");
}

TEST(LessonResolve, WhatIfOptionsAreChecked) {
  const recording::Recording recording = CompileSample("mlp");
  auto lesson = ParseLesson(
      "lesson: L\nmodel: sample:mlp\nstep: A\ntext: t\nwhat-if: --fusion-limit nonsense=1\n",
      "w.lesson");
  ASSERT_TRUE(lesson.ok()) << lesson.message();
  ResolveInputs inputs;
  inputs.recording = &recording;
  inputs.check_options = [](const std::vector<std::string>& options) {
    return options.size() == 2 && options[1] == "nonsense=1"
               ? Status::Error("unknown fusion limit 'nonsense'")
               : Status::Ok();
  };
  auto steps = ResolveLesson(*lesson, inputs);
  ASSERT_FALSE(steps.ok());
  EXPECT_EQ(steps.message(),
            "w.lesson:5:10: step 1 ('A'): unknown fusion limit 'nonsense'");
}

// Every built-in lesson parses; each resolves against its own model's recording (the kernel
// lesson's kernels are checked by the CLI tests, which compile them).
TEST(LessonBuiltin, EveryLessonResolvesAgainstItsModel) {
  const auto lessons = resources::BuiltinLessons();
  ASSERT_GE(lessons.size(), 3u);
  for (const resources::BuiltinLesson& builtin : lessons) {
    const std::string name = "lesson:" + std::string(builtin.name);
    auto lesson = LoadLesson(name);
    ASSERT_TRUE(lesson.ok()) << lesson.message();
    ASSERT_TRUE(lesson->model.starts_with("sample:")) << name;
    const recording::Recording recording =
        CompileSample(lesson->model.substr(7).c_str(), lesson->pipeline);
    // Kernel steps need the stored kernels; the rest must resolve as written.
    Lesson without_kernels = *lesson;
    std::erase_if(without_kernels.steps, [](const LessonStep& step) { return !step.kernel.empty(); });
    ASSERT_FALSE(without_kernels.steps.empty()) << name;
    ResolveInputs inputs;
    inputs.recording = &recording;
    auto steps = ResolveLesson(without_kernels, inputs);
    EXPECT_TRUE(steps.ok()) << name << ": " << steps.message();
  }
  EXPECT_FALSE(LoadLesson("lesson:nope").ok());
}

}  // namespace
}  // namespace fusescope::views
