#ifndef FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_PICTURE_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_PICTURE_H_

// One side of a pass as a laid-out graph: the display graph of that side's module (with the
// diff attached, boxes expanded as asked, a focused fusion decision written on its edge) and
// its Graphviz layout. Built on a worker thread; read-only afterwards. It keeps the pass's
// data alive, since the display graph points into its module.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "views/display_graph.h"
#include "views/graph_layout.h"
#include "views/qt/graph/graph_drawing.h"
#include "views/qt/pass_view.h"

namespace fusescope::views {

struct EdgeAnnotation {
  int64_t producer_id = -1;
  int64_t consumer_id = -1;
  std::string text;
  bool refused = false;
};

struct GraphRequest {
  std::shared_ptr<const PassView> view;
  GraphSide side = GraphSide::kAfter;
  DisplayOptions options;
  // Boxes to show expanded (carried over from the previous picture); none: a first picture
  // that expands scopes while at most `budget` nodes are visible.
  std::optional<std::unordered_set<std::string>> expanded;
  int budget = 160;
  // Instructions to bring into view: the boxes around them are expanded.
  std::vector<int64_t> reveal;
  std::optional<EdgeAnnotation> annotation;
  // Colour the nodes by the pass's diff; off for a graph shown as a stage of its own (the
  // input module), where the pass that follows it is not what the picture is about.
  bool attach_diff = true;
};

class GraphPicture {
 public:
  // Runs on a worker thread. Never null; a module that did not rebuild or a layout that
  // failed gives an empty picture with error() set.
  static std::shared_ptr<const GraphPicture> Build(const GraphRequest& request);

  struct Pair {
    std::shared_ptr<const GraphPicture> before;
    std::shared_ptr<const GraphPicture> after;
  };
  // Both sides laid out together so that what the pass left alone sits in the same place on
  // both (views::LayoutDiff). Boxes expanded on either side are expanded on both. Falls
  // back to separate layouts when a side did not rebuild.
  static Pair BuildAligned(const GraphRequest& before, const GraphRequest& after);

  GraphPicture(const GraphPicture&) = delete;
  GraphPicture& operator=(const GraphPicture&) = delete;

  const GraphRequest& request() const { return request_; }
  const DisplayGraph& graph() const { return graph_; }
  const GraphLayout& layout() const { return layout_; }
  const std::string& error() const { return error_; }
  // What the canvas's items draw, prepared with the layout.
  const GraphDrawing& drawing() const { return drawing_; }
  // DisplayGraph::ExpandedKeys(), and the keys of every scope and group box (what Expand
  // All opens), gathered on the worker.
  const std::unordered_set<std::string>& expanded_keys() const { return expanded_keys_; }
  const std::unordered_set<std::string>& box_keys() const { return box_keys_; }
  bool empty() const { return layout_.nodes().empty(); }
  // The visible node that shows `instruction_id` (itself or the collapsed box around it);
  // -1 when not in the graph.
  int VisibleNodeOf(int64_t instruction_id) const;

 private:
  explicit GraphPicture(GraphRequest request) : request_(std::move(request)) {}
  // The display graph with diff, expansion and annotation applied; false when the side's
  // module is missing (error() says why).
  bool PrepareGraph();
  void ExpandBoxes(const std::unordered_set<std::string>& keys);
  void LayOut();
  // The drawing and key sets, once the layout is in.
  void Finish();

  GraphRequest request_;
  DisplayGraph graph_;
  GraphLayout layout_;
  GraphDrawing drawing_;
  std::unordered_set<std::string> expanded_keys_;
  std::unordered_set<std::string> box_keys_;
  std::string error_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_PICTURE_H_
