#ifndef FUSESCOPE_VIEWS_QT_WHAT_IF_FUSION_MODEL_H_
#define FUSESCOPE_VIEWS_QT_WHAT_IF_FUSION_MODEL_H_

// The final fusions of a what-if comparison (recording/recording_comparison.h) that differ,
// one row each: a fusion of A with the fusion of B it pairs with, a fusion of B that holds
// members of A's fusions without pairing with one (one row for all those fusions of A), a
// fusion of A only, of B only. Each row
// says how many members they share and hold alone, and the refusal that decided it (all of
// them in the tooltip and in Describe()).

#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "recording/recording_comparison.h"

namespace fusescope::views {

class WhatIfFusionModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum class Category { kDiffers, kNewInB, kOnlyA, kOnlyB };
  enum Column { kCategory, kFusionA, kFusionB, kShared, kOnlyInA, kOnlyInB, kWhy, kColumnCount };

  struct Row {
    recording::FusionMatch match;
    Category category;
    // kNewInB: every fusion of A holding some of B's fusion's members (match.fusion_a is the
    // first), and the members none of them holds.
    std::vector<std::string> fusions_a;
    std::vector<std::string> in_no_fusion_of_a;
  };

  explicit WhatIfFusionModel(QObject* parent = nullptr);

  void setData(const recording::RecordingComparison& comparison);
  void clear();
  const std::vector<Row>& rows() const { return rows_; }
  static QString CategoryName(Category category);
  // One refusal as a sentence: "B refused add.61 -> fusion.2 in fusion (#7):
  // too_many_operands: fusion would have 9 operands+outputs, limit is 8".
  static QString Describe(const recording::FusionRefusal& refusal);
  // The row in full: members and every refusal, one per line (HTML).
  static QString DescribeRow(const Row& row);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant Display(const Row& row, int column) const;

  std::vector<Row> rows_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WHAT_IF_FUSION_MODEL_H_
