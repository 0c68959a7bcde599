#ifndef FUSESCOPE_VIEWS_QT_WORKER_LIMITS_H_
#define FUSESCOPE_VIEWS_QT_WORKER_LIMITS_H_

// What a worker process may take before the workbench stops it: wall-clock time, and address
// space (set on the child with setrlimit, so that a runaway allocation fails in the worker
// rather than squeezing the machine and the window with it).

#include <QtGlobal>
#include <chrono>

namespace fusescope::views {

struct WorkerLimits {
  // Generous: real modules take minutes on some pipelines.
  std::chrono::milliseconds time_limit = std::chrono::minutes(10);
  // RLIMIT_AS of the worker in bytes; 0: none.
  qint64 memory_bytes = DefaultMemoryBytes();
  // Between the polite SIGTERM and the SIGKILL that follows when the worker ignores it.
  std::chrono::milliseconds grace = std::chrono::seconds(3);

  // Three quarters of the machine's memory, at least 4 GiB; none in sanitizer builds, whose
  // shadow memory reserves far more address space than any limit would allow.
  static qint64 DefaultMemoryBytes();
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKER_LIMITS_H_
