#ifndef FUSESCOPE_VIEWS_QT_KERNEL_STAGE_MODEL_H_
#define FUSESCOPE_VIEWS_QT_KERNEL_STAGE_MODEL_H_

// The lowering stages of one kernel as a table, like the pass timeline: each stage with its
// lines and the lines it changed against the stage before (changed stages bold and tinted).
// A kernel whose lowering failed ends with a row for the stage that failed, in red.

#include <QAbstractTableModel>
#include <memory>

#include "views/kernel_timeline.h"

namespace fusescope::views {

class KernelStageModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kIndex, kStage, kLines, kChange, kColumnCount };
  enum Role { kChangedRole = Qt::UserRole + 1, kFailedRole };

  explicit KernelStageModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const KernelTimeline> timeline);
  const KernelTimeline* timeline() const { return timeline_.get(); }
  // The row of the stage that failed, or -1.
  int failed_row() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QVariant DisplayData(int row, int column) const;
  QVariant ToolTip(int row) const;

  std::shared_ptr<const KernelTimeline> timeline_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_KERNEL_STAGE_MODEL_H_
