#ifndef FUSESCOPE_VIEWS_QT_HOT_NODE_MODEL_H_
#define FUSESCOPE_VIEWS_QT_HOT_NODE_MODEL_H_

// The hot nodes of one pass's graph under a profile (profiler::HotNodes), one row each, in
// the order given (largest time first). kSortRole gives numbers for the numeric columns so a
// proxy sorts them as numbers.

#include <QAbstractTableModel>
#include <vector>

#include "profiler/attribution.h"

namespace fusescope::views {

class HotNodeModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kNode, kOpcode, kTime, kShare, kKind, kAnswersFor, kSourceLines, kColumnCount };
  static constexpr int kInstructionIdRole = Qt::UserRole + 1;
  static constexpr int kSortRole = Qt::UserRole + 2;

  explicit HotNodeModel(QObject* parent = nullptr);

  void setData(std::vector<profiler::HotNode> nodes);
  const std::vector<profiler::HotNode>& nodes() const { return nodes_; }
  // The row of `instruction_id`; -1 when it carries no time.
  int RowOf(int64_t instruction_id) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant Display(const profiler::HotNode& node, int column) const;
  QVariant SortKey(const profiler::HotNode& node, int column) const;

  std::vector<profiler::HotNode> nodes_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_HOT_NODE_MODEL_H_
