#include "views/qt/kernel/kernel_stage_model.h"

#include <QFont>

#include "views/qt/graph/diff_colors.h"

namespace fusescope::views {
namespace {

QString Text(const std::string& text) { return QString::fromStdString(text); }

}  // namespace

KernelStageModel::KernelStageModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelStageModel::setData(std::shared_ptr<const KernelTimeline> timeline) {
  beginResetModel();
  timeline_ = std::move(timeline);
  endResetModel();
}

int KernelStageModel::failed_row() const {
  if (!timeline_ || timeline_->kernel().failed_stage.empty()) return -1;
  return static_cast<int>(timeline_->stages().size());
}

int KernelStageModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !timeline_) return 0;
  return static_cast<int>(timeline_->stages().size()) + (failed_row() >= 0 ? 1 : 0);
}

int KernelStageModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant KernelStageModel::DisplayData(int row, int column) const {
  if (row == failed_row()) {
    switch (column) {
      case kIndex:
        return row;
      case kStage:
        return Text(timeline_->kernel().failed_stage);
      case kChange:
        return tr("failed");
    }
    return {};
  }
  const KernelTimelineStage& stage = timeline_->stages()[static_cast<size_t>(row)];
  switch (column) {
    case kIndex:
      return row;
    case kStage:
      return Text(stage.name);
    case kLines:
      return static_cast<qlonglong>(stage.lines);
    case kChange:
      if (row == 0) return tr("first");
      if (!stage.changed) return tr("no change");
      return QStringLiteral("+%1 −%2").arg(stage.counts.added).arg(stage.counts.removed);
  }
  return {};
}

QVariant KernelStageModel::ToolTip(int row) const {
  const recording::KernelRecord& kernel = timeline_->kernel();
  if (row == failed_row()) {
    return tr("<b>%1</b> failed:<br>%2")
        .arg(Text(kernel.failed_stage).toHtmlEscaped(), Text(kernel.error).toHtmlEscaped());
  }
  const KernelTimelineStage& stage = timeline_->stages()[static_cast<size_t>(row)];
  if (row == 0)
    return tr("<b>%1</b>: %2 lines, as first emitted").arg(Text(stage.name)).arg(stage.lines);
  const QString before = Text(timeline_->stages()[static_cast<size_t>(row) - 1].name);
  if (!stage.changed) return tr("<b>%1</b> changed nothing after %2").arg(Text(stage.name), before);
  return tr("<b>%1</b>: %2 lines; against %3, %4 added and %5 removed")
      .arg(Text(stage.name))
      .arg(stage.lines)
      .arg(before)
      .arg(stage.counts.added)
      .arg(stage.counts.removed);
}

QVariant KernelStageModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
      !timeline_)
    return {};
  const int row = index.row();
  const bool failed = row == failed_row();
  const bool changed = !failed && timeline_->stages()[static_cast<size_t>(row)].changed;
  switch (role) {
    case Qt::DisplayRole:
      return DisplayData(row, index.column());
    case Qt::ToolTipRole:
      return ToolTip(row);
    case Qt::BackgroundRole:
      if (failed) return DiffColors::Tint(ir::DiffStatus::kRemoved);
      return changed && row > 0 ? QVariant(DiffColors::Tint(ir::DiffStatus::kChanged)) : QVariant();
    case Qt::ForegroundRole:
      if (failed) return DiffColors::Stroke(ir::DiffStatus::kRemoved);
      return changed ? QVariant() : QVariant(QColor(Qt::gray));
    case Qt::FontRole: {
      if (!changed && !failed) return {};
      QFont font;
      font.setBold(true);
      return font;
    }
    case Qt::TextAlignmentRole:
      return index.column() == kStage ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case kChangedRole:
      return changed;
    case kFailedRole:
      return failed;
  }
  return {};
}

QVariant KernelStageModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kIndex:
      return QStringLiteral("#");
    case kStage:
      return tr("Stage");
    case kLines:
      return tr("Lines");
    case kChange:
      return tr("Changed");
  }
  return {};
}

}  // namespace fusescope::views
