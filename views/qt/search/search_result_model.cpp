#include "views/qt/search/search_result_model.h"

namespace fusescope::views {

SearchResultModel::SearchResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void SearchResultModel::setData(std::vector<SearchHit> hits) {
  beginResetModel();
  hits_ = std::move(hits);
  endResetModel();
}

int SearchResultModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(hits_.size());
}

int SearchResultModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant SearchResultModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const SearchHit& hit = hits_[static_cast<size_t>(index.row())];
  if (role == kInstructionIdRole) return static_cast<qlonglong>(hit.id);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case kName:
      return hit.name;
    case kOpcode:
      return hit.opcode;
    case kShape:
      return hit.shape;
    case kComputation:
      return hit.computation;
  }
  return {};
}

QVariant SearchResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kTitles[] = {"Name", "Opcode", "Shape", "Computation"};
  return section >= 0 && section < kColumnCount ? tr(kTitles[section]) : QVariant();
}

}  // namespace fusescope::views
