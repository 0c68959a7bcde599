#ifndef FUSESCOPE_VIEWS_QT_WORKERS_OFF_THREAD_RELEASE_H_
#define FUSESCOPE_VIEWS_QT_WORKERS_OFF_THREAD_RELEASE_H_

// Drops a reference to a large immutable object (a pass's modules and diff, a laid-out
// graph) on a pool thread. When it is the last reference, the destructor then runs there:
// freeing two 10k-instruction modules takes tens of milliseconds the GUI thread cannot spare.

#include <memory>
#include <utility>

#include "views/qt/workers/worker_pool.h"

namespace fusescope::views {

template <typename T>
void ReleaseOffThread(std::shared_ptr<T>& pointer) {
  if (!pointer) return;
  WorkerPool::Instance()->start([doomed = std::move(pointer)]() mutable { doomed.reset(); });
  pointer.reset();
}

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKERS_OFF_THREAD_RELEASE_H_
