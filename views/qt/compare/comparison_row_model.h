#ifndef FUSESCOPE_VIEWS_QT_COMPARISON_ROW_MODEL_H_
#define FUSESCOPE_VIEWS_QT_COMPARISON_ROW_MODEL_H_

// The rows of a comparison (compare/comparison.h) as a table: one row per compiler variant and
// shape, the figures the CLI prints. Sorting by a column sorts by its number (Qt::UserRole).

#include <QAbstractTableModel>
#include <vector>

#include "compare/comparison.h"

namespace fusescope::views {

class ComparisonRowModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kVariant,
    kShape,
    kBuild,
    kP50,
    kP95,
    kP99,
    kOutliers,
    kThroughput,
    kBuildMemory,
    kRunMemory,
    kMaxAbsError,
    kVerdict,
    kColumnCount
  };

  explicit ComparisonRowModel(QObject* parent = nullptr);

  void setData(std::vector<compare::ComparisonRow> rows);
  const compare::ComparisonRow& row(int index) const { return rows_[static_cast<size_t>(index)]; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<compare::ComparisonRow> rows_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_COMPARISON_ROW_MODEL_H_
