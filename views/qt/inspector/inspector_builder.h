#ifndef FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_BUILDER_H_
#define FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_BUILDER_H_

// Gathers everything known about one instruction of one pass: identity and diff status,
// shape and layout, operands and users, attributes, metadata and source position,
// provenance (the original instructions it came from), its history across the recorded
// passes, its counterparts across this pass, and the fusion decisions that involve it.

#include "views/qt/inspector/inspector_content.h"
#include "views/qt/pass_view.h"

namespace fusescope::views {

class InspectorBuilder {
 public:
  InspectorBuilder(const PassView& view, GraphSide side, int64_t instruction_id);

  // Empty content when the instruction is not in that side's module.
  InspectorContent Build() const;

  // Most rows a list section shows; the rest is counted in a last row.
  static constexpr size_t kMaxListRows = 64;

 private:
  InspectorSection Identity() const;
  InspectorSection ShapeSection() const;
  InspectorSection Neighbours(bool operands) const;
  InspectorSection Attributes() const;
  InspectorSection Metadata() const;
  InspectorSection Provenance() const;
  InspectorSection History() const;
  InspectorSection Counterparts() const;
  InspectorSection Decisions() const;
  std::string SideLabel() const;

  const PassView& view_;
  GraphSide side_;
  const ir::Instruction* instruction_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_BUILDER_H_
