#include "views/qt/pass_view.h"

#include <algorithm>

#include "views/line_diff.h"
#include "views/qt/text/ir_line_builder.h"

namespace fusescope::views {
namespace {

size_t SideIndex(GraphSide side) { return side == GraphSide::kBefore ? 0 : 1; }

void AddUnique(std::vector<int64_t>& ids, int64_t id) {
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
}

}  // namespace

std::shared_ptr<const PassView> PassView::Build(
    std::shared_ptr<const recording::Recording> recording, int64_t pass_index) {
  std::shared_ptr<PassView> view(new PassView());
  view->recording_ = std::move(recording);
  const recording::Recording& rec = *view->recording_;
  if (rec.passes.empty() || pass_index < 0) pass_index = rec.passes.empty() ? -1 : 0;
  pass_index = std::min<int64_t>(pass_index, static_cast<int64_t>(rec.passes.size()) - 1);
  view->pass_index_ = pass_index;
  if (rec.snapshots.empty()) {
    view->error_ = "the recording holds no snapshot";
    return view;
  }
  const recording::Snapshot* before =
      pass_index < 0 ? &rec.input() : rec.SnapshotBefore(pass_index);
  const recording::Snapshot* after = pass_index < 0 ? &rec.input() : rec.SnapshotAfter(pass_index);
  view->snapshots_[0] = before ? before : &rec.input();
  view->snapshots_[1] = after ? after : view->snapshots_[0];
  for (size_t i = 0; i < 2; ++i)
    view->counts_[i] = recording::CountOperations(*view->snapshots_[i]);
  view->RebuildModules();
  view->IndexModules();
  view->ComputeDiff();
  view->LinkCounterparts();
  view->BuildLines();
  return view;
}

const recording::PassRecord* PassView::pass() const {
  if (pass_index_ < 0) return nullptr;
  return &recording_->passes[static_cast<size_t>(pass_index_)];
}

const recording::Snapshot& PassView::snapshot(GraphSide side) const {
  return *snapshots_[SideIndex(side)];
}

const recording::OperationCounts& PassView::counts(GraphSide side) const {
  return counts_[SideIndex(side)];
}

std::string PassView::DescribeCounts() const {
  return recording::DescribeCounts(counts_[0], counts_[1]);
}

const ir::Module* PassView::module(GraphSide side) const { return modules_[SideIndex(side)].get(); }

void PassView::RebuildModules() {
  for (size_t i = 0; i < 2; ++i) {
    StatusOr<std::unique_ptr<ir::Module>> module = snapshots_[i]->ToModule();
    if (module.ok()) {
      modules_[i] = std::move(module).value();
    } else if (error_.empty()) {
      error_ = module.message();
    }
  }
}

void PassView::IndexModules() {
  for (size_t i = 0; i < 2; ++i) {
    if (!modules_[i]) continue;
    for (const auto& computation : modules_[i]->computations()) {
      for (const auto& instruction : computation->instructions()) {
        by_id_[i].emplace(instruction->id(), instruction.get());
      }
    }
  }
}

void PassView::ComputeDiff() {
  if (!modules_[0] || !modules_[1]) return;
  diff_ = std::make_unique<ir::GraphDiff>(ir::GraphDiff::Compute(*modules_[0], *modules_[1]));
}

void PassView::LinkCounterparts() {
  if (!diff_) return;
  for (const ir::InstructionDiff& entry : diff_->entries()) {
    if (!entry.left) continue;
    for (const ir::Instruction* right : {entry.right, entry.target}) {
      if (!right) continue;
      AddUnique(counterparts_[0][entry.left->id()], right->id());
      AddUnique(counterparts_[1][right->id()], entry.left->id());
    }
  }
}

bool PassView::BuildSourceLines() {
  const recording::Recording& rec = *recording_;
  if (rec.sources.size() != rec.snapshots.size()) return false;
  std::string texts[2];
  for (size_t i = 0; i < 2; ++i) {
    const auto index = static_cast<size_t>(snapshots_[i] - rec.snapshots.data());
    std::optional<std::string> text = recording::FullSourceText(rec.sources, index);
    if (!text) return false;
    texts[i] = std::move(*text);
  }
  source_language_ =
      rec.sources[static_cast<size_t>(snapshots_[1] - rec.snapshots.data())].language;
  for (size_t i = 0; i < 2; ++i) {
    const GraphSide side = i == 0 ? GraphSide::kBefore : GraphSide::kAfter;
    for (std::string_view line : SplitLines(texts[i]))
      side_lines_[i].push_back({std::string(line), -1, side, ir::DiffStatus::kUnchanged});
  }
  // MLIR prints a function alone after a function pass and inside its module after a module
  // pass, indented anew: indentation alone is no change.
  DiffOptions options;
  options.ignore_indentation = true;
  for (const DiffLine& line : DiffTexts(texts[0], texts[1], options)) {
    IrLine out{std::string(line.text), -1, GraphSide::kAfter, ir::DiffStatus::kUnchanged};
    if (line.change == LineChange::kRemoved) {
      out.side = GraphSide::kBefore;
      out.status = ir::DiffStatus::kRemoved;
    } else if (line.change == LineChange::kAdded) {
      out.status = ir::DiffStatus::kAdded;
    }
    diff_lines_.push_back(std::move(out));
  }
  return true;
}

void PassView::BuildLines() {
  if (BuildSourceLines()) return;
  auto status_of = [this](GraphSide side) {
    return [this, side](int64_t id) { return Status(side, id); };
  };
  IrLineBuilder builder(*snapshots_[0], *snapshots_[1], status_of(GraphSide::kBefore),
                        status_of(GraphSide::kAfter));
  side_lines_[0] = builder.Side(GraphSide::kBefore);
  side_lines_[1] = builder.Side(GraphSide::kAfter);
  diff_lines_ = builder.Merged();
}

const ir::Instruction* PassView::Find(GraphSide side, int64_t id) const {
  const auto& index = by_id_[SideIndex(side)];
  auto found = index.find(id);
  return found == index.end() ? nullptr : found->second;
}

ir::DiffStatus PassView::Status(GraphSide side, int64_t id) const {
  const ir::Instruction* instruction = Find(side, id);
  if (!diff_ || !instruction) return ir::DiffStatus::kUnchanged;
  return side == GraphSide::kBefore ? diff_->LeftStatus(instruction)
                                    : diff_->RightStatus(instruction);
}

const std::vector<int64_t>& PassView::Counterparts(GraphSide side, int64_t id) const {
  static const std::vector<int64_t> kNone;
  const auto& links = counterparts_[SideIndex(side)];
  auto found = links.find(id);
  return found == links.end() ? kNone : found->second;
}

const std::vector<IrLine>& PassView::lines(GraphSide side) const {
  return side_lines_[SideIndex(side)];
}

}  // namespace fusescope::views
