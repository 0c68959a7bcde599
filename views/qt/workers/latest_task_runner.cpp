#include "views/qt/workers/latest_task_runner.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "views/qt/workers/worker_pool.h"

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
    // Taken out of the future so that the watcher does not keep the result alive.
    Deliver deliver = watcher->future().takeResult();
    watcher->deleteLater();
    Finished(generation, std::move(deliver));
  });
  watcher->setFuture(QtConcurrent::run(WorkerPool::Instance(), std::move(work)));
}

void LatestTaskRunner::Finished(int64_t generation, Deliver deliver) {
  running_ = false;
  const bool current = generation == generation_ && !pending_;
  if (pending_) {
    Work next = std::move(pending_);
    pending_ = nullptr;
    Start(std::move(next));
  } else {
    emit busyChanged(false);
  }
  if (current && deliver) deliver();
  // A superseded result may hold the only reference to a large object: free it off the
  // GUI thread.
  WorkerPool::Instance()->start([doomed = std::move(deliver)]() mutable { doomed = nullptr; });
}

}  // namespace fusescope::views
