#include "views/qt/graph_edge_item.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWidget>
#include <cmath>

#include "views/qt/diff_colors.h"

namespace fusescope::views {
namespace {

constexpr qreal kArrowLength = 8;
constexpr qreal kNoteMaxWidth = 260;
constexpr qreal kNoteOffset = 72;
// Below this zoom, labels and arrow heads are too small to read: skip them.
constexpr qreal kDetailThreshold = 0.35;

QFont LabelFont() {
  QFont font;
  font.setPixelSize(9);
  return font;
}

QFont NoteFont() {
  QFont font;
  font.setPixelSize(10);
  font.setBold(true);
  return font;
}

}  // namespace

GraphEdgeItem::GraphEdgeItem(const EdgeRoute& route, const QString& label, const QString& note,
                             bool refused)
    : label_at_(route.label.x, route.label.y), label_(label), note_(note), refused_(refused) {
  const auto& points = route.path;
  if (!points.empty()) {
    path_.moveTo(points[0].x, points[0].y);
    sketch_ << QPointF(points[0].x, points[0].y);
    for (size_t i = 1; i + 2 < points.size(); i += 3) {
      path_.cubicTo(points[i].x, points[i].y, points[i + 1].x, points[i + 1].y, points[i + 2].x,
                    points[i + 2].y);
      sketch_ << QPointF(points[i + 2].x, points[i + 2].y);
    }
  }
  BuildArrow();
  setZValue(has_note() ? 3 : 0);
  if (has_note()) setToolTip(note_);
}

void GraphEdgeItem::BuildArrow() {
  // Aim along the last control leg of the spline; measuring the path's length instead is
  // far too slow for thousands of edges on the GUI thread.
  const int count = path_.elementCount();
  if (count < 2) return;
  const QPointF tip = path_.elementAt(count - 1);
  QPointF direction;
  for (int i = count - 2; i >= 0; --i) {
    direction = tip - QPointF(path_.elementAt(i));
    if (std::hypot(direction.x(), direction.y()) > 1e-3) break;
  }
  const qreal norm = std::hypot(direction.x(), direction.y());
  if (norm < 1e-3) return;
  direction /= norm;
  const QPointF normal(-direction.y(), direction.x());
  const QPointF base = tip - direction * kArrowLength;
  arrow_ << tip << base + normal * (kArrowLength / 2.2) << base - normal * (kArrowLength / 2.2);
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

QRectF GraphEdgeItem::boundingRect() const {
  QRectF rect = path_.boundingRect().united(arrow_.boundingRect()).adjusted(-4, -4, 4, 4);
  if (has_note()) rect = rect.united(NoteRect().adjusted(-2, -2, 2, 2));
  if (!label_.isEmpty()) rect = rect.united(QRectF(label_at_, QSizeF(120, 14)));
  return rect;
}

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
  painter->drawPath(path_);
  painter->setPen(Qt::NoPen);
  painter->setBrush(color);
  painter->drawPolygon(arrow_);
  if (has_note()) {
    PaintNote(painter, palette);
  } else if (!label_.isEmpty()) {
    QColor dim = palette.color(QPalette::Text);
    dim.setAlphaF(0.6);
    painter->setPen(dim);
    painter->setFont(LabelFont());
    painter->drawText(label_at_ + QPointF(4, 3), label_);
  }
}

}  // namespace fusescope::views
