#ifndef FUSESCOPE_VIEWS_QT_PASS_VIEW_H_
#define FUSESCOPE_VIEWS_QT_PASS_VIEW_H_

// Everything the panels show about one pass of a recording: the modules before and after it
// (rebuilt from the snapshots), their graph diff, which instruction stands for which across
// the pass, and the lines of the pass's text diff. Built once on a worker thread, then
// shared read-only with the GUI thread.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph_diff.h"
#include "ir/module.h"
#include "recording/operation_counts.h"
#include "recording/recording.h"
#include "views/qt/selection.h"

namespace fusescope::views {

// One line of the IR text: a computation header or footer, or one instruction.
struct IrLine {
  std::string text;
  int64_t instruction_id = -1;  // -1 for headers, footers and blank lines
  GraphSide side = GraphSide::kAfter;
  ir::DiffStatus status = ir::DiffStatus::kUnchanged;
};

class PassView {
 public:
  // `pass_index` in [0, passes.size()); with a recording of no passes, -1 shows the input
  // on both sides. Runs on a worker thread; never fails: a snapshot that does not rebuild
  // (a broken pass) leaves its side empty and says why in error().
  static std::shared_ptr<const PassView> Build(
      std::shared_ptr<const recording::Recording> recording, int64_t pass_index);

  PassView(const PassView&) = delete;
  PassView& operator=(const PassView&) = delete;

  const recording::Recording& recording() const { return *recording_; }
  const std::shared_ptr<const recording::Recording>& shared_recording() const { return recording_; }
  int64_t pass_index() const { return pass_index_; }
  // Null when there is no pass (a recording of only the input).
  const recording::PassRecord* pass() const;
  const recording::Snapshot& snapshot(GraphSide side) const;
  // Null when the snapshot did not rebuild.
  const ir::Module* module(GraphSide side) const;
  const ir::GraphDiff* diff() const { return diff_.get(); }
  const std::string& error() const { return error_; }
  // Operations, fusions and the instructions they hold on one side.
  const recording::OperationCounts& counts(GraphSide side) const;
  // "131 → 40 operations, 17 fusions holding 98 instructions".
  std::string DescribeCounts() const;

  const ir::Instruction* Find(GraphSide side, int64_t id) const;
  // Diff status of an instruction as seen from its side.
  ir::DiffStatus Status(GraphSide side, int64_t id) const;
  // The instructions on the other side that stand for `id`: its counterpart, the fusion it
  // went into, its replacement; or, from the after side, everything a fusion absorbed.
  const std::vector<int64_t>& Counterparts(GraphSide side, int64_t id) const;

  // The pass's text diff: the after module with removed instructions interleaved where
  // they were. For a recording that keeps the compiler's own text (an MLIR log), the lines
  // are that text's, diffed line by line, and link to no instruction.
  const std::vector<IrLine>& diff_lines() const { return diff_lines_; }
  // "mlir" when the lines are the compiler's own text; empty when they are our HLO text.
  const std::string& source_language() const { return source_language_; }
  // One side alone.
  const std::vector<IrLine>& lines(GraphSide side) const;

 private:
  PassView() = default;
  void RebuildModules();
  void IndexModules();
  void ComputeDiff();
  void LinkCounterparts();
  void BuildLines();
  bool BuildSourceLines();

  std::shared_ptr<const recording::Recording> recording_;
  int64_t pass_index_ = -1;
  const recording::Snapshot* snapshots_[2] = {nullptr, nullptr};
  recording::OperationCounts counts_[2];
  std::unique_ptr<ir::Module> modules_[2];
  std::unordered_map<int64_t, const ir::Instruction*> by_id_[2];
  std::unique_ptr<ir::GraphDiff> diff_;
  std::unordered_map<int64_t, std::vector<int64_t>> counterparts_[2];
  std::vector<IrLine> diff_lines_;
  std::vector<IrLine> side_lines_[2];
  std::string source_language_;
  std::string error_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_PASS_VIEW_H_
