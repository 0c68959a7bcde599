#ifndef FUSESCOPE_VIEWS_QT_WORKER_REPORT_BANNER_H_
#define FUSESCOPE_VIEWS_QT_WORKER_REPORT_BANNER_H_

// The non-modal report of a worker that failed, across the top of the graphs: what it was
// doing and where it died, its last error line, that the last good recording is still the
// one shown, and a "Save Reproducer…" button. Hidden until a failure is shown; the user
// dismisses it, or the next good recording does.

#include <QFrame>
#include <memory>

class QLabel;
class QPushButton;
class QToolButton;

namespace fusescope::views {

class WorkerFailure;

class WorkerReportBanner : public QFrame {
  Q_OBJECT

 public:
  explicit WorkerReportBanner(QWidget* parent = nullptr);

  // `kept_recording`: a previous recording is still on display.
  void Show(std::shared_ptr<const WorkerFailure> failure, bool kept_recording);
  const std::shared_ptr<const WorkerFailure>& failure() const { return failure_; }

  QLabel* headline() const { return headline_; }
  QLabel* details() const { return details_; }
  QPushButton* save_button() const { return save_; }

 signals:
  void saveReproducerRequested();

 private:
  std::shared_ptr<const WorkerFailure> failure_;
  QLabel* headline_;
  QLabel* details_;
  QPushButton* save_;
  QToolButton* dismiss_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKER_REPORT_BANNER_H_
