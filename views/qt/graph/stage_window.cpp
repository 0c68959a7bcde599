#include "views/qt/graph/stage_window.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace fusescope::views {
namespace {

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::vector<std::string_view> Tokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const bool separator =
        i == text.size() || text[i] == ',' || std::isspace(static_cast<unsigned char>(text[i]));
    if (!separator) continue;
    if (i > start) tokens.push_back(text.substr(start, i - start));
    start = i + 1;
  }
  return tokens;
}

std::optional<int64_t> Number(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// One token without its recording prefix: a pass, a range, `input` or `last`. Appends to
// `out`; returns an error message or empty.
std::string ParseToken(std::string_view token, int which, const recording::Recording& recording,
                       std::vector<Stage>& out) {
  const auto count = static_cast<int64_t>(recording.passes.size());
  const std::string lower = Lower(token);
  if (lower == "input" || lower == "in") {
    out.push_back({which, -1});
    return {};
  }
  if (lower == "last" || lower == "final") {
    out.push_back({which, count - 1});
    return {};
  }
  const size_t dash = token.find('-', 1);
  const std::optional<int64_t> from = Number(token.substr(0, dash));
  const std::optional<int64_t> to =
      dash == std::string_view::npos ? from : Number(token.substr(dash + 1));
  if (!from || !to || *to < *from) {
    return "'" + std::string(token) + "' is not a pass number, a range like 3-7, input or last";
  }
  if (*to >= count) {
    return "pass " + std::to_string(*to) + " is out of range (the recording has " +
           std::to_string(count) + " passes)";
  }
  for (int64_t pass = *from; pass <= *to; ++pass) out.push_back({which, pass});
  return {};
}

}  // namespace

StageList ParseStageList(std::string_view text, const recording::Recording& first,
                         const recording::Recording* second) {
  StageList list;
  for (std::string_view token : Tokens(text)) {
    int which = 0;
    if (token.size() > 2 && token[1] == ':') {
      const char prefix = static_cast<char>(std::toupper(static_cast<unsigned char>(token[0])));
      if (prefix != 'A' && prefix != 'B') {
        list.error = "'" + std::string(token) + "': the prefix is A: or B:";
        return list;
      }
      which = prefix == 'B' ? 1 : 0;
      token.remove_prefix(2);
    }
    if (which == 1 && !second) {
      list.error = "B: needs a second recording";
      return list;
    }
    list.error = ParseToken(token, which, which == 1 ? *second : first, list.stages);
    if (!list.error.empty()) {
      list.stages.clear();
      return list;
    }
  }
  return list;
}

std::string FormatStage(const Stage& stage) {
  const std::string pass = stage.pass < 0 ? "input" : std::to_string(stage.pass);
  return stage.recording == 1 ? "B:" + pass : pass;
}

void StageWindow::SetRecordings(const recording::Recording* first,
                                const recording::Recording* second) {
  first_ = first;
  second_ = first ? second : nullptr;
  std::erase_if(explicit_, [this](const Stage& stage) {
    const recording::Recording* recording = RecordingOf(stage.recording);
    return !recording || stage.pass >= static_cast<int64_t>(recording->passes.size());
  });
  Rebuild();
}

void StageWindow::SetFilter(StageFilter filter) {
  filter_ = std::move(filter);
  Rebuild();
}

void StageWindow::SetArrangement(StageArrangement arrangement) {
  arrangement_ = arrangement;
  Rebuild();
}

void StageWindow::SetExplicit(std::vector<Stage> stages) {
  std::erase_if(stages, [this](const Stage& stage) {
    const recording::Recording* recording = RecordingOf(stage.recording);
    return !recording || stage.pass < -1 ||
           stage.pass >= static_cast<int64_t>(recording->passes.size());
  });
  explicit_ = std::move(stages);
  Rebuild();
}

void StageWindow::SetPaneCount(int panes) {
  panes_ = std::clamp(panes, kMinPanes, kMaxPanes);
  SetPosition(position_);
}

void StageWindow::SetPosition(int position) {
  position_ = std::clamp(position, 0, last_position());
}

