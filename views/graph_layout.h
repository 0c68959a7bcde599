#ifndef FUSESCOPE_VIEWS_GRAPH_LAYOUT_H_
#define FUSESCOPE_VIEWS_GRAPH_LAYOUT_H_

// Positions for what a DisplayGraph shows, computed by Graphviz `dot` one piece at a time:
// the top level and every expanded box is laid out on its own, with each child box as one
// sized node (a collapsed box by its label, an expanded box by its own laid-out content), and
// the pieces are nested level by level. Pieces are small (a level holds at most
// DisplayOptions::max_children nodes), which keeps dot fast on 100k-instruction modules, and
// they are cached (LayoutCache), so toggling one box re-lays out only it and its ancestors.
//
// Edges between nodes of different boxes follow the piece where their boxes meet, extended
// by straight segments from the box border to the nodes inside. Coordinates are points,
// y pointing down, origin at the top-left corner of the picture.
//
// Thread-safety: LayoutGraph may run on any thread (Graphviz calls are serialised inside);
// the DisplayGraph must not change while it runs.

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ir/status.h"
#include "views/display_graph.h"
#include "views/geometry.h"
#include "views/graphviz_engine.h"

namespace fusescope::views {

class LayoutCache;

struct NodePlacement {
  int node = -1;  // DisplayGraph node id
  Rect rect;
};

struct EdgeRoute {
  int from = -1;  // visible DisplayGraph nodes (instructions or collapsed boxes)
  int to = -1;
  std::vector<int> edges;   // the DisplayEdges this route draws (indices into edges())
  std::vector<Point> path;  // cubic Bezier chain: the start, then 3 points per segment
  Point label;              // where a label of the route goes
};

// Text metrics the sizes assume; drawing code uses the same font sizes.
struct NodeMetrics {
  static constexpr double kTitleFontSize = 11;  // bold
  static constexpr double kSubtitleFontSize = 9;
  static constexpr double kTitleCharWidth = 6.9;  // DejaVu Sans Bold at 11 px, average
  static constexpr double kSubtitleCharWidth = 5.5;
  static constexpr double kBoxHeader = 22;  // title strip of an expanded box
  static constexpr double kBoxPadding = 10;
};

// Width and height (as a Point) of a node drawn collapsed.
Point NodeSize(const DisplayNode& node);

struct LayoutOptions {
  double margin = 12;
  // Applied to every piece instead of DotSettings::ForSize (benchmarks, experiments).
  std::optional<DotSettings> dot;
  LayoutCache* cache = nullptr;  // null: LayoutCache::Global()
  bool use_cache = true;
};

class GraphLayout {
 public:
  // Visible nodes, boxes before their children.
  const std::vector<NodePlacement>& nodes() const { return nodes_; }
  const std::vector<EdgeRoute>& edges() const { return edges_; }
  double width() const { return width_; }
  double height() const { return height_; }
  const NodePlacement* Find(int node) const;

  int graphviz_calls() const { return graphviz_calls_; }  // pieces laid out by Graphviz
  int cached_pieces() const { return cached_pieces_; }    // pieces taken from the cache

 private:
  friend class Layouter;
  friend class DiffLayouter;
  void Index();

  std::vector<NodePlacement> nodes_;
  std::vector<EdgeRoute> edges_;
  std::unordered_map<int, size_t> index_;
  double width_ = 0;
  double height_ = 0;
  int graphviz_calls_ = 0;
  int cached_pieces_ = 0;
};

StatusOr<GraphLayout> LayoutGraph(const DisplayGraph& graph, const LayoutOptions& options = {});

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_GRAPH_LAYOUT_H_
