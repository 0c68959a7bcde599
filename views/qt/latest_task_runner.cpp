#include "views/qt/latest_task_runner.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace fusescope::views {

LatestTaskRunner::LatestTaskRunner(QObject* parent) : QObject(parent) {}

void LatestTaskRunner::Submit(Work work) {
  ++generation_;
  if (running_) {
    pending_ = std::move(work);
    return;
  }
  Start(std::move(work));
  emit busyChanged(true);
}

void LatestTaskRunner::Cancel() {
  ++generation_;
  pending_ = nullptr;
}

void LatestTaskRunner::Start(Work work) {
  running_ = true;
  const int64_t generation = generation_;
  auto* watcher = new QFutureWatcher<Deliver>(this);
  connect(watcher, &QFutureWatcher<Deliver>::finished, this, [this, watcher, generation] {
    Deliver deliver = watcher->result();
    watcher->deleteLater();
    Finished(generation, deliver);
  });
  watcher->setFuture(QtConcurrent::run(std::move(work)));
}

void LatestTaskRunner::Finished(int64_t generation, const Deliver& deliver) {
  running_ = false;
  if (pending_) {
    Work next = std::move(pending_);
    pending_ = nullptr;
    Start(std::move(next));
    return;
  }
  emit busyChanged(false);
  if (generation == generation_ && deliver) deliver();
}

}  // namespace fusescope::views
