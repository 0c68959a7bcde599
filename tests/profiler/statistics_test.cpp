#include "profiler/statistics.h"

#include <gtest/gtest.h>

#include <vector>

namespace fusescope::profiler {
namespace {

// Figures checked with numpy: np.percentile(x, [50, 95, 99]) (linear interpolation).
TEST(StatisticsTest, PercentilesInterpolateBetweenClosestRanks) {
  const std::vector<double> x = {7, 1, 3, 9, 5, 2, 8, 4, 6, 10};
  EXPECT_DOUBLE_EQ(Percentile(x, 50), 5.5);
  EXPECT_DOUBLE_EQ(Percentile(x, 95), 9.55);
  EXPECT_DOUBLE_EQ(Percentile(x, 99), 9.91);
  EXPECT_DOUBLE_EQ(Percentile(x, 0), 1);
  EXPECT_DOUBLE_EQ(Percentile(x, 100), 10);
  EXPECT_DOUBLE_EQ(Percentile({}, 50), 0);
  EXPECT_DOUBLE_EQ(Percentile({42}, 99), 42);
}

// One slow run among steady ones stays visible: in max, p99 and the outlier count, while the
// median does not move.
TEST(StatisticsTest, SummaryKeepsOutliersVisible) {
  std::vector<double> runs(99, 1.0);
  runs.push_back(50.0);
  const SampleSummary s = Summarize(runs);
  EXPECT_EQ(s.count, 100);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 50.0);
  EXPECT_DOUBLE_EQ(s.median, 1.0);
  EXPECT_DOUBLE_EQ(s.p95, 1.0);
  EXPECT_NEAR(s.p99, 1.49, 1e-12);  // 1 + 0.01 * 49
  EXPECT_DOUBLE_EQ(s.mean, 1.49);
  EXPECT_EQ(s.outliers_high, 1);
  EXPECT_EQ(s.outliers_low, 0);
  EXPECT_NEAR(s.stddev, 4.875438, 1e-6);  // np.std
}

TEST(StatisticsTest, EmptySampleIsAllZero) {
  const SampleSummary s = Summarize({});
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.max, 0);
}

}  // namespace
}  // namespace fusescope::profiler