int StageWindow::last_position() const {
  int stages = 0;
  for (int step = static_cast<int>(steps_.size()) - 1; step >= 0; --step) {
    stages += static_cast<int>(steps_[static_cast<size_t>(step)].size());
    if (stages >= panes_) return step;
  }
  return 0;
}

StageArrangement StageWindow::effective_arrangement() const {
  return second_ ? arrangement_ : StageArrangement::kFirst;
}

std::vector<Stage> StageWindow::Visible() const {
  std::vector<Stage> visible;
  for (size_t step = static_cast<size_t>(position_); step < steps_.size(); ++step) {
    for (const Stage& stage : steps_[step]) {
      if (static_cast<int>(visible.size()) == panes_) return visible;
      visible.push_back(stage);
    }
  }
  return visible;
}

bool StageWindow::Reveal(const Stage& stage, int before) {
  const std::vector<Stage> visible = Visible();
  if (std::find(visible.begin(), visible.end(), stage) != visible.end()) return true;
  for (size_t step = 0; step < steps_.size(); ++step) {
    const std::vector<Stage>& stages = steps_[step];
    if (std::find(stages.begin(), stages.end(), stage) == stages.end()) continue;
    SetPosition(static_cast<int>(step) - std::max(before, 0));
    return true;
  }
  return false;
}

std::optional<int64_t> StageWindow::MatchingPass(int64_t pass) const {
  if (!first_ || !second_) return std::nullopt;
  if (pass < 0) return -1;
  const std::string& name = first_->passes[static_cast<size_t>(pass)].name;
  int occurrence = 0;
  for (int64_t i = 0; i < pass; ++i) {
    occurrence += first_->passes[static_cast<size_t>(i)].name == name ? 1 : 0;
  }
  for (const recording::PassRecord& other : second_->passes) {
    if (other.name == name && occurrence-- == 0) return other.index;
  }
  return std::nullopt;
}

const recording::Recording* StageWindow::RecordingOf(int index) const {
  return index == 0 ? first_ : index == 1 ? second_ : nullptr;
}

bool StageWindow::Accepts(const recording::PassRecord& pass) const {
  if (filter_.changed_only && !pass.changed) return false;
  return filter_.name.empty() || Lower(pass.name).find(Lower(filter_.name)) != std::string::npos;
}

std::vector<Stage> StageWindow::Filtered(int recording) const {
  std::vector<Stage> stages;
  const recording::Recording* source = RecordingOf(recording);
  if (!source) return stages;
  // The input is no pass: a filter that asks for passes leaves it out.
  if (!filter_.active()) stages.push_back({recording, -1});
  for (const recording::PassRecord& pass : source->passes) {
    if (Accepts(pass)) stages.push_back({recording, pass.index});
  }
  return stages;
}

void StageWindow::Rebuild() {
  const std::vector<Stage> shown = Visible();
  steps_.clear();
  if (!first_) {
    position_ = 0;
    return;
  }
  if (!explicit_.empty()) {
    for (const Stage& stage : explicit_) steps_.push_back({stage});
  } else if (effective_arrangement() == StageArrangement::kInterleaved) {
    if (!filter_.active()) steps_.push_back({{0, -1}, {1, -1}});
    for (const recording::PassRecord& pass : first_->passes) {
      const std::optional<int64_t> match = MatchingPass(pass.index);
      const recording::PassRecord* other =
          match ? &second_->passes[static_cast<size_t>(*match)] : nullptr;
      // A pass that changed either module counts as changed.
      if (!Accepts(pass) && !(other && Accepts(*other))) continue;
      steps_.push_back({{0, pass.index}});
      if (other) steps_.back().push_back({1, other->index});
    }
  } else {
    const int which = effective_arrangement() == StageArrangement::kSecond ? 1 : 0;
    for (const Stage& stage : Filtered(which)) steps_.push_back({stage});
  }
  // Where the old first stage is still a candidate, the window starts on it again.
  if (!shown.empty()) {
    for (size_t step = 0; step < steps_.size(); ++step) {
      const std::vector<Stage>& stages = steps_[step];
      if (std::find(stages.begin(), stages.end(), shown.front()) != stages.end()) {
        SetPosition(static_cast<int>(step));
        return;
      }
    }
  }
  SetPosition(position_);
}

}  // namespace fusescope::views
