#include "views/kernel_timeline.h"

namespace fusescope::views {

std::unique_ptr<const KernelTimeline> KernelTimeline::Build(recording::KernelRecord kernel) {
  std::unique_ptr<KernelTimeline> timeline(new KernelTimeline(std::move(kernel)));
  const std::vector<recording::KernelStage>& stages = timeline->kernel_.stages;
  std::vector<std::string_view> previous;
  for (size_t i = 0; i < stages.size(); ++i) {
    KernelTimelineStage stage;
    stage.name = stages[i].name;
    std::vector<std::string_view> lines = SplitLines(stages[i].text);
    stage.lines = static_cast<int64_t>(lines.size());
    stage.bytes = static_cast<int64_t>(stages[i].text.size());
    if (i == 0) {
      for (size_t line = 0; line < lines.size(); ++line) {
        const int number = static_cast<int>(line) + 1;
        stage.diff.push_back({LineChange::kSame, lines[line], number, number});
      }
    } else {
      stage.diff = DiffLines(previous, lines);
      stage.counts = CountChanges(stage.diff);
      stage.changed = stage.counts.changed();
    }
    previous = std::move(lines);
    timeline->stages_.push_back(std::move(stage));
  }
  return timeline;
}

int KernelTimeline::FindStage(const std::string& name) const {
  for (size_t i = 0; i < stages_.size(); ++i) {
    if (stages_[i].name == name) return static_cast<int>(i);
  }
  if (!name.empty() && name.size() < 6 &&
      name.find_first_not_of("0123456789") == std::string::npos) {
    const int index = std::stoi(name);
    if (index < static_cast<int>(stages_.size())) return index;
  }
  return -1;
}

std::string KernelTimeline::StageNames() const {
  std::string names;
  for (const KernelTimelineStage& stage : stages_)
    names += (names.empty() ? "" : ", ") + stage.name;
  return names;
}

}  // namespace fusescope::views
