// `fusescope lesson FILE|lesson:NAME [-o RUN.fsdb | --recording RUN.fsdb] [--step N] [--check]
// [--json] [--progress]` and `fusescope lesson --list [--json]`: a lesson (views/lesson.h,
// docs/lessons.md) walked through headless. Its model is compiled into RUN.fsdb (a temporary
// file without -o; kernels compiled too when a step shows one), every step is resolved against
// the recording, and each step is printed as a class would see it: the pass with what that pass
// does, the node, the fusion decision with its reason, the kernel stage, the question, and for a
// what-if step the model compiled again with the step's options and compared with the lesson's
// own compile. --check stops after resolving. The workbench runs `lesson FILE -o RUN.fsdb
// --check` in its worker to prepare a lesson.

#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/comparison_text.h"
#include "app/cli/lesson_support.h"
#include "ir/json_writer.h"
#include "recording/recording_comparison.h"
#include "resources/explanations.h"
#include "resources/lessons.h"

namespace fusescope::app {
namespace {

// Word-wraps `text` at `width` columns with `indent` before each line; paragraphs ("\n\n") and
// list lines ("\n- ") keep their breaks.
std::string Wrap(const std::string& text, const std::string& indent, size_t width = 92) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) {
      out += "\n";
      continue;
    }
    std::string current = indent;
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      if (current.size() > indent.size() && current.size() + 1 + word.size() > width) {
        out += current + "\n";
        current = indent + (line.starts_with("- ") ? "  " : "");
      }
      current += (current.size() > indent.size() && current.back() != ' ' ? " " : "") + word;
    }
    out += current + "\n";
  }
  return out;
}

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

int ListLessons(bool as_json) {
  JsonWriter json;
  if (as_json) json.BeginArray();
  for (const resources::BuiltinLesson& builtin : resources::BuiltinLessons()) {
    const std::string name = std::string(resources::kLessonPrefix) + std::string(builtin.name);
    auto lesson = views::ParseLesson(builtin.text, name);
    if (!lesson.ok()) return Fail(lesson.message());
    if (as_json) {
      json.BeginObject();
      json.Key("name").String(name);
      json.Key("title").String(lesson->title);
      json.Key("model").String(lesson->model);
      json.Key("pipeline").String(lesson->pipeline);
      json.Key("steps").Int(static_cast<int64_t>(lesson->steps.size()));
      json.EndObject();
    } else {
      std::printf("%-26s %-48s %-22s %zu steps\n", name.c_str(), lesson->title.c_str(),
                  lesson->model.c_str(), lesson->steps.size());
    }
  }
  if (as_json) {
    json.EndArray();
    std::cout << json.str() << '\n';
  }
  return 0;
}

// A is the lesson's compile, B the what-if's (as `fusescope diff A B` names them).
void PrintWhatIf(const std::vector<std::string>& options,
                 const recording::RecordingComparison& comparison) {
  std::printf("  what if: %s (A: the lesson's compile, B: the what-if)\n",
              JoinWords(options).c_str());
  for (const auto& [key, value] : comparison.options_b) {
    std::printf("    option %s = %s\n", key.c_str(), value.c_str());
  }
  std::printf("  final fusions: ");
  PrintFinalFusions(comparison.same, comparison.different, comparison.only_a,
                    comparison.only_b);
}

