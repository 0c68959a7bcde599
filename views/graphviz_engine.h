#ifndef FUSESCOPE_VIEWS_GRAPHVIZ_ENGINE_H_
#define FUSESCOPE_VIEWS_GRAPHVIZ_ENGINE_H_

// One call of Graphviz `dot` on one small piece of a graph (a level of the box hierarchy),
// in process through libgvc/cgraph. Graphviz keeps global state and is not thread-safe: every
// call in the program goes through Layout(), which holds one process-wide mutex, so a GUI
// worker thread and the main thread may both use it. Graphviz headers stay in the .cpp.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/status.h"
#include "views/geometry.h"

namespace fusescope::views {

struct PieceNode {
  double width = 0;  // points
  double height = 0;
  // -1: alone on the top rank with the other such nodes; 1: alone on the bottom rank.
  int rank = 0;
};

struct PieceEdge {
  int from = -1;  // indices into the piece's nodes
  int to = -1;
  bool from_bottom = false;  // leave the tail node at the middle of its bottom side
  bool to_top = false;       // enter the head node at the middle of its top side
};

// Graphviz settings for one piece; DotSettings::ForSize picks them by the piece's size.
struct DotSettings {
  double node_sep = 18;  // points
  double rank_sep = 28;  // points
  std::string splines = "spline";
  double nslimit = -1;  // network simplex iterations factor; negative: Graphviz default
  double mclimit = -1;  // mincross iterations factor; negative: Graphviz default
  int searchsize = -1;  // negative: Graphviz default

  static DotSettings ForSize(size_t nodes, size_t edges);
  uint64_t Hash() const;
};

// A piece laid out: node centres and edge paths relative to its top-left corner, y down.
struct PieceLayout {
  std::vector<Point> centers;
  std::vector<std::vector<Point>> paths;  // per edge: cubic Bezier chain (1 + 3n points)
  double width = 0;
  double height = 0;
};

class GraphvizEngine {
 public:
  static StatusOr<PieceLayout> Layout(const std::vector<PieceNode>& nodes,
                                      const std::vector<PieceEdge>& edges,
                                      const DotSettings& settings);
  // Number of Layout() calls that ran Graphviz since the program started.
  static int64_t call_count();
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_GRAPHVIZ_ENGINE_H_
