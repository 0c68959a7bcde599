#ifndef FUSESCOPE_VIEWS_QT_RUN_RUN_OUTPUT_MODEL_H_
#define FUSESCOPE_VIEWS_QT_RUN_RUN_OUTPUT_MODEL_H_

// The outputs of one `fusescope run`, one row each: shape, the largest absolute and relative
// error against the original module, the distances of this run and of the original module to
// the exact (f64) answer, and the verdict ("ok", "ok (exact)", "ill-conditioned",
// "MISMATCH"). Rows that differ are tinted red; ill-conditioned verdicts are amber.

#include <QAbstractTableModel>
#include <QColor>

#include "views/qt/run/run_result.h"

namespace fusescope::views {

class RunOutputModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kOutput,
    kShape,
    kMaxAbsError,
    kMaxRelError,
    kToExact,
    kOriginalToExact,
    kVerdict,
    kColumnCount
  };

  explicit RunOutputModel(QObject* parent = nullptr);

  void setData(RunReport report);
  const RunReport& report() const { return report_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // "1.25e-06", "0", "inf": how the run and bisect tables write an error.
  static QString FormatError(double error);
  // The run's verdict, "shape differs", "—" (not compared).
  static QString Verdict(const RunOutput& output);
  // The colour a verdict is written in; `ok` false for a MISMATCH.
  static QColor VerdictColor(const QString& verdict, bool ok);

 private:
  RunReport report_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_RUN_RUN_OUTPUT_MODEL_H_
