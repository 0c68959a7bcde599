#ifndef FUSESCOPE_VIEWS_QT_LATEST_TASK_RUNNER_H_
#define FUSESCOPE_VIEWS_QT_LATEST_TASK_RUNNER_H_

// Runs one kind of heavy request (building a pass's data, laying out a graph) off the GUI
// thread, one at a time. A newer request supersedes a stale one: while a task runs, only the
// latest submission waits, and a finished task whose request has been superseded is dropped.

#include <QObject>
#include <functional>

namespace fusescope::views {

class LatestTaskRunner : public QObject {
  Q_OBJECT

 public:
  // The work runs on a pool thread and returns what to do with its result; that runs on
  // the GUI thread, and only if no newer task was submitted in the meantime.
  using Deliver = std::function<void()>;
  using Work = std::function<Deliver()>;

  explicit LatestTaskRunner(QObject* parent = nullptr);

  void Submit(Work work);
  // Drops the waiting task and the result of the running one.
  void Cancel();
  bool busy() const { return running_ || pending_; }

 signals:
  void busyChanged(bool busy);

 private:
  void Start(Work work);
  void Finished(int64_t generation, Deliver deliver);

  bool running_ = false;
  Work pending_;
  int64_t generation_ = 0;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_LATEST_TASK_RUNNER_H_
