#include "profiler/profile.h"

#include <ctime>

namespace fusescope::profiler {

double Profile::TotalUs() const {
  double total = 0;
  for (double latency : run_latency_us) total += latency;
  if (total > 0) return total;
  for (const KernelTime& kernel : kernels) total += kernel.total_us;
  return total;
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace fusescope::profiler
