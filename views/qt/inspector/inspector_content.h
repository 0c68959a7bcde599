#ifndef FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_CONTENT_H_
#define FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_CONTENT_H_

// What the inspector shows about the selected instruction, as plain data: sections of
// key/value rows, some of which link to another instruction or to a fusion decision.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph_diff.h"
#include "views/qt/selection.h"

namespace fusescope::views {

struct InspectorRow {
  std::string key;
  std::string value;
  int64_t link_id = -1;  // an instruction to select on activation
  GraphSide link_side = GraphSide::kAfter;
  int64_t decision_index = -1;  // a fusion decision to focus on activation
  bool refused = false;         // a refused decision: shown in the refusal colour
};

struct InspectorSection {
  std::string title;
  std::vector<InspectorRow> rows;
};

struct InspectorContent {
  std::string heading;     // "fusion.3"
  std::string subheading;  // "fusion f32[32,256]{1,0} — after pass 12 fusion"
  ir::DiffStatus status = ir::DiffStatus::kUnchanged;
  std::vector<InspectorSection> sections;

  bool empty() const { return heading.empty(); }
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_CONTENT_H_
