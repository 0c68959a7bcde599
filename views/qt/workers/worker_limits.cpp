#include "views/qt/workers/worker_limits.h"

#include <unistd.h>

#include <algorithm>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FUSESCOPE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define FUSESCOPE_SANITIZED 1
#endif
#endif

namespace fusescope::views {

qint64 WorkerLimits::DefaultMemoryBytes() {
#ifdef FUSESCOPE_SANITIZED
  return 0;
#else
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  const qint64 physical = static_cast<qint64>(pages) * page_size;
  return std::max(qint64{4} << 30, physical / 4 * 3);
#endif
}

}  // namespace fusescope::views
