#ifndef FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_EDGE_ITEM_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_EDGE_ITEM_H_

// One routed edge of a graph picture: the Graphviz spline with an arrow head, the shape of
// the value as a small label, and, when a fusion decision was made on the pair, the reason
// written on the edge in a pill (red for a refusal).

#include <QGraphicsItem>
#include <QPainterPath>

#include "views/qt/graph/graph_drawing.h"

namespace fusescope::views {

class GraphEdgeItem : public QGraphicsItem {
 public:
  // Copies what it draws (implicitly shared): the drawing may go before the item.
  explicit GraphEdgeItem(const EdgeDrawing& drawing);

  bool has_note() const { return !note_.isEmpty(); }
  const QString& note() const { return note_; }
  QPointF label_position() const { return label_at_; }
  void SetHighlighted(bool highlighted);

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  QRectF NoteRect() const;
  // The segments of the spline that reach `exposed` (item coordinates).
  QPainterPath PartIn(const QRectF& exposed) const;
  void PaintNote(QPainter* painter, const QPalette& palette) const;

  QPainterPath path_;
  QPolygonF sketch_;  // the spline's segment end points, drawn when zoomed far out
  QPolygonF arrow_;
  QPointF label_at_;
  QString label_;
  QString note_;
  bool refused_;
  bool highlighted_ = false;
  QRectF bounds_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_EDGE_ITEM_H_
