#include "views/qt/decisions/fusion_pair_model.h"

namespace fusescope::views {
namespace {

QString Q(const std::string& text) { return QString::fromStdString(text); }

}  // namespace

FusionPairModel::FusionPairModel(QObject* parent) : QAbstractTableModel(parent) {}

void FusionPairModel::setData(const recording::FusionComparison& comparison, const QString& where) {
  beginResetModel();
  where_ = where;
  rows_.clear();
  rows_.reserve(comparison.both.size() + comparison.only_first.size() +
                comparison.only_second.size());
  // XLA-only pairs first: they are what the comparison is for.
  for (const recording::FusedPair& pair : comparison.only_first) {
    rows_.push_back({pair, Category::kXlaOnly});
  }
  for (const recording::FusedPair& pair : comparison.only_second) {
    rows_.push_back({pair, Category::kOursOnly});
  }
  for (const recording::FusedPair& pair : comparison.both) rows_.push_back({pair, Category::kBoth});
  endResetModel();
}

void FusionPairModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

QString FusionPairModel::CategoryName(Category category) {
  switch (category) {
    case Category::kBoth:
      return tr("both");
    case Category::kXlaOnly:
      return tr("XLA only");
    case Category::kOursOnly:
      return tr("us only");
  }
  return {};
}

int FusionPairModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FusionPairModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant FusionPairModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& row = rows_[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return Display(row, index.column());
    case Qt::ToolTipRole:
      return ToolTip(row, index.column());
    case kProducerIdRole:
      return QVariant::fromValue<qlonglong>(row.pair.producer_id);
    case kCategoryRole:
      return static_cast<int>(row.category);
    default:
      return {};
  }
}

QVariant FusionPairModel::Display(const Row& row, int column) const {
  const recording::FusedPair& pair = row.pair;
  switch (column) {
    case kCategory:
      return CategoryName(row.category);
    case kProducer:
      return Q(pair.producer);
    case kConsumer:
      return Q(pair.consumer);
    case kXlaFusion:
      return Q(pair.first_fusion);
    case kOurFusion:
      return Q(pair.second_fusion);
    case kOurReason:
      if (row.category != Category::kXlaOnly) return QString();
      return pair.second_explanation.empty() ? tr("(never considered)")
                                             : Q(pair.second_explanation);
    default:
      return {};
  }
}

QString FusionPairModel::ToolTip(const Row& row, int column) const {
  if (column == kOurReason && row.category == Category::kXlaOnly &&
      !row.pair.second_reason.empty()) {
    return tr("%1: %2").arg(Q(row.pair.second_reason), Q(row.pair.second_explanation));
  }
  return tr("Selects %1 on %2, where %1 and %3 are still separate instructions")
      .arg(Q(row.pair.producer), where_, Q(row.pair.consumer));
}

QVariant FusionPairModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kCategory:
      return tr("Fused by");
    case kProducer:
      return tr("Producer");
    case kConsumer:
      return tr("Consumer");
    case kXlaFusion:
      return tr("XLA's fusion");
    case kOurFusion:
      return tr("Our fusion");
    case kOurReason:
      return tr("Our reason (XLA only)");
    default:
      return {};
  }
}

}  // namespace fusescope::views
