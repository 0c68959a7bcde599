#include "views/qt/compare/comparison_row_model.h"

#include <QColor>

namespace fusescope::views {
namespace {

QString Number(double value, int decimals) {
  return value < 0 ? QStringLiteral("-") : QString::number(value, 'f', decimals);
}

QString Mebibytes(int64_t bytes) {
  return bytes < 0 ? QStringLiteral("-")
                   : QString::number(static_cast<double>(bytes) / (1 << 20), 'f', 1);
}

}  // namespace

ComparisonRowModel::ComparisonRowModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonRowModel::setData(std::vector<compare::ComparisonRow> rows) {
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
}

int ComparisonRowModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ComparisonRowModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant ComparisonRowModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const compare::ComparisonRow& row = rows_[static_cast<size_t>(index.row())];
  const bool ran = row.error.empty();
  const auto& latency = row.latency_us;
  if (role == Qt::UserRole) {
    switch (index.column()) {
      case kVariant:
        return QString::fromStdString(row.variant);
      case kShape:
        return QString::fromStdString(row.shape);
      case kBuild:
        return row.build_s;
      case kP50:
        return ran ? latency.median : 1e300;
      case kP95:
        return ran ? latency.p95 : 1e300;
      case kP99:
        return ran ? latency.p99 : 1e300;
      case kOutliers:
        return static_cast<qlonglong>(latency.outliers_high + latency.outliers_low);
      case kThroughput:
        return row.throughput_per_s;
      case kBuildMemory:
        return static_cast<qlonglong>(row.build_peak_rss_bytes);
      case kRunMemory:
        return static_cast<qlonglong>(row.run_peak_rss_bytes);
      case kMaxAbsError:
        return row.max_abs_error;
      case kVerdict:
        return QString::fromStdString(row.verdict);
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    if (!ran) return QString::fromStdString(row.error);
    QString tip = QString::fromStdString(row.judgement);
    if (row.trials > 0)
      tip += tr("\nTuned: %1 trials in %2 s (not in the build time)")
                 .arg(row.trials)
                 .arg(row.tuning_s, 0, 'f', 1);
    if (row.shared_build) tip += tr("\nOne build served several shapes");
    return tip;
  }
  if (role == Qt::ForegroundRole && !ran) return QColor(176, 32, 32);
  if (role == Qt::ForegroundRole && index.column() == kVerdict && row.verdict == "MISMATCH")
    return QColor(176, 32, 32);
  if (role == Qt::TextAlignmentRole && index.column() >= kBuild && index.column() != kVerdict)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kVariant:
      return QString::fromStdString(row.variant);
    case kShape:
      return QString::fromStdString(row.shape);
    case kBuild:
      return Number(row.build_s, 2) + (row.shared_build ? QStringLiteral("*") : QString());
    default:
      break;
  }
  if (!ran)
    return index.column() == kP50 ? tr("error: %1").arg(QString::fromStdString(row.error))
                                  : QVariant();
  switch (index.column()) {
    case kP50:
      return Number(latency.median, 1);
    case kP95:
      return Number(latency.p95, 1);
    case kP99:
      return Number(latency.p99, 1);
    case kOutliers:
      return static_cast<qlonglong>(latency.outliers_high + latency.outliers_low);
    case kThroughput:
      return Number(row.throughput_per_s, 0);
    case kBuildMemory:
      return Mebibytes(row.build_peak_rss_bytes);
    case kRunMemory:
      return Mebibytes(row.run_peak_rss_bytes);
    case kMaxAbsError:
      return row.max_abs_error < 0 ? QStringLiteral("-")
                                   : QString::number(row.max_abs_error, 'e', 2);
    case kVerdict:
      return row.verdict.empty() ? QStringLiteral("-") : QString::fromStdString(row.verdict);
    default:
      return {};
  }
}

QVariant ComparisonRowModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* kTitles[] = {"Compiler",  "Shape",   "Build s",       "p50 µs",
                                  "p95 µs",    "p99 µs",  "Outliers",      "Items/s",
                                  "Build MiB", "Run MiB", "Max abs error", "Verdict"};
  static const char* kTips[] = {
      "The compiler, or its variant (TVM untuned and after MetaSchedule)",
      "The shape of the inputs (batch, sequence)",
      "Seconds to build; * when one build served several shapes; tuning not included",
      "Median latency of one call",
      "95th percentile",
      "99th percentile",
      "Calls beyond Tukey's fences: counted, never removed",
      "Batch items per second at the median latency",
      "Peak resident memory of the compiler's process while building",
      "Peak resident memory while running (reset after the build)",
      "Largest distance of any output element from the f64 answer",
      "The outputs judged against our interpreter and the exact (f64) answer"};
  if (section < 0 || section >= kColumnCount) return {};
  if (role == Qt::DisplayRole) return tr(kTitles[section]);
  if (role == Qt::ToolTipRole) return tr(kTips[section]);
  return {};
}

}  // namespace fusescope::views
