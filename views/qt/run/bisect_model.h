#ifndef FUSESCOPE_VIEWS_QT_RUN_BISECT_MODEL_H_
#define FUSESCOPE_VIEWS_QT_RUN_BISECT_MODEL_H_

// The passes of one `fusescope bisect`, one row each: the verdict of the pass's module
// against the input module ("ok", "DIFFERS", "not run", "unchanged"), its largest errors,
// interpretation time and notes. The first pass that differs is the row that matters: bold on
// a red tint, and FirstBadRow() says which. kPassIndexRole gives each row's pass.

#include <QAbstractTableModel>

#include "views/qt/run/run_result.h"

namespace fusescope::views {

class BisectModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kPass,
    kName,
    kVerdict,
    kMaxAbsError,
    kMaxRelError,
    kToExact,
    kInputToExact,
    kSeconds,
    kNotes,
    kColumnCount
  };
  static constexpr int kPassIndexRole = Qt::UserRole + 1;

  explicit BisectModel(QObject* parent = nullptr);

  void setData(BisectReport report);
  const BisectReport& report() const { return report_; }
  // -1 when no pass changes the outputs.
  int FirstBadRow() const { return report_.first_bad; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  static QString Verdict(const BisectPass& pass);

 private:
  QVariant Display(const BisectPass& pass, int column) const;

  BisectReport report_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_RUN_BISECT_MODEL_H_
