#ifndef FUSESCOPE_VIEWS_SVG_WRITER_H_
#define FUSESCOPE_VIEWS_SVG_WRITER_H_

// Draws a laid-out DisplayGraph as SVG with our own colours and classes (not Graphviz's
// renderer): nodes and boxes coloured by diff status (DiffPalette), fusion boxes as rounded
// rectangles titled with their kind, scope boxes dashed, edges with shape labels and, when
// annotated, the reason a fusion of the pair was refused. Every node is a
// <g class="fs-node diff-STATUS ..." data-key=... data-status=...> so pages and tests can
// find it; colours are also written as attributes, for renderers without CSS.

#include <string>
#include <utility>

#include "views/display_graph.h"
#include "views/graph_layout.h"

namespace fusescope::views {

struct SvgOptions {
  bool edge_labels = true;
  bool edge_notes = true;  // refused-fusion reasons and other edge notes
  bool legend = true;      // the diff colours, above the picture
  // Prefix of element ids; give each SVG of one HTML page its own.
  std::string id_prefix = "fs";
  std::string title;  // above a single graph; empty: none
  std::string left_title = "before";
  std::string right_title = "after";
  // A complete document with an XML declaration; false: a bare <svg> element for inlining.
  bool standalone = true;
};

class SvgWriter {
 public:
  explicit SvgWriter(SvgOptions options = {}) : options_(std::move(options)) {}

  std::string Render(const DisplayGraph& graph, const GraphLayout& layout) const;
  // Two sides of a diff next to each other under their titles.
  std::string RenderSideBySide(const DisplayGraph& left, const GraphLayout& left_layout,
                               const DisplayGraph& right, const GraphLayout& right_layout) const;

 private:
  void Open(std::string& out, double width, double height) const;
  void Legend(std::string& out, double x, double y) const;
  void Graph(std::string& out, const DisplayGraph& graph, const GraphLayout& layout, double dx,
             double dy, const std::string& prefix) const;
  void ExpandedBox(std::string& out, const DisplayNode& node, const Rect& rect,
                   const std::string& prefix) const;
  void Node(std::string& out, const DisplayNode& node, const Rect& rect,
            const std::string& prefix) const;
  void Edge(std::string& out, const DisplayGraph& graph, const EdgeRoute& route) const;

  SvgOptions options_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_SVG_WRITER_H_
