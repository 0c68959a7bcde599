#include "views/diff_palette.h"

namespace fusescope::views {

DiffPalette DiffPalette::For(ir::DiffStatus status) {
  std::string_view name = ir::DiffStatusName(status);
  switch (status) {
    case ir::DiffStatus::kUnchanged:
      return {"#f3f3f3", "#7a7a7a", name};
    case ir::DiffStatus::kChanged:
      return {"#ffe8a8", "#c58a00", name};
    case ir::DiffStatus::kAdded:
      return {"#d3f2d3", "#2e8b3a", name};
    case ir::DiffStatus::kRemoved:
      return {"#f9d0d0", "#c62828", name};
    case ir::DiffStatus::kFused:
      return {"#d8e6ff", "#2f5fbf", name};
    case ir::DiffStatus::kReplaced:
      return {"#e8d9f7", "#7b3fb3", name};
  }
  return {"#f3f3f3", "#7a7a7a", name};
}

}  // namespace fusescope::views
