#ifndef FUSESCOPE_VIEWS_QT_SEARCH_SEARCH_RESULT_MODEL_H_
#define FUSESCOPE_VIEWS_QT_SEARCH_SEARCH_RESULT_MODEL_H_

// The hits of an instruction search, one row each.

#include <QAbstractTableModel>
#include <vector>

#include "views/qt/search/instruction_search.h"

namespace fusescope::views {

class SearchResultModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kName, kOpcode, kShape, kComputation, kColumnCount };
  enum Role { kInstructionIdRole = Qt::UserRole + 1 };

  explicit SearchResultModel(QObject* parent = nullptr);

  void setData(std::vector<SearchHit> hits);
  const std::vector<SearchHit>& hits() const { return hits_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<SearchHit> hits_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_SEARCH_SEARCH_RESULT_MODEL_H_
