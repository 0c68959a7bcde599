#include "views/qt/tuning/tuning_kernel_model.h"

#include <QBrush>
#include <QColor>

namespace fusescope::views {
namespace {

QString Us(double us) { return us > 0 ? QString::number(us, 'f', 1) : QStringLiteral("-"); }

}  // namespace

std::vector<TuningKernelRow> TuningKernelRow::Of(const tuning::TuningRun& run) {
  std::vector<TuningKernelRow> rows;
  for (const auto& [kernel, best] : tuning::BestPerKernel(run.trials)) {
    TuningKernelRow row;
    row.kernel = kernel;
    row.trials = best.trials;
    row.failed = best.failed;
    row.best = best.best;
    row.default_us = best.best && best.best->baseline_us > 0 ? best.best->baseline_us
                     : best.baseline                         ? best.baseline->median_us
                                                             : 0;
    row.best_us = best.best ? best.best->median_us : 0;
    row.speedup = best.Speedup();
    row.best_config = !best.best              ? "(none ok)"
                      : best.best->is_default ? "default"
                                              : best.best->config;
    rows.push_back(std::move(row));
  }
  return rows;
}

TuningKernelModel::TuningKernelModel(QObject* parent) : QAbstractTableModel(parent) {}

void TuningKernelModel::setData(std::vector<TuningKernelRow> rows) {
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
}

int TuningKernelModel::RowOf(const std::string& kernel) const {
  for (size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].kernel == kernel) return static_cast<int>(i);
  }
  return -1;
}

int TuningKernelModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TuningKernelModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant TuningKernelModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
  const TuningKernelRow& row = rows_[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return Display(row, index.column());
    case kSortRole:
      return SortKey(row, index.column());
    case kKernelRole:
      return QString::fromStdString(row.kernel);
    case Qt::TextAlignmentRole:
      return index.column() == kKernel || index.column() == kConfig
                 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (index.column() == kFailed && row.failed > 0) return QBrush(QColor(0xb0, 0x30, 0x30));
      if (index.column() == kSpeedup && row.speedup > 1.0) return QBrush(QColor(0x1a, 0x80, 0x40));
      return {};
    case Qt::ToolTipRole:
      if (index.column() == kSpeedup) {
        return tr("The default's time over the best trial's, both timed side by side");
      }
      if (index.column() == kConfig) {
        QString text = QString::fromStdString(row.best_config);
        if (row.best && !row.best->verdict.empty())
          text += tr("\noutput %1").arg(QString::fromStdString(row.best->verdict));
        return text;
      }
      return {};
    default:
      return {};
  }
}

QVariant TuningKernelModel::Display(const TuningKernelRow& row, int column) const {
  switch (column) {
    case kKernel:
      return QString::fromStdString(row.kernel);
    case kTrials:
      return QString::number(row.trials);
    case kFailed:
      return QString::number(row.failed);
    case kDefault:
      return Us(row.default_us);
    case kBest:
      return Us(row.best_us);
    case kSpeedup:
      return QStringLiteral("%1×").arg(row.speedup, 0, 'f', 2);
    case kConfig:
      return QString::fromStdString(row.best_config);
    default:
      return {};
  }
}

QVariant TuningKernelModel::SortKey(const TuningKernelRow& row, int column) const {
  switch (column) {
    case kTrials:
      return static_cast<qlonglong>(row.trials);
    case kFailed:
      return static_cast<qlonglong>(row.failed);
    case kDefault:
      return row.default_us;
    case kBest:
      return row.best_us;
    case kSpeedup:
      return row.speedup;
    default:
      return Display(row, column);
  }
}

QVariant TuningKernelModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kDefault:
        return tr("The default build's median time of the kernel (µs)");
      case kBest:
        return tr("The best trial's median time (µs)");
      default:
        return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case kKernel:
      return tr("Kernel");
    case kTrials:
      return tr("Trials");
    case kFailed:
      return tr("Failed");
    case kDefault:
      return tr("Default µs");
    case kBest:
      return tr("Best µs");
    case kSpeedup:
      return tr("Speedup");
    case kConfig:
      return tr("Best configuration");
    default:
      return {};
  }
}

}  // namespace fusescope::views
