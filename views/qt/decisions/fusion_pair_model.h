#ifndef FUSESCOPE_VIEWS_QT_FUSION_PAIR_MODEL_H_
#define FUSESCOPE_VIEWS_QT_FUSION_PAIR_MODEL_H_

// The producer -> consumer pairs of a fusion comparison (recording/fusion_comparison.h), one
// row each: fused by both, by XLA only (with our reason for refusing) or by us only. Pairs
// fused by neither are only counted, never listed. kCategoryRole gives the Category as an
// int, for a proxy that filters by it.

#include <QAbstractTableModel>
#include <vector>

#include "recording/fusion_comparison.h"

namespace fusescope::views {

class FusionPairModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum class Category { kBoth, kXlaOnly, kOursOnly };
  enum Column { kCategory, kProducer, kConsumer, kXlaFusion, kOurFusion, kOurReason, kColumnCount };
  static constexpr int kProducerIdRole = Qt::UserRole + 1;
  static constexpr int kCategoryRole = Qt::UserRole + 2;

  struct Row {
    recording::FusedPair pair;
    Category category;
  };

  explicit FusionPairModel(QObject* parent = nullptr);

  // `where` names the graph a row is shown on ("the graph before pass #3 fusion"), for tooltips.
  void setData(const recording::FusionComparison& comparison, const QString& where);
  void clear();
  const std::vector<Row>& rows() const { return rows_; }
  static QString CategoryName(Category category);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant Display(const Row& row, int column) const;
  QString ToolTip(const Row& row, int column) const;

  std::vector<Row> rows_;
  QString where_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_FUSION_PAIR_MODEL_H_
