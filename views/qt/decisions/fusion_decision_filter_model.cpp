#include "views/qt/decisions/fusion_decision_filter_model.h"

#include "views/qt/decisions/fusion_decision_model.h"

namespace fusescope::views {

FusionDecisionFilterModel::FusionDecisionFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent) {
  setSortRole(Qt::DisplayRole);
}

void FusionDecisionFilterModel::SetVerdict(Verdict verdict) {
  verdict_ = verdict;
  invalidateRowsFilter();
}

void FusionDecisionFilterModel::SetPass(int64_t pass) {
  pass_ = pass;
  invalidateRowsFilter();
}

void FusionDecisionFilterModel::SetReason(const QString& reason_code) {
  reason_ = reason_code;
  invalidateRowsFilter();
}

void FusionDecisionFilterModel::SetText(const QString& text) {
  text_ = text.trimmed();
  invalidateRowsFilter();
}

bool FusionDecisionFilterModel::MatchesText(int source_row) const {
  if (text_.isEmpty()) return true;
  for (int column : {FusionDecisionModel::kProducer, FusionDecisionModel::kConsumer,
                     FusionDecisionModel::kExplanation}) {
    const QString value = sourceModel()->index(source_row, column).data().toString();
    if (value.contains(text_, Qt::CaseInsensitive)) return true;
  }
  return false;
}

bool FusionDecisionFilterModel::filterAcceptsRow(int source_row, const QModelIndex&) const {
  const QModelIndex index = sourceModel()->index(source_row, 0);
  const bool accepted = index.data(FusionDecisionModel::kAcceptedRole).toBool();
  if (verdict_ == Verdict::kAccepted && !accepted) return false;
  if (verdict_ == Verdict::kRefused && accepted) return false;
  if (pass_ >= 0 && index.data(FusionDecisionModel::kPassIndexRole).toLongLong() != pass_)
    return false;
  if (!reason_.isEmpty() && index.data(FusionDecisionModel::kReasonCodeRole).toString() != reason_)
    return false;
  return MatchesText(source_row);
}

}  // namespace fusescope::views
