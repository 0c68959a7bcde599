#include "views/qt/diff_colors.h"

namespace fusescope::views {

QColor DiffColors::Stroke(ir::DiffStatus status) {
  switch (status) {
    case ir::DiffStatus::kUnchanged:
      return QColor();
    case ir::DiffStatus::kChanged:
      return QColor(0xd9, 0x8e, 0x04);
    case ir::DiffStatus::kAdded:
      return QColor(0x2e, 0x9d, 0x4f);
    case ir::DiffStatus::kRemoved:
      return QColor(0xd0, 0x43, 0x3a);
    case ir::DiffStatus::kFused:
      return QColor(0x3b, 0x7d, 0xd8);
    case ir::DiffStatus::kReplaced:
      return QColor(0xa3, 0x5c, 0xc9);
  }
  return QColor();
}

QColor DiffColors::Tint(ir::DiffStatus status) {
  QColor color = Stroke(status);
  if (!color.isValid()) return QColor(Qt::transparent);
  color.setAlpha(56);
  return color;
}

QColor DiffColors::Accepted() { return QColor(0x2e, 0x9d, 0x4f); }
QColor DiffColors::Refused() { return QColor(0xd0, 0x43, 0x3a); }
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
