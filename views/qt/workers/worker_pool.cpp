#include "views/qt/workers/worker_pool.h"

#include <QThread>
#include <algorithm>

namespace fusescope::views {

QThreadPool* WorkerPool::Instance() {
  static QThreadPool* pool = [] {
    auto* created = new QThreadPool();
    created->setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1));
    created->setObjectName(QStringLiteral("fusescope workers"));
    return created;
  }();
  return pool;
}

}  // namespace fusescope::views
