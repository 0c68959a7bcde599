#ifndef FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_NODE_ITEM_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_NODE_ITEM_H_

// One visible node of a graph picture: an instruction, a collapsed box (fusion, name scope
// or group: one node with a "+" mark), or an expanded box (a frame with a title strip that
// its children are drawn inside). Filled and outlined by diff status; outlined boldly when
// selected or when it is the counterpart of the selection on the other side. Under the heat
// overlay the fill is the node's place on the heat scale instead of its diff colour.

#include <QGraphicsItem>
#include <optional>

#include "views/display_graph.h"
#include "views/qt/graph/graph_drawing.h"

namespace fusescope::views {

class GraphNodeItem : public QGraphicsItem {
 public:
  enum class Mark { kNone, kSelected, kCounterpart, kDecision };

  // Copies what it draws (implicitly shared): the drawing may go before the item.
  explicit GraphNodeItem(const NodeDrawing& drawing);

  int node_id() const { return node_id_; }
  bool is_box() const { return kind_ != DisplayNodeKind::kInstruction; }
  bool expanded() const { return expanded_; }
  void SetMark(Mark mark);
  Mark mark() const { return mark_; }
  // Where the node falls on the heat scale, in [0, 1]; nullopt: no overlay.
  void SetHeat(std::optional<double> fraction);
  const std::optional<double>& heat() const { return heat_; }
  // The fill it paints with in `palette`; for tests.
  QColor FillColor(const QPalette& palette) const { return Fill(palette); }

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  void PaintNode(QPainter* painter, const QPalette& palette) const;
  void PaintExpandedBox(QPainter* painter, const QPalette& palette) const;
  void PaintMark(QPainter* painter, const QRectF& rect, qreal radius) const;
  void PaintSilhouette(QPainter* painter, const QPalette& palette) const;
  QColor Fill(const QPalette& palette) const;
  QPen Outline(const QPalette& palette) const;

  int node_id_;
  DisplayNodeKind kind_;
  bool expanded_;
  ir::DiffStatus diff_;
  QString title_;
  QString subtitle_;
  QRectF rect_;
  Mark mark_ = Mark::kNone;
  std::optional<double> heat_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_NODE_ITEM_H_
