#ifndef FUSESCOPE_VIEWS_DIFF_LAYOUT_H_
#define FUSESCOPE_VIEWS_DIFF_LAYOUT_H_

// Layouts for the two sides of a diff in which matched nodes sit in the same place: the union
// of both visible graphs (a matched pair is one node, when both lie in corresponding boxes)
// is laid out once, and each side keeps the positions of its own nodes and edges. Both
// layouts have the union's size, so the pictures line up side by side; what only one side
// has leaves a gap on the other.

#include "ir/graph_diff.h"
#include "ir/status.h"
#include "views/display_graph.h"
#include "views/graph_layout.h"

namespace fusescope::views {

struct DiffLayout {
  GraphLayout left;
  GraphLayout right;
};

// `left` and `right` are display graphs of the diff's left and right modules, with their
// expansion states set (a box expanded on either side is laid out expanded).
StatusOr<DiffLayout> LayoutDiff(const DisplayGraph& left, const DisplayGraph& right,
                                const ir::GraphDiff& diff, const LayoutOptions& options = {});

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_DIFF_LAYOUT_H_
