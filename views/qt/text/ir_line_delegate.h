#ifndef FUSESCOPE_VIEWS_QT_IR_LINE_DELEGATE_H_
#define FUSESCOPE_VIEWS_QT_IR_LINE_DELEGATE_H_

// Paints one line of IR text: a gutter with the line number and a diff marker (+, -, ~, »),
// a background tinted by diff status, and the text coloured by HloSyntax. Only visible
// lines are ever tokenized.

#include <QStyledItemDelegate>

namespace fusescope::views {

class IrTextModel;

class IrLineDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  IrLineDelegate(const IrTextModel* model, QObject* parent = nullptr);

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  void SetFont(const QFont& font) { font_ = font; }
  int GutterWidth(const QFontMetrics& metrics) const;

 private:
  void PaintGutter(QPainter* painter, const QRect& rect, const QModelIndex& index,
                   const QPalette& palette) const;
  void PaintText(QPainter* painter, const QRect& rect, const QString& text,
                 const QPalette& palette) const;

  const IrTextModel* model_;
  QFont font_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_IR_LINE_DELEGATE_H_
