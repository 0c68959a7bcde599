#include "views/qt/passes/pass_timeline_model.h"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <optional>

#include "resources/explanations.h"
#include "views/qt/graph/diff_colors.h"
#include "views/qt/workers/off_thread_release.h"

namespace fusescope::views {
namespace {

QString FormatSeconds(double seconds) {
  if (seconds >= 1) return QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
  if (seconds >= 1e-3) return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 1);
  return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', 0);
}

QString FormatDelta(int64_t delta) {
  if (delta == 0) return QStringLiteral("0");
  return delta > 0 ? QStringLiteral("+%1").arg(delta) : QStringLiteral("−%1").arg(-delta);
}

}  // namespace

PassTimelineModel::PassTimelineModel(QObject* parent) : QAbstractTableModel(parent) {}

void PassTimelineModel::setData(std::shared_ptr<const recording::Recording> recording) {
  beginResetModel();
  ReleaseOffThread(recording_);
  recording_ = std::move(recording);
  fusions_.assign(recording_ ? recording_->passes.size() : 0, FusionCounts());
  counts_ = recording_ ? recording::CountSnapshots(*recording_)
                       : std::vector<recording::OperationCounts>();
  if (recording_) {
    for (const passes::FusionDecisionRecord& decision : recording_->decisions) {
      if (decision.pass_index < 0 || decision.pass_index >= static_cast<int64_t>(fusions_.size()))
        continue;
      FusionCounts& counts = fusions_[static_cast<size_t>(decision.pass_index)];
      ++(decision.accepted() ? counts.accepted : counts.refused);
    }
  }
  endResetModel();
}

int PassTimelineModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !recording_ ? 0 : static_cast<int>(recording_->passes.size());
}

int PassTimelineModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant PassTimelineModel::DisplayData(const recording::PassRecord& pass, int column) const {
  switch (column) {
    case kIndex:
      return static_cast<qlonglong>(pass.index);
    case kName:
      return QString::fromStdString(pass.name);
    case kOperationsDelta:
      return pass.changed ? FormatDelta(After(pass).operations - Before(pass).operations)
                          : QString();
    case kFused:
      return pass.changed && After(pass).fusions > 0
                 ? QString::number(After(pass).fused_instructions)
                 : QString();
    case kTime:
      if (pass.skipped) return QStringLiteral("skipped");
      return recording_->imported ? QString() : FormatSeconds(pass.wall_seconds);
    case kFusions: {
      const FusionCounts& counts = fusions_[static_cast<size_t>(pass.index)];
      if (counts.accepted + counts.refused == 0) return QString();
      return QStringLiteral("%1✓ %2✗").arg(counts.accepted).arg(counts.refused);
    }
  }
  return {};
}

bool PassTimelineModel::ColumnIsEmpty(int column) const {
  if (!recording_) return false;
  switch (column) {
    case kTime:
      return recording_->imported;
    case kFused:
      return std::none_of(counts_.begin(), counts_.end(),
                          [](const recording::OperationCounts& c) { return c.fusions > 0; });
    case kFusions:
      return recording_->decisions.empty();
    default:
      return false;
  }
}

const recording::OperationCounts& PassTimelineModel::Before(
    const recording::PassRecord& pass) const {
  return counts_[static_cast<size_t>(pass.index)];
}

const recording::OperationCounts& PassTimelineModel::After(
    const recording::PassRecord& pass) const {
  return counts_[static_cast<size_t>(pass.index) + 1];
}

QVariant PassTimelineModel::ToolTip(const recording::PassRecord& pass) const {
  QString text = QStringLiteral("<b>%1</b> (pass %2)<br>")
                     .arg(QString::fromStdString(pass.name))
                     .arg(pass.index);
  const QString counts =
      QString::fromStdString(recording::DescribeCounts(Before(pass), After(pass)));
  text += pass.changed ? QStringLiteral("changed the module: %1").arg(counts)
                       : QStringLiteral("changed nothing (%1)").arg(counts);
  if (pass.change_flag_lies) {
    text += QStringLiteral("<br><i>the pass reported %1</i>")
                .arg(pass.reported_changed ? "a change" : "no change");
  }
  if (pass.failed)
    text +=
        QStringLiteral("<br><b>failed:</b> ") + QString::fromStdString(pass.error).toHtmlEscaped();
  for (const auto& [key, value] : pass.stats) {
    text += QStringLiteral("<br>%1: %2")
                .arg(QString::fromStdString(key), QString::fromStdString(value));
  }
  // What the pass does, from resources/explanations (fusescope explain prints the same).
  const auto html = [](const std::string& value) {
    return QString::fromStdString(value).toHtmlEscaped();
  };
  if (std::optional<resources::PassExplanation> explained = resources::ExplainPass(pass.name)) {
    text += QStringLiteral(
                "<hr><b>%1</b> (%2)<br><b>Does:</b> %3<br><b>Looks for:</b> %4"
                "<br><b>Cannot:</b> %5<br><b>Docs:</b> %6")
                .arg(html(explained->key), html(explained->compiler), html(explained->does),
                     html(explained->looks_for), html(explained->cannot), html(explained->docs));
  } else {
    text += QStringLiteral("<hr><i>No explanation is written for this pass.</i>");
  }
  return text;
}

QVariant PassTimelineModel::Background(const recording::PassRecord& pass) const {
  if (pass.failed) return DiffColors::Tint(ir::DiffStatus::kRemoved);
  if (pass.changed) return DiffColors::Tint(ir::DiffStatus::kChanged);
  return {};
}

QVariant PassTimelineModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
      !recording_)
    return {};
  const recording::PassRecord& pass = recording_->passes[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return DisplayData(pass, index.column());
    case Qt::ToolTipRole:
      return ToolTip(pass);
    case Qt::BackgroundRole:
      return Background(pass);
    case Qt::FontRole: {
      if (!pass.changed && !pass.failed) return {};
      QFont font;
      font.setBold(true);
      return font;
    }
    case Qt::ForegroundRole:
      return pass.skipped ? QVariant(QColor(Qt::gray)) : QVariant();
    case Qt::TextAlignmentRole:
      return index.column() == kName ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case kPassIndexRole:
      return static_cast<qlonglong>(pass.index);
    case kChangedRole:
      return pass.changed;
  }
  return {};
}

QVariant PassTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= kColumnCount) return {};
  static const char* const kTitles[] = {"#", "Pass", "Δ ops", "Fused", "Time", "Decisions"};
  static const char* const kTips[] = {"Position in the pipeline",
                                      "Pass name",
                                      "Change in operations: instructions outside fusions",
                                      "Instructions inside fusions after the pass",
                                      "Wall time of the pass",
                                      "Fusion decisions: accepted ✓, refused ✗"};
  if (role == Qt::DisplayRole) return QString::fromUtf8(kTitles[section]);
  if (role == Qt::ToolTipRole) return QString::fromUtf8(kTips[section]);
  return {};
}

}  // namespace fusescope::views
