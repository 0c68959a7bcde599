#include "views/qt/run/run_output_model.h"

#include <QColor>
#include <cmath>

#include "views/qt/graph/diff_colors.h"

namespace fusescope::views {
namespace {

QColor Tint(QColor color) {
  color.setAlpha(48);
  return color;
}

}  // namespace

RunOutputModel::RunOutputModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunOutputModel::setData(RunReport report) {
  beginResetModel();
  report_ = std::move(report);
  endResetModel();
}

int RunOutputModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(report_.outputs.size());
}

int RunOutputModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QString RunOutputModel::FormatError(double error) {
  if (std::isinf(error)) return QStringLiteral("inf");
  if (std::isnan(error)) return QStringLiteral("nan");
  if (error == 0) return QStringLiteral("0");
  return QString::number(error, 'e', 2);
}

QString RunOutputModel::Verdict(const RunOutput& output) {
  if (!output.compared) return QStringLiteral("—");
  if (!output.same_shape) return tr("shape differs");
  if (!output.verdict.isEmpty()) return output.verdict;
  return output.ok ? tr("ok") : tr("MISMATCH");
}

QColor RunOutputModel::VerdictColor(const QString& verdict, bool ok) {
  if (!ok) return DiffColors::Refused();
  // Neither right nor wrong: rounding alone moves the reference that far on these inputs.
  if (verdict == QLatin1String("ill-conditioned")) return QColor(0xb0, 0x70, 0x00);
  return DiffColors::Accepted();
}

QVariant RunOutputModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const RunOutput& output = report_.outputs[static_cast<size_t>(index.row())];
  const bool differs = output.compared && !output.ok;
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case kOutput:
          return static_cast<qlonglong>(output.index);
        case kShape:
          return output.shape;
        case kMaxAbsError:
          return output.compared ? FormatError(output.max_abs_error) : QString();
        case kMaxRelError:
          return output.compared ? FormatError(output.max_rel_error) : QString();
        case kToExact:
          return output.to_exact ? FormatError(*output.to_exact) : QString();
        case kOriginalToExact:
          return output.original_to_exact ? FormatError(*output.original_to_exact) : QString();
        case kVerdict:
          return Verdict(output);
      }
      return {};
    case Qt::TextAlignmentRole:
      return index.column() == kShape || index.column() == kVerdict
                 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      return differs ? QVariant(Tint(DiffColors::Refused())) : QVariant();
    case Qt::ForegroundRole:
      if (index.column() != kVerdict || !output.compared) return {};
      return VerdictColor(output.verdict, !differs);
    case Qt::ToolTipRole:
      if (index.column() == kToExact)
        return tr("Max abs distance of this run to the exact answer (the original module in f64)");
      if (index.column() == kOriginalToExact)
        return tr(
            "Max abs distance of the original module, run in its own types, to the exact "
            "answer: what rounding alone costs");
      return {};
  }
  return {};
}

QVariant RunOutputModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kOutput:
      return tr("Output");
    case kShape:
      return tr("Shape");
    case kMaxAbsError:
      return tr("Max abs err");
    case kMaxRelError:
      return tr("Max rel err");
    case kToExact:
      return tr("To exact");
    case kOriginalToExact:
      return tr("Original to exact");
    case kVerdict:
      return tr("Verdict");
  }
  return {};
}

}  // namespace fusescope::views