void PrintStep(const views::Lesson& lesson, const ResolvedLesson& resolved, size_t index,
               const recording::RecordingComparison* what_if, bool explain_pass) {
  const views::LessonStep& step = lesson.steps[index];
  const views::ResolvedStep& at = resolved.steps[index];
  const recording::Recording& recording = resolved.recording;
  std::printf("Step %zu/%zu  %s\n", index + 1, lesson.steps.size(), step.title.c_str());
  std::printf("  at pass %lld (%s), view: %s\n", static_cast<long long>(at.pass),
              at.pass_name.c_str(), std::string(views::LessonViewName(step.view)).c_str());
  if (at.instruction_id >= 0 && !step.select.empty()) {
    std::printf("  selected: %%%s (%s the pass)\n", step.select.c_str(),
                at.selected_before ? "before" : "after");
  }
  if (at.decision_index >= 0) {
    const auto& decision = recording.decisions[static_cast<size_t>(at.decision_index)];
    std::printf("  decision: %s %%%s -> %%%s [%s]: %s\n", decision.accepted() ? "fused" : "refused",
                decision.producer_name.c_str(), decision.consumer_name.c_str(),
                std::string(passes::FusionReasonCode(decision.reason)).c_str(),
                decision.explanation.c_str());
  }
  if (!at.kernel.empty()) {
    std::printf("  kernel: %s%s\n", at.kernel.c_str(),
                at.stage_name.empty() ? "" : (", stage " + at.stage_name).c_str());
  }
  std::printf("\n%s", Wrap(step.text, "  ").c_str());
  if (explain_pass) {
    if (auto explanation = resources::ExplainPass(at.pass_name)) {
      std::printf("\n%s",
                  Wrap("The pass " + at.pass_name + ": " + explanation->does, "  ").c_str());
    }
  }
  if (what_if != nullptr) {
    std::printf("\n");
    PrintWhatIf(step.what_if, *what_if);
  }
  if (!step.question.empty()) std::printf("\n%s", Wrap("Question: " + step.question, "  ").c_str());
  std::printf("\n");
}

void StepJson(JsonWriter& json, const views::Lesson& lesson, const ResolvedLesson& resolved,
              size_t index, const recording::RecordingComparison* what_if) {
  const views::LessonStep& step = lesson.steps[index];
  const views::ResolvedStep& at = resolved.steps[index];
  json.BeginObject();
  json.Key("index").Int(static_cast<int64_t>(index + 1));
  json.Key("line").Int(step.line);
  json.Key("title").String(step.title);
  json.Key("text").String(step.text);
  json.Key("question").String(step.question);
  json.Key("view").String(std::string(views::LessonViewName(step.view)));
  json.Key("pass").Int(at.pass);
  json.Key("pass_name").String(at.pass_name);
  json.Key("instruction_id").Int(at.instruction_id);
  json.Key("select").String(step.select);
  json.Key("decision_index").Int(at.decision_index);
  if (at.decision_index >= 0) {
    const auto& decision = resolved.recording.decisions[static_cast<size_t>(at.decision_index)];
    json.Key("decision").BeginObject();
    json.Key("producer").String(decision.producer_name);
    json.Key("consumer").String(decision.consumer_name);
    json.Key("accepted").Bool(decision.accepted());
    json.Key("reason").String(std::string(passes::FusionReasonCode(decision.reason)));
    json.Key("explanation").String(decision.explanation);
    json.EndObject();
  }
  json.Key("kernel").String(at.kernel);
  json.Key("stage").String(at.stage_name);
  json.Key("what_if").BeginArray();
  for (const std::string& option : step.what_if) json.String(option);
  json.EndArray();
  if (what_if != nullptr) {
    json.Key("what_if_result").BeginObject();
    json.Key("same").Int(static_cast<int64_t>(what_if->same.size()));
    json.Key("different").Int(static_cast<int64_t>(what_if->different.size()));
    json.Key("only_lesson").Int(static_cast<int64_t>(what_if->only_a.size()));
    json.Key("only_what_if").Int(static_cast<int64_t>(what_if->only_b.size()));
    json.Key("edges_only_lesson").Int(static_cast<int64_t>(what_if->edges_only_a.size()));
    json.Key("edges_only_what_if").Int(static_cast<int64_t>(what_if->edges_only_b.size()));
    json.EndObject();
  }
  json.EndObject();
}

