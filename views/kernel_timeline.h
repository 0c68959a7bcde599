#ifndef FUSESCOPE_VIEWS_KERNEL_TIMELINE_H_
#define FUSESCOPE_VIEWS_KERNEL_TIMELINE_H_

// One kernel's lowering as a timeline: each stage with its lines and its line diff against
// the stage before, what `fusescope kernel FUSION` prints and the Kernel view shows. Built
// once (off the GUI thread in the workbench), then read-only. No Qt.

#include <memory>
#include <string>
#include <vector>

#include "recording/kernel_record.h"
#include "views/line_diff.h"

namespace fusescope::views {

struct KernelTimelineStage {
  std::string name;
  int64_t lines = 0;
  int64_t bytes = 0;
  // Against the stage before; the first stage's lines are all kSame and it counts as changed.
  std::vector<DiffLine> diff;
  DiffCounts counts;
  bool changed = true;
};

class KernelTimeline {
 public:
  // Owns `kernel`: the diffs point into its texts, so a timeline is neither copied nor moved.
  static std::unique_ptr<const KernelTimeline> Build(recording::KernelRecord kernel);

  KernelTimeline(const KernelTimeline&) = delete;
  KernelTimeline& operator=(const KernelTimeline&) = delete;

  const recording::KernelRecord& kernel() const { return kernel_; }
  const std::vector<KernelTimelineStage>& stages() const { return stages_; }
  // The stage named `name`, else one given by its position ("3"); -1 when none.
  int FindStage(const std::string& name) const;
  // "input, linalg-fuse-elementwise-ops, ..., asm", for errors.
  std::string StageNames() const;

 private:
  explicit KernelTimeline(recording::KernelRecord kernel) : kernel_(std::move(kernel)) {}

  recording::KernelRecord kernel_;
  std::vector<KernelTimelineStage> stages_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_KERNEL_TIMELINE_H_
