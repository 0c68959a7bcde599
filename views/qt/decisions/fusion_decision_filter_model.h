#ifndef FUSESCOPE_VIEWS_QT_FUSION_DECISION_FILTER_MODEL_H_
#define FUSESCOPE_VIEWS_QT_FUSION_DECISION_FILTER_MODEL_H_

// Narrows the decision table: by verdict, by pass, by reason code, and by a text that must
// appear in the producer, the consumer or the explanation.

#include <QSortFilterProxyModel>
#include <QString>

namespace fusescope::views {

class FusionDecisionFilterModel : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  enum class Verdict { kAll, kAccepted, kRefused };

  explicit FusionDecisionFilterModel(QObject* parent = nullptr);

  void SetVerdict(Verdict verdict);
  // -1: every pass.
  void SetPass(int64_t pass);
  // Empty: every reason.
  void SetReason(const QString& reason_code);
  void SetText(const QString& text);

  Verdict verdict() const { return verdict_; }
  int64_t pass() const { return pass_; }
  const QString& reason() const { return reason_; }

 protected:
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  bool MatchesText(int source_row) const;

  Verdict verdict_ = Verdict::kAll;
  int64_t pass_ = -1;
  QString reason_;
  QString text_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_FUSION_DECISION_FILTER_MODEL_H_
