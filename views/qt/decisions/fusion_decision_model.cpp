#include "views/qt/decisions/fusion_decision_model.h"

#include "views/qt/graph/diff_colors.h"
#include "views/qt/icons.h"
#include "views/qt/workers/off_thread_release.h"

namespace fusescope::views {
namespace {

QString Operand(const std::string& name, const std::string& opcode) {
  return QStringLiteral("%1 (%2)").arg(QString::fromStdString(name),
                                       QString::fromStdString(opcode));
}

}  // namespace

FusionDecisionModel::FusionDecisionModel(QObject* parent) : QAbstractTableModel(parent) {}

void FusionDecisionModel::setData(std::shared_ptr<const recording::Recording> recording) {
  beginResetModel();
  ReleaseOffThread(recording_);
  recording_ = std::move(recording);
  endResetModel();
}

int FusionDecisionModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !recording_ ? 0 : static_cast<int>(recording_->decisions.size());
}

int FusionDecisionModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant FusionDecisionModel::DisplayData(const passes::FusionDecisionRecord& decision,
                                          int column) const {
  switch (column) {
    case kPass:
      return QStringLiteral("%1 %2")
          .arg(decision.pass_index)
          .arg(QString::fromStdString(decision.pass));
    case kVerdict:
      return decision.accepted() ? tr("accepted") : tr("refused");
    case kProducer:
      return Operand(decision.producer_name, decision.producer_opcode);
    case kConsumer:
      return Operand(decision.consumer_name, decision.consumer_opcode);
    case kReason:
      return QString::fromUtf8(passes::FusionReasonCode(decision.reason).data(),
                               static_cast<int>(passes::FusionReasonCode(decision.reason).size()));
    case kExplanation:
      return QString::fromStdString(decision.explanation);
  }
  return {};
}

QVariant FusionDecisionModel::ToolTip(const passes::FusionDecisionRecord& decision) const {
  QString text = QStringLiteral("<b>%1</b> → <b>%2</b> in %3<br>%4")
                     .arg(QString::fromStdString(decision.producer_name),
                          QString::fromStdString(decision.consumer_name),
                          QString::fromStdString(decision.computation),
                          QString::fromStdString(decision.explanation).toHtmlEscaped());
  if (!decision.fusion_name.empty()) {
    text += QStringLiteral("<br>formed %1").arg(QString::fromStdString(decision.fusion_name));
  }
  return text;
}

QVariant FusionDecisionModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
      !recording_)
    return {};
  const passes::FusionDecisionRecord& decision =
      recording_->decisions[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return DisplayData(decision, index.column());
    case Qt::ToolTipRole:
      return ToolTip(decision);
    case Qt::DecorationRole:
      if (index.column() != kVerdict) return {};
      return Icons::Get(decision.accepted() ? QStringLiteral("accepted")
                                            : QStringLiteral("refused"));
    case Qt::ForegroundRole:
      if (index.column() != kVerdict) return {};
      return decision.accepted() ? DiffColors::Accepted() : DiffColors::Refused();
    case kDecisionIndexRole:
      return index.row();
    case kAcceptedRole:
      return decision.accepted();
    case kPassIndexRole:
      return static_cast<qlonglong>(decision.pass_index);
    case kReasonCodeRole:
      return DisplayData(decision, kReason);
  }
  return {};
}

QVariant FusionDecisionModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kTitles[] = {"Pass",     "Verdict", "Producer",
                                        "Consumer", "Reason",  "Explanation"};
  return section >= 0 && section < kColumnCount ? tr(kTitles[section]) : QVariant();
}

}  // namespace fusescope::views
