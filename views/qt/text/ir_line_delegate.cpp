#include "views/qt/text/ir_line_delegate.h"

#include <QPainter>

#include "views/qt/graph/diff_colors.h"
#include "views/qt/text/hlo_syntax.h"
#include "views/qt/text/ir_text_model.h"

namespace fusescope::views {
namespace {

QChar Marker(ir::DiffStatus status, bool before_side) {
  switch (status) {
    case ir::DiffStatus::kUnchanged:
      return ' ';
    case ir::DiffStatus::kChanged:
      return '~';
    case ir::DiffStatus::kAdded:
      return '+';
    case ir::DiffStatus::kRemoved:
      return '-';
    case ir::DiffStatus::kFused:
    case ir::DiffStatus::kReplaced:
      return before_side ? '-' : QChar(0x00bb);
  }
  return ' ';
}

}  // namespace

IrLineDelegate::IrLineDelegate(const IrTextModel* model, QObject* parent)
    : QStyledItemDelegate(parent), model_(model), font_(QStringLiteral("monospace")) {
  font_.setStyleHint(QFont::Monospace);
}

int IrLineDelegate::GutterWidth(const QFontMetrics& metrics) const {
  return metrics.horizontalAdvance(QStringLiteral("000000 ~ "));
}

QSize IrLineDelegate::sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const {
  // One size for every row (the view asks once): wide enough for the longest line.
  const QFontMetrics metrics(font_);
  const int width = GutterWidth(metrics) +
                    metrics.horizontalAdvance(QLatin1Char('m')) * (model_->max_line_length() + 2);
  return QSize(width, metrics.height() + 2);
}

void IrLineDelegate::PaintGutter(QPainter* painter, const QRect& rect, const QModelIndex& index,
                                 const QPalette& palette) const {
  const auto status = static_cast<ir::DiffStatus>(index.data(IrTextModel::kStatusRole).toInt());
  const bool before =
      index.data(IrTextModel::kSideRole).toInt() == static_cast<int>(GraphSide::kBefore);
  const QString number = QString::number(index.data(IrTextModel::kLineNumberRole).toInt());
  const QFontMetrics metrics(font_);
  QRect gutter = rect;
  gutter.setWidth(GutterWidth(metrics));
  painter->fillRect(gutter, palette.color(QPalette::AlternateBase));
  painter->setPen(palette.color(QPalette::PlaceholderText));
  painter->drawText(gutter.adjusted(0, 0, -metrics.horizontalAdvance(QStringLiteral(" ~ ")), 0),
                    Qt::AlignRight | Qt::AlignVCenter, number);
  const QColor stroke = DiffColors::Stroke(status);
  if (stroke.isValid()) painter->setPen(stroke);
  painter->drawText(gutter.adjusted(0, 0, -metrics.horizontalAdvance(QLatin1Char(' ')), 0),
                    Qt::AlignRight | Qt::AlignVCenter, QString(Marker(status, before)));
}

void IrLineDelegate::PaintText(QPainter* painter, const QRect& rect, const QString& text,
                               const QPalette& palette) const {
  const QFontMetrics metrics(font_);
  int x = rect.left();
  const int baseline = rect.top() + (rect.height() + metrics.ascent() - metrics.descent()) / 2;
  // The row is as wide as the longest line; stop at the right edge of what is on screen.
  const int visible_right = painter->device() ? painter->device()->width() : rect.right();
  for (const HloSyntax::Token& token : HloSyntax::Tokenize(text)) {
    if (x > visible_right) break;
    const QString piece = text.mid(token.start, token.length);
    painter->setPen(HloSyntax::Color(token.kind, palette));
    painter->drawText(x, baseline, piece);
    x += metrics.horizontalAdvance(piece);
  }
}

void IrLineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                           const QModelIndex& index) const {
  painter->save();
  painter->setFont(font_);
  const QPalette& palette = option.palette;
  const auto status = static_cast<ir::DiffStatus>(index.data(IrTextModel::kStatusRole).toInt());
  painter->fillRect(option.rect, DiffColors::Tint(status));
  if (option.state & QStyle::State_Selected) {
    QColor highlight = palette.color(QPalette::Highlight);
    highlight.setAlpha(90);
    painter->fillRect(option.rect, highlight);
  }
  PaintGutter(painter, option.rect, index, palette);
  QRect text_rect = option.rect;
  text_rect.setLeft(option.rect.left() + GutterWidth(QFontMetrics(font_)) + 4);
  PaintText(painter, text_rect, index.data(Qt::DisplayRole).toString(), palette);
  painter->restore();
}

}  // namespace fusescope::views