int RunLesson(const ParsedArgs& args) {
  if (args.Has("--list")) return ListLessons(args.Has("--json"));
  if (args.Has("-o") && args.Has("--recording")) {
    return Fail("lesson: -o makes the lesson's recording, --recording reads one: give one");
  }
  auto lesson = views::LoadLesson(args.positional()[0]);
  if (!lesson.ok()) return Fail(lesson.message());
  const std::optional<int64_t> step_number = args.IntValue("--step");
  if (step_number &&
      (*step_number < 1 || *step_number > static_cast<int64_t>(lesson->steps.size()))) {
    return Fail("lesson: --step " + std::to_string(*step_number) + " is out of range (1 to " +
                std::to_string(lesson->steps.size()) + ")");
  }

  ScratchFile scratch;
  std::string path;
  if (auto given = args.Value("--recording")) {
    path = *given;
  } else {
    if (auto out = args.Value("-o")) {
      path = *out;
    } else {
      scratch.path = ScratchFile::TemporaryPath();
      path = scratch.path;
    }
    if (Status prepared = PrepareLessonRecording(*lesson, path, args.Has("--progress"));
        !prepared.ok()) {
      return Fail(prepared.message());
    }
  }
  auto resolved = ResolveLessonAt(*lesson, path);
  if (!resolved.ok()) return Fail(resolved.message());

  const bool as_json = args.Has("--json");
  if (args.Has("--check")) {
    if (as_json) {
      JsonWriter json;
      json.BeginObject();
      json.Key("lesson").String(lesson->title);
      json.Key("steps").Int(static_cast<int64_t>(lesson->steps.size()));
      json.Key("recording").String(scratch.path.empty() ? path : "");
      json.EndObject();
      std::cout << json.str() << '\n';
    } else {
      std::printf("%s: %zu steps resolve against %s\n", lesson->file.c_str(), lesson->steps.size(),
                  path.c_str());
    }
    return 0;
  }

  size_t first = 0;
  size_t last = lesson->steps.size();
  if (step_number) {
    first = static_cast<size_t>(*step_number - 1);
    last = first + 1;
  }
  std::vector<std::optional<recording::RecordingComparison>> what_ifs(lesson->steps.size());
  for (size_t i = first; i < last; ++i) {
    if (lesson->steps[i].what_if.empty()) continue;
    auto comparison = CompareWhatIf(*lesson, i, resolved->recording);
    if (!comparison.ok()) return Fail(comparison.message());
    what_ifs[i] = std::move(*comparison);
  }
  if (as_json) {
    JsonWriter json;
    json.BeginObject();
    json.Key("lesson").String(lesson->title);
    json.Key("file").String(lesson->file);
    json.Key("about").String(lesson->about);
    json.Key("model").String(lesson->model);
    json.Key("pipeline").String(lesson->pipeline);
    json.Key("passes").Int(static_cast<int64_t>(resolved->recording.passes.size()));
    json.Key("steps").BeginArray();
    for (size_t i = first; i < last; ++i) {
      StepJson(json, *lesson, *resolved, i, what_ifs[i] ? &*what_ifs[i] : nullptr);
    }
    json.EndArray();
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  std::printf("Lesson: %s\n  model %s, %s pipeline, %zu passes, %zu steps\n", lesson->title.c_str(),
              lesson->model.c_str(), lesson->pipeline.c_str(), resolved->recording.passes.size(),
              lesson->steps.size());
  if (!lesson->about.empty()) std::printf("\n%s", Wrap(lesson->about, "  ").c_str());
  std::printf("\n");
  for (size_t i = first; i < last; ++i) {
    // A pass is explained where the lesson arrives at it, not again on every step there.
    const bool explain = i == first || resolved->steps[i].pass != resolved->steps[i - 1].pass;
    PrintStep(*lesson, *resolved, i, what_ifs[i] ? &*what_ifs[i] : nullptr, explain);
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "lesson",
    .summary = "a lesson walked through step by step: each pass explained, the node, the "
               "decision, the kernel stage, what-if compiles",
    .positionals = {{"FILE|lesson:NAME", "a .lesson file, or a built-in lesson"}},
    .flags =
        {
            Text("-o", "RUN.fsdb",
                 "keep the lesson's recording there (default: a temporary one, removed)"),
            Text("--recording", "RUN.fsdb",
                 "use this recording of the lesson's model instead of compiling it"),
            Integer("--step", "N", "only step N (from 1)"),
            Switch("--check", "only check that every step resolves"),
            JsonFlag(),
            ProgressFlag(),
            Switch("--list", "the built-in lessons (instead of FILE)").Mode(),
        },
    .run = RunLesson,
});

}  // namespace
}  // namespace fusescope::app
