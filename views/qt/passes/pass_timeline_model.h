#ifndef FUSESCOPE_VIEWS_QT_PASS_TIMELINE_MODEL_H_
#define FUSESCOPE_VIEWS_QT_PASS_TIMELINE_MODEL_H_

// One row per pass of a recording: what it did to the module and how long it took. Sizes are
// recording::OperationCounts: the change in operations (instructions outside fusions) and
// what the fusions hold afterwards, so that a fusion pass reads as the reduction it is.
// Passes that changed the module are bold and tinted; a failed pass is red.

#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "recording/operation_counts.h"
#include "recording/recording.h"

namespace fusescope::views {

class PassTimelineModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kIndex, kName, kOperationsDelta, kFused, kTime, kFusions, kColumnCount };
  enum Role { kPassIndexRole = Qt::UserRole + 1, kChangedRole };

  explicit PassTimelineModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const recording::Recording> recording);

  // Columns with nothing to say for this recording: Time for an imported one (no pass was
  // timed here), Fused and Decisions when no pass made a fusion or a decision.
  bool ColumnIsEmpty(int column) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  struct FusionCounts {
    int accepted = 0;
    int refused = 0;
  };
  QVariant DisplayData(const recording::PassRecord& pass, int column) const;
  const recording::OperationCounts& Before(const recording::PassRecord& pass) const;
  const recording::OperationCounts& After(const recording::PassRecord& pass) const;
  QVariant ToolTip(const recording::PassRecord& pass) const;
  QVariant Background(const recording::PassRecord& pass) const;

  std::shared_ptr<const recording::Recording> recording_;
  std::vector<FusionCounts> fusions_;
  std::vector<recording::OperationCounts> counts_;  // per snapshot: [i] before pass i
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_PASS_TIMELINE_MODEL_H_
