#ifndef FUSESCOPE_VIEWS_QT_WORKER_POOL_H_
#define FUSESCOPE_VIEWS_QT_WORKER_POOL_H_

// The threads the workbench's heavy work runs on (pass data, layouts, compiles, freeing
// large objects). One core is left to the GUI thread: Qt's raster painting hands pieces of a
// frame to helper threads and waits for them, and on a small machine workers on every core
// made those waits the longest stalls of the interface.

#include <QThreadPool>

namespace fusescope::views {

class WorkerPool {
 public:
  static QThreadPool* Instance();
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKER_POOL_H_
