#include "views/qt/graph/graph_drawing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace fusescope::views {
namespace {

constexpr qreal kArrowLength = 8;

NodeDrawing DrawNode(const DisplayGraph& graph, const NodePlacement& placement) {
  const DisplayNode& node = graph.node(placement.node);
  NodeDrawing drawing;
  drawing.node = node.id;
  drawing.kind = node.kind;
  drawing.expanded = node.is_box() && node.expanded;
  drawing.diff = node.diff;
  const Rect& rect = placement.rect;
  drawing.rect = QRectF(rect.x, rect.y, rect.width, rect.height);
  drawing.title = QString::fromStdString(node.title);
  drawing.subtitle = QString::fromStdString(node.subtitle);
  drawing.tool_tip =
      drawing.subtitle.isEmpty() ? drawing.title : drawing.title + QChar('\n') + drawing.subtitle;
  return drawing;
}

// Aims along the last control leg of the spline; measuring the path's length instead is far
// too slow for thousands of edges.
QPolygonF Arrow(const QPainterPath& path) {
  const int count = path.elementCount();
  if (count < 2) return {};
  const QPointF tip = path.elementAt(count - 1);
  QPointF direction;
  for (int i = count - 2; i >= 0; --i) {
    direction = tip - QPointF(path.elementAt(i));
    if (std::hypot(direction.x(), direction.y()) > 1e-3) break;
  }
  const qreal norm = std::hypot(direction.x(), direction.y());
  if (norm < 1e-3) return {};
  direction /= norm;
  const QPointF normal(-direction.y(), direction.x());
  const QPointF base = tip - direction * kArrowLength;
  return QPolygonF() << tip << base + normal * (kArrowLength / 2.2)
                     << base - normal * (kArrowLength / 2.2);
}

void Trace(const std::vector<Point>& points, EdgeDrawing& drawing) {
  if (points.empty()) return;
  drawing.path.moveTo(points[0].x, points[0].y);
  drawing.sketch << QPointF(points[0].x, points[0].y);
  for (size_t i = 1; i + 2 < points.size(); i += 3) {
    drawing.path.cubicTo(points[i].x, points[i].y, points[i + 1].x, points[i + 1].y,
                         points[i + 2].x, points[i + 2].y);
    drawing.sketch << QPointF(points[i + 2].x, points[i + 2].y);
  }
}

EdgeDrawing DrawEdge(const DisplayGraph& graph, const EdgeRoute& route) {
  EdgeDrawing drawing;
  drawing.label_at = QPointF(route.label.x, route.label.y);
  if (!route.edges.empty()) {
    drawing.label =
        QString::fromStdString(graph.edges()[static_cast<size_t>(route.edges.front())].label);
  }
  for (int edge : route.edges) {
    const DisplayEdge& display_edge = graph.edges()[static_cast<size_t>(edge)];
    if (display_edge.note.empty()) continue;
    drawing.note = QString::fromStdString(display_edge.note);
    drawing.refused = drawing.refused || display_edge.refused;
  }
  Trace(route.path, drawing);
  drawing.arrow = Arrow(drawing.path);
  // Computed here, so that the path's cached bounds are never filled in on the GUI thread.
  drawing.bounds = drawing.path.boundingRect().united(drawing.arrow.boundingRect());
  if (!drawing.label.isEmpty()) {
    drawing.bounds = drawing.bounds.united(LabelRect(drawing.label_at));
  }
  drawing.bounds.adjust(-4, -4, 4, 4);
  return drawing;
}

// Where a label's text lies, near enough: drawn at its anchor + (4, 3) on the baseline, in
// the 9-pixel label font (about 5.2 pixels a character).
QRectF TextExtent(const QPointF& anchor, const QString& text) {
  return QRectF(anchor.x() + 4, anchor.y() - 6, 5.2 * text.size(), 11);
}

QPointF CubicAt(const QPointF& a, const QPointF& b, const QPointF& c, const QPointF& d, qreal t) {
  const qreal u = 1 - t;
  return u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d;
}

// Labels sit at the middle of their edge's last spline, so the labels of edges converging on
// one node fell on top of each other. Each label in turn, where it would overlap one placed
// before it, moves to the nearest point of its own path where it overlaps none (it stays put
// where there is no such point).
void SeparateLabels(std::vector<EdgeDrawing>& edges) {
  constexpr qreal kCell = 64;
  std::unordered_map<int64_t, std::vector<QRectF>> placed;  // by grid cell
  auto cells = [&](const QRectF& rect, auto&& visit) {
    const int64_t x0 = static_cast<int64_t>(std::floor(rect.left() / kCell));
    const int64_t x1 = static_cast<int64_t>(std::floor(rect.right() / kCell));
    const int64_t y0 = static_cast<int64_t>(std::floor(rect.top() / kCell));
    const int64_t y1 = static_cast<int64_t>(std::floor(rect.bottom() / kCell));
    for (int64_t y = y0; y <= y1; ++y)
      for (int64_t x = x0; x <= x1; ++x) visit((y << 32) ^ (x & 0xffffffff));
  };
  auto free = [&](const QRectF& rect) {
    bool clear = true;
    cells(rect, [&](int64_t cell) {
      auto found = placed.find(cell);
      if (!clear || found == placed.end()) return;
      for (const QRectF& other : found->second)
        if (other.intersects(rect)) clear = false;
    });
    return clear;
  };
  for (EdgeDrawing& edge : edges) {
    if (edge.label.isEmpty() || !edge.note.isEmpty()) continue;
    QRectF rect = TextExtent(edge.label_at, edge.label);
    if (!free(rect)) {
      std::vector<QPointF> candidates;
      const QPainterPath& path = edge.path;
      for (int i = 1; i + 2 < path.elementCount(); i += 3) {
        for (qreal t : {0.2, 0.35, 0.5, 0.65, 0.8})
          candidates.push_back(CubicAt(path.elementAt(i - 1), path.elementAt(i),
                                       path.elementAt(i + 1), path.elementAt(i + 2), t));
      }
      const QPointF home = edge.label_at;
      std::sort(candidates.begin(), candidates.end(), [&](const QPointF& a, const QPointF& b) {
        const QPointF da = a - home, db = b - home;
        return QPointF::dotProduct(da, da) < QPointF::dotProduct(db, db);
      });
      for (const QPointF& candidate : candidates) {
        const QRectF moved = TextExtent(candidate, edge.label);
        if (!free(moved)) continue;
        edge.label_at = candidate;
        edge.bounds = edge.bounds.united(LabelRect(candidate).adjusted(-4, -4, 4, 4));
        rect = moved;
        break;
      }
    }
    cells(rect, [&](int64_t cell) { placed[cell].push_back(rect); });
  }
}

}  // namespace

