#include "views/qt/text/ir_line_builder.h"

#include <unordered_map>

namespace fusescope::views {
namespace {

using recording::ComputationSnapshot;
using recording::ComputationSnapshotPtr;
using recording::InstructionRecordPtr;

// Items of `before` missing from `after`, grouped under the index (into `after`) of the
// nearest preceding item that is in both; index -1 collects those with no such item.
template <typename T, typename KeyOf>
std::unordered_map<int64_t, std::vector<const T*>> AnchorRemoved(const std::vector<T>& before,
                                                                 const std::vector<T>& after,
                                                                 KeyOf key_of) {
  using Key = decltype(key_of(before.front()));
  std::unordered_map<Key, int64_t> after_index;
  for (size_t i = 0; i < after.size(); ++i) after_index.emplace(key_of(after[i]), i);
  std::unordered_map<int64_t, std::vector<const T*>> anchored;
  int64_t anchor = -1;
  for (const T& item : before) {
    auto found = after_index.find(key_of(item));
    if (found != after_index.end()) {
      anchor = found->second;
    } else {
      anchored[anchor].push_back(&item);
    }
  }
  return anchored;
}

std::string_view ComputationKey(const ComputationSnapshotPtr& computation) {
  return computation->name;
}

int64_t InstructionKey(const InstructionRecordPtr& record) { return record->id; }

}  // namespace

IrLineBuilder::IrLineBuilder(const recording::Snapshot& before, const recording::Snapshot& after,
                             StatusOf before_status, StatusOf after_status)
    : before_(before),
      after_(after),
      before_status_(std::move(before_status)),
      after_status_(std::move(after_status)) {}

std::string IrLineBuilder::StripIdMarker(std::string_view line) {
  size_t at = line.find("/*id=");
  if (at == std::string_view::npos) return std::string(line);
  size_t end = line.find("*/", at);
  if (end == std::string_view::npos) return std::string(line);
  end += 2;
  // The marker sits between the name and " = "; drop one of the two spaces around it.
  if (at > 0 && line[at - 1] == ' ' && end < line.size() && line[end] == ' ') ++end;
  std::string stripped(line.substr(0, at));
  stripped.append(line.substr(end));
  return stripped;
}

const recording::Snapshot& IrLineBuilder::snapshot(GraphSide side) const {
  return side == GraphSide::kBefore ? before_ : after_;
}

const IrLineBuilder::StatusOf& IrLineBuilder::status_of(GraphSide side) const {
  return side == GraphSide::kBefore ? before_status_ : after_status_;
}

void IrLineBuilder::AppendText(std::string_view text, GraphSide side, ir::DiffStatus status,
                               std::vector<IrLine>& out) const {
  size_t start = 0;
  while (start < text.size()) {
    size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) newline = text.size();
    out.push_back({std::string(text.substr(start, newline - start)), -1, side, status});
    start = newline + 1;
  }
}

void IrLineBuilder::AppendComputation(const ComputationSnapshot& computation, GraphSide side,
                                      ir::DiffStatus text_status, std::vector<IrLine>& out) const {
  AppendText(computation.header, side, text_status, out);
  for (const InstructionRecordPtr& record : computation.instructions) {
    out.push_back({StripIdMarker(record->text), record->id, side, status_of(side)(record->id)});
  }
  AppendText(computation.footer, side, text_status, out);
}

std::vector<IrLine> IrLineBuilder::Side(GraphSide side) const {
  std::vector<IrLine> out;
  const recording::Snapshot& shot = snapshot(side);
  AppendText(shot.prologue(), side, ir::DiffStatus::kUnchanged, out);
  for (const ComputationSnapshotPtr& computation : shot.computations()) {
    AppendComputation(*computation, side, ir::DiffStatus::kUnchanged, out);
  }
  return out;
}

void IrLineBuilder::AppendMergedComputation(const ComputationSnapshot* before,
                                            const ComputationSnapshot& after,
                                            std::vector<IrLine>& out) const {
  if (!before) {
    AppendComputation(after, GraphSide::kAfter, ir::DiffStatus::kAdded, out);
    return;
  }
  auto removed = AnchorRemoved(before->instructions, after.instructions, InstructionKey);
  auto append_removed = [&](int64_t anchor) {
    auto found = removed.find(anchor);
    if (found == removed.end()) return;
    for (const InstructionRecordPtr* record : found->second) {
      int64_t id = (*record)->id;
      out.push_back({StripIdMarker((*record)->text), id, GraphSide::kBefore, before_status_(id)});
    }
  };
  AppendText(after.header, GraphSide::kAfter, ir::DiffStatus::kUnchanged, out);
  append_removed(-1);
  for (size_t i = 0; i < after.instructions.size(); ++i) {
    int64_t id = after.instructions[i]->id;
    out.push_back(
        {StripIdMarker(after.instructions[i]->text), id, GraphSide::kAfter, after_status_(id)});
    append_removed(static_cast<int64_t>(i));
  }
  AppendText(after.footer, GraphSide::kAfter, ir::DiffStatus::kUnchanged, out);
}

std::vector<IrLine> IrLineBuilder::Merged() const {
  std::vector<IrLine> out;
  AppendText(after_.prologue(), GraphSide::kAfter, ir::DiffStatus::kUnchanged, out);
  const auto& before = before_.computations();
  const auto& after = after_.computations();
  auto removed = AnchorRemoved(before, after, ComputationKey);
  auto append_removed = [&](int64_t anchor) {
    auto found = removed.find(anchor);
    if (found == removed.end()) return;
    for (const ComputationSnapshotPtr* computation : found->second) {
      AppendComputation(**computation, GraphSide::kBefore, ir::DiffStatus::kRemoved, out);
    }
  };
  std::unordered_map<std::string_view, const ComputationSnapshot*> before_by_name;
  for (const ComputationSnapshotPtr& computation : before) {
    before_by_name.emplace(computation->name, computation.get());
  }
  append_removed(-1);
  for (size_t i = 0; i < after.size(); ++i) {
    auto found = before_by_name.find(after[i]->name);
    const ComputationSnapshot* counterpart =
        found == before_by_name.end() ? nullptr : found->second;
    AppendMergedComputation(counterpart, *after[i], out);
    append_removed(static_cast<int64_t>(i));
  }
  return out;
}

}  // namespace fusescope::views
