#ifndef FUSESCOPE_VIEWS_QT_TUNING_TUNING_KERNEL_MODEL_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TUNING_KERNEL_MODEL_H_

// The kernels of one tuning run, one row each, with the figures `fusescope tune --list` prints
// (tuning::BestPerKernel): trials, failed ones, the default's time, the best trial's, the
// speedup and the best configuration. kSortRole gives numbers for the numeric columns so a
// proxy sorts them as numbers.

#include <QAbstractTableModel>
#include <string>
#include <vector>

#include "tuning/tuning_run.h"

namespace fusescope::views {

struct TuningKernelRow {
  std::string kernel;
  int64_t trials = 0;
  int64_t failed = 0;
  // The best trial's own paired default where it has one (both were timed side by side), else
  // the default trial's median; 0 when neither was measured.
  double default_us = 0;
  double best_us = 0;       // 0 when no trial was ok
  double speedup = 1;       // tuning::KernelBest::Speedup()
  std::string best_config;  // "default", "(none ok)" or the best trial's configuration
  const tuning::Trial* best = nullptr;

  // One row per kernel of `run`, in BestPerKernel's order (by name). The rows point into
  // `run`, which must outlive them.
  static std::vector<TuningKernelRow> Of(const tuning::TuningRun& run);
};

class TuningKernelModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kKernel, kTrials, kFailed, kDefault, kBest, kSpeedup, kConfig, kColumnCount };
  static constexpr int kSortRole = Qt::UserRole + 1;
  static constexpr int kKernelRole = Qt::UserRole + 2;

  explicit TuningKernelModel(QObject* parent = nullptr);

  void setData(std::vector<TuningKernelRow> rows);
  const std::vector<TuningKernelRow>& rows() const { return rows_; }
  // The row of `kernel`; -1 when the run has no such kernel.
  int RowOf(const std::string& kernel) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant Display(const TuningKernelRow& row, int column) const;
  QVariant SortKey(const TuningKernelRow& row, int column) const;

  std::vector<TuningKernelRow> rows_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TUNING_KERNEL_MODEL_H_
