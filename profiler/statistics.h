#ifndef FUSESCOPE_PROFILER_STATISTICS_H_
#define FUSESCOPE_PROFILER_STATISTICS_H_

// Summaries of repeated measurements. Percentiles interpolate linearly between the two
// closest ranks (numpy's default, so figures can be checked with np.percentile). Outliers
// are counted with Tukey's fences (above Q3 + 1.5 IQR or below Q1 - 1.5 IQR) and kept in
// the samples: a slow run is a finding, not noise to average away.

#include <cstdint>
#include <vector>

namespace fusescope::profiler {

struct SampleSummary {
  int64_t count = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double stddev = 0;  // population standard deviation
  double median = 0;
  double p95 = 0;
  double p99 = 0;
  int64_t outliers_high = 0;
  int64_t outliers_low = 0;
};

// q in [0, 100]; 0 for an empty sample.
double Percentile(std::vector<double> samples, double q);
SampleSummary Summarize(const std::vector<double>& samples);

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_STATISTICS_H_
