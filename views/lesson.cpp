#include "views/lesson.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "recording/decision_lookup.h"
#include "resources/lessons.h"

namespace fusescope::views {
namespace {

constexpr std::string_view kHeaderKeys[] = {"lesson", "about", "model", "pipeline", "options",
                                            "kernels"};
constexpr std::string_view kStepKeys[] = {"step",   "text",  "pass",     "select",  "decision",
                                          "kernel", "stage", "question", "what-if", "show"};

bool IsOneOf(std::string_view key, const auto& keys) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

std::string Trim(std::string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

std::string Where(const std::string& file, int line, int column) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

std::optional<LessonView> ViewByName(std::string_view name) {
  for (LessonView view : {LessonView::kGraph, LessonView::kText, LessonView::kDecisions,
                          LessonView::kKernel, LessonView::kInspector, LessonView::kPasses}) {
    if (LessonViewName(view) == name) return view;
  }
  return std::nullopt;
}

std::optional<int64_t> ParseIndex(std::string_view text) {
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::string StripPercent(std::string name) {
  name = Trim(name);
  if (!name.empty() && name.front() == '%') name.erase(0, 1);
  return name;
}

// "P -> C" into its two names; nullopt when malformed.
std::optional<std::pair<std::string, std::string>> SplitDecision(std::string_view text) {
  const size_t arrow = text.find("->");
  if (arrow == std::string_view::npos) return std::nullopt;
  std::string producer = StripPercent(std::string(text.substr(0, arrow)));
  std::string consumer = StripPercent(std::string(text.substr(arrow + 2)));
  if (producer.empty() || consumer.empty()) return std::nullopt;
  return std::make_pair(producer, consumer);
}

// One key's value while it is being read: continuation lines join a paragraph with spaces, a
// blank line starts a new paragraph, a continuation starting with "- " a new line.
struct OpenValue {
  std::string* target = nullptr;
  bool blank_pending = false;
};

void Continue(OpenValue& open, std::string_view line) {
  const std::string text = Trim(line);
  std::string& value = *open.target;
  if (value.empty()) {
    value = text;
  } else if (open.blank_pending) {
    value += "\n\n" + text;
  } else if (text.starts_with("- ")) {
    value += "\n" + text;
  } else {
    value += " " + text;
  }
  open.blank_pending = false;
}

class Parser {
 public:
  Parser(std::string_view text, std::string file) : text_(text) { lesson_.file = std::move(file); }

  StatusOr<Lesson> Parse() {
    std::istringstream in{std::string(text_)};
    std::string raw;
    int line_number = 0;
    OpenValue open;
    while (std::getline(in, raw)) {
      ++line_number;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      const std::string trimmed = Trim(raw);
      if (trimmed.empty()) {
        open.blank_pending = open.target != nullptr;
        continue;
      }
      if (trimmed.front() == '#') continue;
      if (std::isspace(static_cast<unsigned char>(raw.front()))) {
        if (open.target == nullptr) {
          const int column = static_cast<int>(raw.find_first_not_of(" \t")) + 1;
          return Error(line_number, column, "an indented line continues a value, but none is open");
        }
        Continue(open, raw);
        continue;
      }
      const size_t colon = raw.find(':');
      if (colon == std::string::npos) {
        return Error(line_number, 1, "expected `key: value`, got '" + trimmed + "'");
      }
      const std::string key = Trim(std::string_view(raw).substr(0, colon));
      size_t value_start = colon + 1;
      while (value_start < raw.size() && raw[value_start] == ' ') ++value_start;
      const int value_column = static_cast<int>(value_start) + 1;
      std::string value = Trim(std::string_view(raw).substr(colon + 1));
      auto target = Assign(key, std::move(value), line_number, value_column);
      if (!target.ok()) return target.status();
      open = OpenValue{*target, false};
    }
    FS_RETURN_IF_ERROR(Finish(line_number));
    return std::move(lesson_);
  }

 private:
  Status Error(int line, int column, const std::string& message) const {
    return Status::Error(Where(lesson_.file, line, column) + message);
  }

  // Stores the value; returns where continuation lines go.
  StatusOr<std::string*> Assign(const std::string& key, std::string value, int line, int column) {
    const bool in_step = !lesson_.steps.empty();
    if (!IsOneOf(key, kHeaderKeys) && !IsOneOf(key, kStepKeys)) {
      return Error(line, 1,
                   "unknown key '" + key +
                       "' (lesson, about, model, pipeline, options, kernels; in a step: step, "
                       "text, pass, select, decision, kernel, stage, question, what-if, show)");
    }
    if (key == "step") {
      if (lesson_.title.empty()) return Error(line, 1, "the file must start with `lesson: TITLE`");
      FS_RETURN_IF_ERROR(FinishStep());
      if (value.empty()) return Error(line, column, "a step needs a title: `step: TITLE`");
      LessonStep step;
      step.line = line;
      step.title = std::move(value);
      step.positions.push_back({"step", {line, column}});
      lesson_.steps.push_back(std::move(step));
      seen_.clear();
      return &lesson_.steps.back().title;
    }
    if (IsOneOf(key, kHeaderKeys)) {
      if (in_step) {
        return Error(line, 1, "'" + key + "' belongs to the lesson's header, before the first step");
      }
      if (key != "lesson" && lesson_.title.empty()) {
        return Error(line, 1, "the file must start with `lesson: TITLE`");
      }
    } else if (!in_step) {
      return Error(line, 1, "'" + key + "' belongs to a step: start one with `step: TITLE`");
    }
    if (!seen_.insert(key).second) return Error(line, 1, "'" + key + "' is given twice");
    if (value.empty() && key != "text" && key != "about" && key != "question") {
      return Error(line, column, "'" + key + "' needs a value");
    }
    if (!in_step) return AssignHeader(key, std::move(value), line, column);
    LessonStep& step = lesson_.steps.back();
    step.positions.push_back({key, {line, column}});
    if (key == "text") return &(step.text = std::move(value));
    if (key == "question") return &(step.question = std::move(value));
    if (key == "pass") return &(step.pass = std::move(value));
    if (key == "select") return &(step.select = StripPercent(std::move(value)));
    if (key == "stage") return &(step.stage = std::move(value));
    if (key == "kernel") {
      lesson_.kernels = true;
      return &(step.kernel = StripPercent(std::move(value)));
    }
    if (key == "decision") {
      if (!SplitDecision(value)) {
        return Error(line, column, "a decision is `PRODUCER -> CONSUMER`, got '" + value + "'");
      }
      return &(step.decision = std::move(value));
    }
    if (key == "what-if") {
      auto options = SplitOptions(value);
      if (!options.ok()) return Error(line, column, options.message());
      step.what_if = std::move(*options);
      return &scratch_;
    }
    // show
    auto view = ViewByName(value);
    if (!view) {
      return Error(line, column,
                   "unknown view '" + value +
                       "' (graph, text, decisions, kernel, inspector, passes)");
    }
    step.view = *view;
    step.view_given = true;
    return &scratch_;
  }

  StatusOr<std::string*> AssignHeader(const std::string& key, std::string value, int line,
                                      int column) {
    if (key == "lesson") {
      if (value.empty()) return Error(line, column, "a lesson needs a title");
      return &(lesson_.title = std::move(value));
    }
    if (key == "about") return &(lesson_.about = std::move(value));
    if (key == "model") return &(lesson_.model = std::move(value));
    if (key == "pipeline") {
      if (value != "cpu" && value != "gpu") {
        return Error(line, column, "unknown pipeline '" + value + "' (cpu or gpu)");
      }
      lesson_.pipeline = std::move(value);
      return &scratch_;
    }
    if (key == "options") {
      auto options = SplitOptions(value);
      if (!options.ok()) return Error(line, column, options.message());
      lesson_.options = std::move(*options);
      return &scratch_;
    }
    // kernels
    if (value != "yes" && value != "no") {
      return Error(line, column, "kernels is yes or no, got '" + value + "'");
    }
    lesson_.kernels = lesson_.kernels || value == "yes";
    return &scratch_;
  }

  Status FinishStep() {
    if (lesson_.steps.empty()) return Status::Ok();
    const LessonStep& step = lesson_.steps.back();
    if (!step.stage.empty() && step.kernel.empty()) {
      return Error(step.line, 1, "step '" + step.title + "' names a stage but no kernel");
    }
    if (step.text.empty() && step.question.empty()) {
      return Error(step.line, 1, "step '" + step.title + "' has neither text nor a question");
    }
    return Status::Ok();
  }

  Status Finish(int last_line) {
    if (lesson_.title.empty()) return Error(1, 1, "the file must start with `lesson: TITLE`");
    if (lesson_.model.empty()) {
      return Error(1, 1, "the lesson names no model (`model: sample:mlp` or a path)");
    }
    if (lesson_.steps.empty()) return Error(last_line, 1, "the lesson has no steps");
    FS_RETURN_IF_ERROR(FinishStep());
    for (LessonStep& step : lesson_.steps) {
      if (!step.view_given) {
        step.view = !step.kernel.empty()     ? LessonView::kKernel
                    : !step.decision.empty() ? LessonView::kDecisions
                                             : LessonView::kGraph;
      }
    }
    return Status::Ok();
  }

  std::string_view text_;
  Lesson lesson_;
  std::set<std::string> seen_;
  std::string scratch_;  // continuation lines of one-line values land here and are ignored
};

std::pair<int, int> PositionOf(const LessonStep& step, std::string_view key) {
  for (const auto& [name, position] : step.positions) {
    if (name == key) return position;
  }
  return {step.line, 1};
}

std::string PassLabel(const recording::Recording& recording, int64_t pass) {
  return std::to_string(pass) + " (" + recording.passes[static_cast<size_t>(pass)].name + ")";
}

class Resolver {
 public:
  Resolver(const Lesson& lesson, const ResolveInputs& inputs)
      : lesson_(lesson), inputs_(inputs), recording_(*inputs.recording) {}

  StatusOr<std::vector<ResolvedStep>> Resolve() {
    if (recording_.passes.empty()) {
      return Status::Error(lesson_.file + ": the lesson's recording has no passes");
    }
    std::vector<ResolvedStep> resolved;
    int64_t pass = 0;
    for (size_t i = 0; i < lesson_.steps.size(); ++i) {
      const LessonStep& step = lesson_.steps[i];
      step_number_ = static_cast<int>(i) + 1;
      ResolvedStep out;
      if (!step.pass.empty()) {
        auto found = ResolvePass(step);
        if (!found.ok()) return found.status();
        pass = *found;
      }
      out.pass = pass;
      if (!step.decision.empty()) {
        FS_RETURN_IF_ERROR(ResolveDecision(step, out));
        pass = out.pass;
      }
      if (!step.kernel.empty()) {
        FS_RETURN_IF_ERROR(ResolveKernel(step, out));
        pass = out.pass;
      }
      if (!step.select.empty()) FS_RETURN_IF_ERROR(ResolveNode(step, out));
      if (!step.what_if.empty() && inputs_.check_options) {
        Status status = inputs_.check_options(step.what_if);
        if (!status.ok()) return Error(step, "what-if", status.message());
      }
      out.pass_name = recording_.passes[static_cast<size_t>(out.pass)].name;
      resolved.push_back(std::move(out));
    }
    return resolved;
  }

 private:
  Status Error(const LessonStep& step, std::string_view key, const std::string& message) const {
    const auto [line, column] = PositionOf(step, key);
    return Status::Error(Where(lesson_.file, line, column) + "step " +
                         std::to_string(step_number_) + " ('" + step.title + "'): " + message);
  }

  StatusOr<int64_t> ResolvePass(const LessonStep& step) const {
    const int64_t count = static_cast<int64_t>(recording_.passes.size());
    if (step.pass == "last") return count - 1;
    if (step.pass == "input") return 0;
    if (auto index = ParseIndex(step.pass)) {
      if (*index < count) return *index;
      return Error(step, "pass",
                   "pass " + step.pass + " is out of range (the recording has " +
                       std::to_string(count) + " passes, 0 to " + std::to_string(count - 1) + ")");
    }
    std::string name = step.pass;
    int64_t occurrence = 1;
    if (const size_t hash = name.rfind('#'); hash != std::string::npos) {
      auto number = ParseIndex(std::string_view(name).substr(hash + 1));
      if (!number || *number == 0) {
        return Error(step, "pass", "'" + step.pass + "': after '#' comes the occurrence, 1 or more");
      }
      occurrence = *number;
      name.resize(hash);
    }
    int64_t seen = 0;
    for (const recording::PassRecord& record : recording_.passes) {
      if (record.name == name && ++seen == occurrence) return record.index;
    }
    std::string names;
    std::set<std::string> listed;
    for (const recording::PassRecord& record : recording_.passes) {
      if (listed.insert(record.name).second) names += (names.empty() ? "" : ", ") + record.name;
    }
    return Error(step, "pass",
                 seen == 0 ? "no pass named '" + name + "' in this recording (" + names + ")"
                           : "pass '" + name + "' runs " + std::to_string(seen) +
                                 " time(s), not " + std::to_string(occurrence));
  }

  Status ResolveDecision(const LessonStep& step, ResolvedStep& out) const {
    const auto [producer, consumer] = *SplitDecision(step.decision);
    const bool pinned = !step.pass.empty();
    // Named exactly first, then through provenance (recording/decision_lookup.h).
    std::optional<recording::DecisionMatch> best;
    for (const recording::DecisionMatch& match :
         recording::FindDecisions(recording_, producer, consumer)) {
      if (pinned && recording_.decisions[match.index].pass_index != out.pass) continue;
      if (!best || (match.direct && !best->direct)) best = match;
    }
    if (!best) {
      return Error(step, "decision",
                   "no fusion decision on " + producer + " -> " + consumer +
                       (pinned ? " at pass " + PassLabel(recording_, out.pass) : " in any pass"));
    }
    out.decision_index = static_cast<int64_t>(best->index);
    out.pass = recording_.decisions[best->index].pass_index;
    return Status::Ok();
  }

  Status ResolveNode(const LessonStep& step, ResolvedStep& out) const {
    if (const recording::Snapshot* after = recording_.SnapshotAfter(out.pass)) {
      if (const auto* record = after->FindInstruction(step.select)) {
        out.instruction_id = record->id;
        return Status::Ok();
      }
    }
    if (const recording::Snapshot* before = recording_.SnapshotBefore(out.pass)) {
      if (const auto* record = before->FindInstruction(step.select)) {
        out.instruction_id = record->id;
        out.selected_before = true;
        return Status::Ok();
      }
    }
    return Error(step, "select",
                 "no node named '" + step.select + "' before or after pass " +
                     PassLabel(recording_, out.pass));
  }

  Status ResolveKernel(const LessonStep& step, ResolvedStep& out) const {
    if (inputs_.kernels == nullptr || inputs_.kernels->empty()) {
      return Error(step, "kernel",
                   "the recording has no kernels; the lesson needs them (`kernels: yes`, or "
                   "compile with --kernels)");
    }
    const recording::KernelSummary* found = nullptr;
    for (const recording::KernelSummary& kernel : *inputs_.kernels) {
      if (kernel.kernel == step.kernel && (found == nullptr || kernel.snapshot > found->snapshot)) {
        found = &kernel;
      }
    }
    if (found == nullptr) {
      std::string names;
      std::set<std::string> listed;
      for (const recording::KernelSummary& kernel : *inputs_.kernels) {
        if (listed.insert(kernel.kernel).second) names += (names.empty() ? "" : ", ") + kernel.kernel;
      }
      return Error(step, "kernel", "no kernel named '" + step.kernel + "' (" + names + ")");
    }
    out.kernel = found->kernel;
    out.kernel_snapshot = found->snapshot;
    // Without a pass of its own, the step stands where the graph has the kernel's node: after
    // the pass that made the kernel's snapshot.
    const int64_t passes = static_cast<int64_t>(recording_.passes.size());
    if (step.pass.empty() && found->snapshot >= 1 && found->snapshot <= passes) {
      out.pass = found->snapshot - 1;
    }
    if (found->instruction_id >= 0) out.instruction_id = found->instruction_id;
    if (step.stage.empty()) return Status::Ok();
    const auto& stages = found->stages;
    if (auto index = ParseIndex(step.stage)) {
      if (*index >= 1 && *index <= static_cast<int64_t>(stages.size())) {
        out.stage_index = static_cast<int>(*index) - 1;
        out.stage_name = stages[static_cast<size_t>(out.stage_index)].name;
        return Status::Ok();
      }
    }
    for (size_t i = 0; i < stages.size(); ++i) {
      if (stages[i].name == step.stage) {
        out.stage_index = static_cast<int>(i);
        out.stage_name = stages[i].name;
        return Status::Ok();
      }
    }
    std::string names;
    for (const auto& stage : stages) names += (names.empty() ? "" : ", ") + stage.name;
    return Error(step, "stage",
                 "kernel " + found->kernel + " has no stage '" + step.stage + "' (" + names + ")");
  }

  const Lesson& lesson_;
  const ResolveInputs& inputs_;
  const recording::Recording& recording_;
  int step_number_ = 0;
};

}  // namespace

std::string_view LessonViewName(LessonView view) {
  switch (view) {
    case LessonView::kGraph: return "graph";
    case LessonView::kText: return "text";
    case LessonView::kDecisions: return "decisions";
    case LessonView::kKernel: return "kernel";
    case LessonView::kInspector: return "inspector";
    case LessonView::kPasses: return "passes";
  }
  return "graph";
}

StatusOr<Lesson> ParseLesson(std::string_view text, const std::string& file_name) {
  return Parser(text, file_name).Parse();
}

StatusOr<Lesson> LoadLesson(const std::string& what) {
  if (what.starts_with(resources::kLessonPrefix)) {
    const resources::BuiltinLesson builtin = resources::FindLesson(what);
    if (builtin.text.empty()) {
      std::string names;
      for (const auto& lesson : resources::BuiltinLessons()) {
        names += (names.empty() ? "" : ", ") + std::string(lesson.name);
      }
      return Status::Error("no built-in lesson '" + what + "' (" + names + ")");
    }
    return ParseLesson(builtin.text, what);
  }
  std::ifstream in(what, std::ios::binary);
  if (!in) return Status::Error(what + ": cannot read the lesson file");
  std::ostringstream text;
  text << in.rdbuf();
  auto lesson = ParseLesson(text.str(), what);
  if (!lesson.ok()) return lesson;
  if (!lesson->model.starts_with("sample:")) {
    const std::filesystem::path model(lesson->model);
    if (model.is_relative()) {
      lesson->model = (std::filesystem::path(what).parent_path() / model).lexically_normal().string();
    }
  }
  return lesson;
}

StatusOr<std::vector<std::string>> SplitOptions(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      in_word = true;
    } else if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quoted) return Status::Error("an option's quote is not closed");
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) return Status::Error("no options given");
  return words;
}

StatusOr<std::vector<ResolvedStep>> ResolveLesson(const Lesson& lesson,
                                                  const ResolveInputs& inputs) {
  return Resolver(lesson, inputs).Resolve();
}

}  // namespace fusescope::views
