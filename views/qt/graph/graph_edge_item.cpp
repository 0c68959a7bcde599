#include "views/qt/graph/graph_edge_item.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWidget>

#include "views/qt/graph/diff_colors.h"

namespace fusescope::views {
namespace {

constexpr qreal kNoteMaxWidth = 260;
constexpr qreal kNoteOffset = 72;
// Room around the exposed area for the pen and anti-aliasing.
constexpr qreal kArrowPad = 4;
// Below this zoom, labels and arrow heads are too small to read: skip them.
constexpr qreal kDetailThreshold = 0.35;

const QFont& LabelFont() {
  static const QFont font = [] {
    QFont made;
    made.setPixelSize(9);
    return made;
  }();
  return font;
}

const QFont& NoteFont() {
  static const QFont font = [] {
    QFont made;
    made.setPixelSize(10);
    made.setBold(true);
    return made;
  }();
  return font;
}

}  // namespace

GraphEdgeItem::GraphEdgeItem(const EdgeDrawing& drawing)
    : path_(drawing.path),
      sketch_(drawing.sketch),
      arrow_(drawing.arrow),
      label_at_(drawing.label_at),
      label_(drawing.label),
      note_(drawing.note),
      refused_(drawing.refused),
      bounds_(drawing.bounds) {
  setZValue(has_note() ? 3 : 0);
  // paint() needs the exposed rectangle to skip the parts of long edges out of view.
  setFlag(ItemUsesExtendedStyleOption);
  if (has_note()) {
    setToolTip(note_);
    bounds_ = bounds_.united(NoteRect().adjusted(-2, -2, 2, 2));
  }
}

void GraphEdgeItem::SetHighlighted(bool highlighted) {
  if (highlighted == highlighted_) return;
  highlighted_ = highlighted;
  update();
}

QRectF GraphEdgeItem::NoteRect() const {
  const QFontMetricsF metrics(NoteFont());
  QRectF text = metrics.boundingRect(QRectF(0, 0, kNoteMaxWidth, 1000),
                                     Qt::TextWordWrap | Qt::AlignCenter, note_);
  // Beside the edge rather than on it, clear of the pair's nodes above and below it (a
  // leader line joins it to the edge).
  text.moveTopLeft(label_at_ + QPointF(kNoteOffset, -text.height() / 2));
  return text.adjusted(-6, -4, 6, 4);
}

QPainterPath GraphEdgeItem::PartIn(const QRectF& exposed) const {
  // Stroking an edge that crosses a whole expanded graph costs as much as its length, not as
  // what shows of it: only the segments whose control points reach the exposed area are drawn.
  const QRectF area = exposed.adjusted(-kArrowPad, -kArrowPad, kArrowPad, kArrowPad);
  QPainterPath part;
  const int count = path_.elementCount();
  bool continuing = false;
  for (int i = 1; i + 2 < count; i += 3) {
    const QPointF start = path_.elementAt(i - 1);
    const QPointF c1 = path_.elementAt(i);
    const QPointF c2 = path_.elementAt(i + 1);
    const QPointF end = path_.elementAt(i + 2);
    const QRectF box = QPolygonF({start, c1, c2, end}).boundingRect();
    if (!box.intersects(area)) {
      continuing = false;
      continue;
    }
    if (!continuing) part.moveTo(start);
    part.cubicTo(c1, c2, end);
    continuing = true;
  }
  return part;
}

QRectF GraphEdgeItem::boundingRect() const { return bounds_; }

void GraphEdgeItem::PaintNote(QPainter* painter, const QPalette& palette) const {
  const QColor color = refused_ ? DiffColors::Refused() : DiffColors::Accepted();
  const QRectF rect = NoteRect();
  painter->setPen(QPen(color, 1, Qt::DotLine));
  painter->drawLine(label_at_, QPointF(rect.left(), rect.center().y()));
  painter->setPen(QPen(color, 1.5));
  QColor fill = palette.color(QPalette::Base);
  fill.setAlpha(235);
  painter->setBrush(fill);
  painter->drawRoundedRect(rect, 6, 6);
  painter->setPen(color);
  painter->setFont(NoteFont());
  painter->drawText(rect.adjusted(6, 4, -6, -4), Qt::TextWordWrap | Qt::AlignCenter, note_);
}

void GraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
                          QWidget* widget) {
  const QPalette palette = widget ? widget->palette() : QApplication::palette();
  const bool detailed =
      option->levelOfDetailFromTransform(painter->worldTransform()) >= kDetailThreshold;
  painter->setRenderHint(QPainter::Antialiasing, detailed);
  QColor color = palette.color(QPalette::Text);
  color.setAlphaF(0.55);
  qreal width = 1.1;
  if (has_note()) {
    color = refused_ ? DiffColors::Refused() : DiffColors::Accepted();
    width = 2.5;
  } else if (highlighted_) {
    color = DiffColors::Selection();
    width = 2;
  }
  QPen pen(color, width);
  // Plain edges use a cosmetic pen: one device pixel wide at any zoom, and much cheaper to
  // stroke than a scaled one.
  if (!has_note() && !highlighted_) pen = QPen(color, 1.0);
  pen.setCosmetic(!has_note() && !highlighted_);
  if (has_note() && refused_) pen.setStyle(Qt::DashLine);
  painter->setPen(pen);
  painter->setBrush(Qt::NoBrush);
  if (!detailed && !has_note()) {
    // Far out, the segments' end points are a faithful enough sketch and far cheaper than
    // flattening every curve.
    painter->drawPolyline(sketch_);
    return;
  }
  painter->drawPath(bounds_.height() > 2 * option->exposedRect.height() ||
                            bounds_.width() > 2 * option->exposedRect.width()
                        ? PartIn(option->exposedRect)
                        : path_);
  painter->setPen(Qt::NoPen);
  painter->setBrush(color);
  painter->drawPolygon(arrow_);
  if (has_note()) {
    PaintNote(painter, palette);
  } else if (!label_.isEmpty() && option->exposedRect.intersects(LabelRect(label_at_))) {
    // Laying text out is the dearest part of an edge: labels out of view are skipped.
    QColor dim = palette.color(QPalette::Text);
    dim.setAlphaF(0.6);
    painter->setPen(dim);
    painter->setFont(LabelFont());
    painter->drawText(label_at_ + QPointF(4, 3), label_);
  }
}

}  // namespace fusescope::views
