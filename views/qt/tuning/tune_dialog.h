#ifndef FUSESCOPE_VIEWS_QT_TUNING_TUNE_DIALOG_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TUNE_DIALOG_H_

// Asks what `fusescope tune` should search: a kernel (or the hottest ones), the search space,
// the strategy, how many trials per kernel and how many timed runs per trial. A space that
// does not parse is said under its field and keeps the dialog open.

#include <QDialog>
#include <QStringList>

#include "views/qt/tuning/tune_request.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace fusescope::views {

class TuneDialog : public QDialog {
  Q_OBJECT

 public:
  // `kernels`: the names offered (the recording's kernels); `base` gives the recording and
  // the values shown first.
  TuneDialog(const TuneRequest& base, const QStringList& kernels, QWidget* parent = nullptr);

  // The request as filled in.
  TuneRequest request() const;

  QComboBox* kernel_box() const { return kernel_; }
  QLineEdit* space_edit() const { return space_; }
  QComboBox* strategy_box() const { return strategy_; }
  QSpinBox* trials_box() const { return trials_; }
  QSpinBox* reps_box() const { return reps_; }
  QLabel* error_label() const { return error_; }

  void accept() override;

 private:
  TuneRequest base_;
  QComboBox* kernel_;
  QLineEdit* space_;
  QComboBox* strategy_;
  QSpinBox* trials_;
  QSpinBox* reps_;
  QLabel* error_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TUNE_DIALOG_H_
