#ifndef FUSESCOPE_VIEWS_QT_TEXT_IR_LINE_BUILDER_H_
#define FUSESCOPE_VIEWS_QT_TEXT_IR_LINE_BUILDER_H_

// Cuts snapshots into the lines of the IR text view, and merges the two snapshots of a pass
// into one text diff. Linear in the number of lines: removed instructions are placed after
// the nearest preceding instruction that survived, which is where a reader looks for them.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph_diff.h"
#include "recording/snapshot.h"
#include "views/qt/pass_view.h"

namespace fusescope::views {

class IrLineBuilder {
 public:
  using StatusOf = std::function<ir::DiffStatus(int64_t id)>;

  IrLineBuilder(const recording::Snapshot& before, const recording::Snapshot& after,
                StatusOf before_status, StatusOf after_status);

  std::vector<IrLine> Side(GraphSide side) const;
  std::vector<IrLine> Merged() const;

  // The printed line without the `/*id=N*/` marker the snapshot keeps after the name.
  static std::string StripIdMarker(std::string_view line);

 private:
  const recording::Snapshot& snapshot(GraphSide side) const;
  const StatusOf& status_of(GraphSide side) const;
  void AppendComputation(const recording::ComputationSnapshot& computation, GraphSide side,
                         ir::DiffStatus text_status, std::vector<IrLine>& out) const;
  void AppendText(std::string_view text, GraphSide side, ir::DiffStatus status,
                  std::vector<IrLine>& out) const;
  void AppendMergedComputation(const recording::ComputationSnapshot* before,
                               const recording::ComputationSnapshot& after,
                               std::vector<IrLine>& out) const;

  const recording::Snapshot& before_;
  const recording::Snapshot& after_;
  StatusOf before_status_;
  StatusOf after_status_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TEXT_IR_LINE_BUILDER_H_
