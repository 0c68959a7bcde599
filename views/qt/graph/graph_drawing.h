#ifndef FUSESCOPE_VIEWS_QT_GRAPH_DRAWING_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_DRAWING_H_

// What the items of one graph picture draw: texts, spline paths, arrow heads and bounds,
// prepared on the worker thread that lays the picture out, so that the GUI thread only
// creates items and adds them to a scene. The members are Qt's implicitly shared value types:
// an item's copy costs a reference count, and nothing here is modified after Prepare().

#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <unordered_map>
#include <vector>

#include "views/display_graph.h"
#include "views/graph_layout.h"

namespace fusescope::views {

struct NodeDrawing {
  int node = -1;  // DisplayGraph node id
  DisplayNodeKind kind = DisplayNodeKind::kInstruction;
  bool expanded = false;  // an expanded box: a frame around its children
  ir::DiffStatus diff = ir::DiffStatus::kUnchanged;
  QRectF rect;
  QString title;
  QString subtitle;
  QString tool_tip;
};

struct EdgeDrawing {
  QPainterPath path;  // the Graphviz spline
  QPolygonF sketch;   // the spline's segment end points, drawn when zoomed far out
  QPolygonF arrow;
  QPointF label_at;
  QString label;  // shape of the value
  QString note;   // a fusion decision on the pair, when there is one
  bool refused = false;
  // Path, arrow head and label; a note's pill is measured with the GUI's fonts, by the item.
  QRectF bounds;

  // Whether some part of the edge (a segment's control points, the arrow head, the label)
  // lies in `area`: a long edge's bounds cover much that the edge itself never crosses.
  bool Reaches(const QRectF& area) const;
};

// Where an edge's label is drawn, at most: a shape in the label font, right of its anchor.
inline QRectF LabelRect(const QPointF& anchor) { return QRectF(anchor, QSizeF(120, 14)); }

struct GraphDrawing {
  std::vector<NodeDrawing> nodes;              // in layout order: boxes before their children
  std::vector<EdgeDrawing> edges;              // in layout order
  std::unordered_map<int, size_t> node_index;  // DisplayGraph node id -> index in nodes

  // Runs on any thread; `graph` and `layout` are only read.
  static GraphDrawing Prepare(const DisplayGraph& graph, const GraphLayout& layout);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_DRAWING_H_