bool EdgeDrawing::Reaches(const QRectF& area) const {
  if (!bounds.intersects(area)) return false;
  if (area.contains(bounds) || arrow.boundingRect().intersects(area)) return true;
  if (!label.isEmpty() && LabelRect(label_at).intersects(area)) return true;
  const int count = path.elementCount();
  for (int i = 1; i + 2 < count; i += 3) {
    const QPolygonF segment(
        {path.elementAt(i - 1), path.elementAt(i), path.elementAt(i + 1), path.elementAt(i + 2)});
    if (segment.boundingRect().intersects(area)) return true;
  }
  return false;
}

GraphDrawing GraphDrawing::Prepare(const DisplayGraph& graph, const GraphLayout& layout) {
  GraphDrawing drawing;
  drawing.nodes.reserve(layout.nodes().size());
  for (const NodePlacement& placement : layout.nodes()) {
    drawing.node_index.emplace(placement.node, drawing.nodes.size());
    drawing.nodes.push_back(DrawNode(graph, placement));
  }
  drawing.edges.reserve(layout.edges().size());
  for (const EdgeRoute& route : layout.edges()) drawing.edges.push_back(DrawEdge(graph, route));
  SeparateLabels(drawing.edges);
  return drawing;
}

}  // namespace fusescope::views
