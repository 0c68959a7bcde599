#include "profiler/cpu_counters.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <cmath>

namespace fusescope::profiler {
namespace {

double Spin(int n) {
  double x = 0;
  for (int i = 0; i < n; ++i) x += std::sqrt(static_cast<double>(i));
  return x;
}

// Every counter is either read or explained; the software task clock needs no PMU and is
// readable wherever perf_event_open exists at all.
TEST(CpuCountersTest, EveryCounterIsReadOrExplained) {
  CpuCounters counters;
  counters.Start();
  volatile double sink = Spin(2'000'000);
  (void)sink;
  counters.Stop();
  bool any_available = false;
  for (const CounterReading& reading : counters.Read()) {
    if (reading.available) {
      any_available = true;
      EXPECT_TRUE(reading.unavailable_reason.empty()) << reading.name;
      if (reading.name == "task-clock") {
        EXPECT_GT(reading.value, 0u);
      }
      if (reading.name == "instructions") {
        EXPECT_GT(reading.value, 1'000'000u);
      }
    } else {
      EXPECT_FALSE(reading.unavailable_reason.empty()) << reading.name;
      EXPECT_NE(counters.UnavailableSummary().find(reading.name), std::string::npos);
    }
  }
  if (!any_available) GTEST_SKIP() << "perf_event_open gives nothing here: "
                                   << counters.UnavailableSummary();
}

// A counter the kernel cannot open (an undefined hardware event) takes the fallback path:
// unavailable with a reason, the others unaffected, nothing throws or crashes.
TEST(CpuCountersTest, AnUnopenableCounterFallsBackWithAReason) {
  CpuCounters counters({{"bogus", PERF_TYPE_HARDWARE, 0xfffffff},
                        {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}});
  counters.Start();
  counters.Stop();
  const std::vector<CounterReading> readings = counters.Read();
  ASSERT_EQ(readings.size(), 2u);
  EXPECT_FALSE(readings[0].available);
  EXPECT_FALSE(readings[0].unavailable_reason.empty());
  EXPECT_EQ(counters.UnavailableSummary().rfind("bogus unavailable: ", 0), 0u)
      << counters.UnavailableSummary();
  EXPECT_FALSE(counters.any_hardware_counter());
}

}  // namespace
}  // namespace fusescope::profiler
