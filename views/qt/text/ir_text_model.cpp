#include "views/qt/text/ir_text_model.h"

#include <algorithm>

#include "views/qt/workers/off_thread_release.h"

namespace fusescope::views {
namespace {

size_t SideIndex(GraphSide side) { return side == GraphSide::kBefore ? 0 : 1; }

}  // namespace

IrTextModel::IrTextModel(QObject* parent) : QAbstractListModel(parent) {}

void IrTextModel::setData(std::shared_ptr<const PassView> view) {
  beginResetModel();
  ReleaseOffThread(view_);
  view_ = std::move(view);
  Rebuild();
  endResetModel();
}

void IrTextModel::SetMode(Mode mode) {
  if (mode == mode_) return;
  beginResetModel();
  mode_ = mode;
  Rebuild();
  endResetModel();
}

void IrTextModel::SetChangesOnly(bool changes_only) {
  if (changes_only == changes_only_) return;
  beginResetModel();
  changes_only_ = changes_only;
  Rebuild();
  endResetModel();
}

const std::vector<IrLine>* IrTextModel::Source() const {
  if (!view_) return nullptr;
  switch (mode_) {
    case Mode::kDiff:
      return &view_->diff_lines();
    case Mode::kBefore:
      return &view_->lines(GraphSide::kBefore);
    case Mode::kAfter:
      return &view_->lines(GraphSide::kAfter);
  }
  return nullptr;
}

void IrTextModel::Rebuild() {
  rows_.clear();
  row_of_[0].clear();
  row_of_[1].clear();
  max_length_ = 0;
  const std::vector<IrLine>* lines = Source();
  if (!lines) return;
  rows_.reserve(lines->size());
  for (size_t i = 0; i < lines->size(); ++i) {
    const IrLine& line = (*lines)[i];
    // Changes only: keep differing instructions and the headers that say where they are.
    if (changes_only_ && line.status == ir::DiffStatus::kUnchanged && line.instruction_id >= 0)
      continue;
    if (line.instruction_id >= 0) {
      row_of_[SideIndex(line.side)].emplace(line.instruction_id, static_cast<int>(rows_.size()));
    }
    max_length_ = std::max(max_length_, static_cast<int>(line.text.size()));
    rows_.push_back(static_cast<int>(i));
  }
}

int IrTextModel::RowOf(int64_t instruction_id, GraphSide side) const {
  for (GraphSide which :
       {side, side == GraphSide::kBefore ? GraphSide::kAfter : GraphSide::kBefore}) {
    const auto& index = row_of_[SideIndex(which)];
    auto found = index.find(instruction_id);
    if (found != index.end()) return found->second;
  }
  return -1;
}

const IrLine* IrTextModel::Line(int row) const {
  const std::vector<IrLine>* lines = Source();
  if (!lines || row < 0 || row >= static_cast<int>(rows_.size())) return nullptr;
  return &(*lines)[static_cast<size_t>(rows_[static_cast<size_t>(row)])];
}

int IrTextModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

QVariant IrTextModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const IrLine* line = Line(index.row());
  switch (role) {
    case Qt::DisplayRole:
      return QString::fromStdString(line->text);
    case kInstructionIdRole:
      return static_cast<qlonglong>(line->instruction_id);
    case kSideRole:
      return static_cast<int>(line->side);
    case kStatusRole:
      return static_cast<int>(line->status);
    case kLineNumberRole:
      return rows_[static_cast<size_t>(index.row())] + 1;
  }
  return {};
}

}  // namespace fusescope::views
