#include "profiler/profile_export.h"

#include <gtest/gtest.h>

#include <sstream>

#include "ir/json_reader.h"
#include "profiler/xla_trace.h"

namespace fusescope::profiler {
namespace {

Profile TwoKernels() {
  Profile profile;
  profile.label = "p";
  profile.run_latency_us = {12, 14};
  profile.kernels.push_back({1, "dot_fusion", {8, 9}, 17, 0.65});
  profile.kernels.push_back({2, "add_fusion", {2, 3}, 5, 0.19});
  return profile;
}

// The export is valid JSON that reads back as a trace: one event per kernel per run, in
// schedule order within a run, runs one after another.
TEST(ProfileExportTest, ChromeTraceReadsBackWithTheExpectedEvents) {
  std::ostringstream out;
  WriteChromeTrace(TwoKernels(), {"p0", "add_fusion", "dot_fusion"}, out);
  StatusOr<JsonValue> json = ParseJson(out.str());
  ASSERT_TRUE(json.ok()) << json.message();
  const JsonValue* events = json->Find("traceEvents");
  ASSERT_NE(events, nullptr);
  std::vector<std::tuple<std::string, double, double>> complete;
  for (const JsonValue& event : events->array()) {
    if (event.Text("ph") == "X") {
      complete.emplace_back(event.Text("name"), event.Find("ts")->number(),
                            event.Find("dur")->number());
    }
  }
  ASSERT_EQ(complete.size(), 4u);
  EXPECT_EQ(complete[0], std::make_tuple(std::string("add_fusion"), 0.0, 2.0));
  EXPECT_EQ(complete[1], std::make_tuple(std::string("dot_fusion"), 2.0, 8.0));
  EXPECT_EQ(complete[2], std::make_tuple(std::string("add_fusion"), 12.0, 3.0));  // run 2 at 12 us
  EXPECT_EQ(complete[3], std::make_tuple(std::string("dot_fusion"), 15.0, 9.0));
  EXPECT_NE(json->Find("otherData")->Text("layout").find("start times are not recorded"),
            std::string::npos);
}

TEST(ProfileExportTest, ComparisonShowsDeltasAndKernelsThatMoved) {
  Profile before = TwoKernels();
  Profile after;
  after.label = "after";
  after.run_latency_us = {9, 9};
  after.kernels.push_back({1, "dot_fusion", {5, 5}, 10, 0.7});
  after.kernels.push_back({3, "add_negate_fusion", {1, 1}, 2, 0.1});
  const ProfileComparison comparison = CompareProfiles(before, after);
  EXPECT_DOUBLE_EQ(comparison.before_latency_us, 13);
  EXPECT_DOUBLE_EQ(comparison.after_latency_us, 9);
  EXPECT_EQ(comparison.only_before, 1);  // add_fusion is gone
  EXPECT_EQ(comparison.only_after, 1);   // add_negate_fusion is new
  ASSERT_EQ(comparison.kernels.size(), 3u);
  EXPECT_EQ(comparison.kernels[0].name, "dot_fusion");  // largest |delta| first: 8.5 -> 5
  EXPECT_DOUBLE_EQ(comparison.kernels[0].delta_us(), -3.5);
  EXPECT_TRUE(comparison.kernels[0].in_before && comparison.kernels[0].in_after);
}

}  // namespace
}  // namespace fusescope::profiler
