#ifndef FUSESCOPE_VIEWS_DIFF_PALETTE_H_
#define FUSESCOPE_VIEWS_DIFF_PALETTE_H_

// The colours of diff statuses, shared by the SVG writer, the HTML report and the GUI so a
// status looks the same everywhere: removed red, added green, changed amber, fused blue,
// replaced violet, unchanged neutral. "#rrggbb" strings.

#include <string_view>

#include "ir/graph_diff.h"

namespace fusescope::views {

struct DiffPalette {
  std::string_view fill;
  std::string_view stroke;
  std::string_view name;  // "added", also the CSS class suffix: "diff-added"

  static DiffPalette For(ir::DiffStatus status);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_DIFF_PALETTE_H_
