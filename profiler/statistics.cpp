#include "profiler/statistics.h"

#include <algorithm>
#include <cmath>

namespace fusescope::profiler {
namespace {

// Linear interpolation between closest ranks on a sorted sample.
double SortedPercentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  q = std::clamp(q, 0.0, 100.0);
  const double position = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lower = static_cast<size_t>(std::floor(position));
  const size_t upper = std::min(lower + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(lower);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

}  // namespace

double Percentile(std::vector<double> samples, double q) {
  std::sort(samples.begin(), samples.end());
  return SortedPercentile(samples, q);
}

SampleSummary Summarize(const std::vector<double>& samples) {
  SampleSummary summary;
  if (samples.empty()) return summary;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  summary.count = static_cast<int64_t>(sorted.size());
  summary.min = sorted.front();
  summary.max = sorted.back();
  double sum = 0;
  for (double value : sorted) sum += value;
  summary.mean = sum / static_cast<double>(sorted.size());
  double squares = 0;
  for (double value : sorted) squares += (value - summary.mean) * (value - summary.mean);
  summary.stddev = std::sqrt(squares / static_cast<double>(sorted.size()));
  summary.median = SortedPercentile(sorted, 50);
  summary.p95 = SortedPercentile(sorted, 95);
  summary.p99 = SortedPercentile(sorted, 99);
  const double q1 = SortedPercentile(sorted, 25);
  const double q3 = SortedPercentile(sorted, 75);
  const double fence = 1.5 * (q3 - q1);
  for (double value : sorted) {
    if (value > q3 + fence) ++summary.outliers_high;
    if (value < q1 - fence) ++summary.outliers_low;
  }
  return summary;
}

}  // namespace fusescope::profiler
