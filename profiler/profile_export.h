#ifndef FUSESCOPE_PROFILER_PROFILE_EXPORT_H_
#define FUSESCOPE_PROFILER_PROFILE_EXPORT_H_

// What a stored profile becomes outside: a Chrome trace (chrome://tracing, Perfetto's UI),
// and a kernel-by-kernel comparison of two profiles (before/after a change).

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "profiler/profile.h"

namespace fusescope::profiler {

// Chrome trace JSON: one process per profile, one complete event per kernel per run. A
// profile keeps each kernel's time per run, not when it started, so a run's kernels are laid
// out back to back in `order` (the snapshot's schedule, names; kernels not in it follow),
// each run after the previous one's latency; "otherData" says so.
void WriteChromeTrace(const Profile& profile, const std::vector<std::string>& order,
                      std::ostream& out);

struct KernelComparison {
  std::string name;
  bool in_before = false;
  bool in_after = false;
  double before_median_us = 0;
  double after_median_us = 0;
  double before_share = 0;
  double after_share = 0;
  double delta_us() const { return after_median_us - before_median_us; }
};

struct ProfileComparison {
  double before_latency_us = 0;  // median per run; the kernels' sum when no latency is known
  double after_latency_us = 0;
  std::vector<KernelComparison> kernels;  // by |delta|, largest first
  int64_t only_before = 0;  // kernels that are gone (fused away, renamed)
  int64_t only_after = 0;   // kernels that are new
};

// Matched by kernel name.
ProfileComparison CompareProfiles(const Profile& before, const Profile& after);

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_PROFILE_EXPORT_H_
