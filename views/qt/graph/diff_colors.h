#ifndef FUSESCOPE_VIEWS_QT_DIFF_COLORS_H_
#define FUSESCOPE_VIEWS_QT_DIFF_COLORS_H_

// The workbench's colour language, shared by graphs, text and tables: removed red, added
// green, changed amber, fused blue, taken from views::DiffPalette so that the GUI, the SVG
// files and the HTML report agree. Tints are translucent so they read on light and dark
// palettes alike.

#include <QColor>
#include <QString>

#include "ir/graph_diff.h"

namespace fusescope::views {

class DiffColors {
 public:
  // Strong colour for outlines, markers and text; invalid for unchanged.
  static QColor Stroke(ir::DiffStatus status);
  // Translucent fill for backgrounds; transparent for unchanged.
  static QColor Tint(ir::DiffStatus status);
  static QColor Accepted();
  static QColor Refused();
  static QColor Selection();
  static QColor Counterpart();
  // "changed", "fused into fusion.3", ... for tooltips and the inspector.
  static QString Label(ir::DiffStatus status);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_DIFF_COLORS_H_
