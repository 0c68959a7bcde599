#ifndef FUSESCOPE_VIEWS_QT_FUSION_DECISION_MODEL_H_
#define FUSESCOPE_VIEWS_QT_FUSION_DECISION_MODEL_H_

// One row per producer -> consumer pair a fusion pass considered: accepted or refused, the
// reason code and the sentence that explains it.

#include <QAbstractTableModel>
#include <memory>

#include "recording/recording.h"

namespace fusescope::views {

class FusionDecisionModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kPass, kVerdict, kProducer, kConsumer, kReason, kExplanation, kColumnCount };
  enum Role {
    kDecisionIndexRole = Qt::UserRole + 1,  // index into Recording::decisions
    kAcceptedRole,
    kPassIndexRole,
    kReasonCodeRole,
  };

  explicit FusionDecisionModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const recording::Recording> recording);
  const recording::Recording* recording() const { return recording_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant DisplayData(const passes::FusionDecisionRecord& decision, int column) const;
  QVariant ToolTip(const passes::FusionDecisionRecord& decision) const;

  std::shared_ptr<const recording::Recording> recording_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_FUSION_DECISION_MODEL_H_
