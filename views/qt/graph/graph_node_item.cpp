#include "views/qt/graph/graph_node_item.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QStyleOptionGraphicsItem>
#include <QWidget>

#include "views/graph_layout.h"
#include "views/qt/graph/diff_colors.h"
#include "views/qt/graph/heat_overlay.h"

namespace fusescope::views {
namespace {

constexpr qreal kDetailThreshold = 0.35;

const QFont& TitleFont() {
  static const QFont font = [] {
    QFont made;
    made.setPixelSize(static_cast<int>(NodeMetrics::kTitleFontSize));
    made.setBold(true);
    return made;
  }();
  return font;
}

const QFont& SubtitleFont() {
  static const QFont font = [] {
    QFont made;
    made.setPixelSize(static_cast<int>(NodeMetrics::kSubtitleFontSize));
    return made;
  }();
  return font;
}

QColor Mix(const QColor& base, const QColor& over, double amount) {
  return QColor::fromRgbF(base.redF() * (1 - amount) + over.redF() * amount,
                          base.greenF() * (1 - amount) + over.greenF() * amount,
                          base.blueF() * (1 - amount) + over.blueF() * amount);
}

}  // namespace

GraphNodeItem::GraphNodeItem(const NodeDrawing& drawing)
    : node_id_(drawing.node),
      kind_(drawing.kind),
      expanded_(drawing.expanded),
      diff_(drawing.diff),
      title_(drawing.title),
      subtitle_(drawing.subtitle),
      rect_(drawing.rect) {
  setToolTip(drawing.tool_tip);
  setZValue(expanded_ ? -1 : 1);
  setAcceptHoverEvents(false);
}

void GraphNodeItem::SetMark(Mark mark) {
  if (mark == mark_) return;
  mark_ = mark;
  update();
}

void GraphNodeItem::SetHeat(std::optional<double> fraction) {
  if (fraction == heat_) return;
  heat_ = fraction;
  update();
}

QRectF GraphNodeItem::boundingRect() const { return rect_.adjusted(-4, -4, 4, 4); }

QColor GraphNodeItem::Fill(const QPalette& palette) const {
  const QColor base = palette.color(QPalette::Base);
  // A node without time stays plain, so that the scale's palest colour still means "some".
  if (heat_) return *heat_ > 0 ? HeatScale::Color(*heat_) : base;
  QColor fill = base;
  if (kind_ == DisplayNodeKind::kFusion)
    fill = Mix(base, DiffColors::Stroke(ir::DiffStatus::kFused), 0.10);
  if (kind_ == DisplayNodeKind::kScope || kind_ == DisplayNodeKind::kGroup) {
    fill = palette.color(QPalette::AlternateBase);
  }
  const QColor stroke = DiffColors::Stroke(diff_);
  return stroke.isValid() ? Mix(fill, stroke, 0.22) : fill;
}

QPen GraphNodeItem::Outline(const QPalette& palette) const {
  const QColor stroke = DiffColors::Stroke(diff_);
  QPen pen(stroke.isValid() ? stroke : palette.color(QPalette::Mid), stroke.isValid() ? 2 : 1);
  if (kind_ == DisplayNodeKind::kFusion) pen.setStyle(Qt::DashLine);
  if (diff_ == ir::DiffStatus::kRemoved) pen.setStyle(Qt::DotLine);
  return pen;
}

void GraphNodeItem::PaintMark(QPainter* painter, const QRectF& rect, qreal radius) const {
  if (mark_ == Mark::kNone) return;
  QColor color = mark_ == Mark::kSelected   ? DiffColors::Selection()
                 : mark_ == Mark::kDecision ? DiffColors::Refused()
                                            : DiffColors::Counterpart();
  QPen pen(color, 3.5);
  if (mark_ == Mark::kCounterpart) pen.setStyle(Qt::DashLine);
  painter->setPen(pen);
  painter->setBrush(Qt::NoBrush);
  painter->drawRoundedRect(rect.adjusted(-2.5, -2.5, 2.5, 2.5), radius + 2, radius + 2);
}

void GraphNodeItem::PaintNode(QPainter* painter, const QPalette& palette) const {
  const qreal radius = is_box() ? 3 : 7;
  painter->setPen(Outline(palette));
  painter->setBrush(Fill(palette));
  painter->drawRoundedRect(rect_, radius, radius);
  if (is_box()) {
    // A second frame says "there is more inside; double-click to open".
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(rect_.adjusted(3, 3, -3, -3), radius, radius);
  }
  const QRectF text = rect_.adjusted(6, 3, -6, -3);
  const QColor ink = heat_ ? HeatScale::TextOn(Fill(palette)) : palette.color(QPalette::Text);
  painter->setPen(ink);
  painter->setFont(TitleFont());
  painter->drawText(text.adjusted(0, 0, 0, -text.height() / 2), Qt::AlignCenter, title_);
  QColor dim = ink;
  dim.setAlphaF(0.7);
  painter->setPen(dim);
  painter->setFont(SubtitleFont());
  painter->drawText(text.adjusted(0, text.height() / 2, 0, 0), Qt::AlignCenter, subtitle_);
  PaintMark(painter, rect_, radius);
}

void GraphNodeItem::PaintExpandedBox(QPainter* painter, const QPalette& palette) const {
  QColor body = palette.color(QPalette::AlternateBase);
  body.setAlpha(kind_ == DisplayNodeKind::kFusion ? 120 : 70);
  if (kind_ == DisplayNodeKind::kFusion)
    body = Mix(body, DiffColors::Stroke(ir::DiffStatus::kFused), 0.08);
  painter->setPen(Outline(palette));
  painter->setBrush(body);
  painter->drawRoundedRect(rect_, 4, 4);
  QRectF header(rect_.left(), rect_.top(), rect_.width(), NodeMetrics::kBoxHeader);
  painter->setPen(Qt::NoPen);
  painter->setBrush(Fill(palette));
  painter->drawRoundedRect(header.adjusted(1, 1, -1, 0), 3, 3);
  painter->setPen(heat_ ? HeatScale::TextOn(Fill(palette)) : palette.color(QPalette::Text));
  painter->setFont(TitleFont());
  const QString text = QStringLiteral("− %1   %2").arg(title_, subtitle_);
  painter->drawText(header.adjusted(8, 0, -8, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
  PaintMark(painter, rect_, 4);
}

void GraphNodeItem::PaintSilhouette(QPainter* painter, const QPalette& palette) const {
  painter->setRenderHint(QPainter::Antialiasing, false);
  painter->setPen(Qt::NoPen);
  painter->setBrush(expanded_ ? QBrush(Qt::NoBrush) : QBrush(Fill(palette)));
  if (expanded_) painter->setPen(QPen(Outline(palette).color(), 0));
  painter->drawRect(rect_);
  if (mark_ != Mark::kNone) PaintMark(painter, rect_, 0);
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
                          QWidget* widget) {
  const QPalette palette = widget ? widget->palette() : QApplication::palette();
  // Far out, text is unreadable and costs the most: draw shapes only.
  if (option->levelOfDetailFromTransform(painter->worldTransform()) < kDetailThreshold) {
    PaintSilhouette(painter, palette);
    return;
  }
  painter->setRenderHint(QPainter::Antialiasing);
  if (expanded_) {
    PaintExpandedBox(painter, palette);
  } else {
    PaintNode(painter, palette);
  }
}

}  // namespace fusescope::views
