#ifndef FUSESCOPE_VIEWS_QT_SELECTION_H_
#define FUSESCOPE_VIEWS_QT_SELECTION_H_

// What the user has selected in the workbench. Instruction ids are stable across passes,
// so a selection survives stepping from one pass to the next.

#include <cstdint>

namespace fusescope::views {

// The two graphs of a pass: the module the pass ran on and the module it produced.
enum class GraphSide { kBefore, kAfter };

struct Selection {
  int64_t instruction_id = -1;
  GraphSide side = GraphSide::kAfter;
  // Index into Recording::decisions when a fusion decision is focused (its pair is shown
  // with the reason on the edge); -1 otherwise.
  int64_t decision_index = -1;

  bool empty() const { return instruction_id < 0 && decision_index < 0; }
  bool operator==(const Selection& other) const = default;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_SELECTION_H_
