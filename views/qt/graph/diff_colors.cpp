#include "views/qt/graph/diff_colors.h"

#include "views/diff_palette.h"

namespace fusescope::views {

QColor DiffColors::Stroke(ir::DiffStatus status) {
  if (status == ir::DiffStatus::kUnchanged) return QColor();
  // The palette the SVG writer and the HTML report use, so a status looks the same there.
  const std::string_view stroke = DiffPalette::For(status).stroke;
  return QColor(QLatin1String(stroke.data(), static_cast<qsizetype>(stroke.size())));
}

QColor DiffColors::Tint(ir::DiffStatus status) {
  QColor color = Stroke(status);
  if (!color.isValid()) return QColor(Qt::transparent);
  color.setAlpha(56);
  return color;
}

QColor DiffColors::Accepted() { return Stroke(ir::DiffStatus::kAdded); }
QColor DiffColors::Refused() { return Stroke(ir::DiffStatus::kRemoved); }
QColor DiffColors::Selection() { return QColor(0x1e, 0x88, 0xe5); }
QColor DiffColors::Counterpart() { return QColor(0xe6, 0x7e, 0x22); }

QString DiffColors::Label(ir::DiffStatus status) {
  switch (status) {
    case ir::DiffStatus::kUnchanged:
      return QStringLiteral("unchanged");
    case ir::DiffStatus::kChanged:
      return QStringLiteral("changed");
    case ir::DiffStatus::kAdded:
      return QStringLiteral("added");
    case ir::DiffStatus::kRemoved:
      return QStringLiteral("removed");
    case ir::DiffStatus::kFused:
      return QStringLiteral("fused");
    case ir::DiffStatus::kReplaced:
      return QStringLiteral("replaced");
  }
  return QString();
}

}  // namespace fusescope::views
