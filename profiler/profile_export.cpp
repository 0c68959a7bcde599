#include "profiler/profile_export.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "ir/json_writer.h"

namespace fusescope::profiler {
namespace {

double MedianLatency(const Profile& profile) {
  if (!profile.run_latency_us.empty()) return Summarize(profile.run_latency_us).median;
  double sum = 0;
  for (const KernelTime& kernel : profile.kernels) sum += kernel.Summary().median;
  return sum;
}

}  // namespace

void WriteChromeTrace(const Profile& profile, const std::vector<std::string>& order,
                      std::ostream& out) {
  std::vector<const KernelTime*> kernels;
  std::unordered_map<std::string, size_t> rank;
  for (size_t i = 0; i < order.size(); ++i) rank.emplace(order[i], i);
  for (const KernelTime& kernel : profile.kernels) kernels.push_back(&kernel);
  std::stable_sort(kernels.begin(), kernels.end(), [&](const KernelTime* a, const KernelTime* b) {
    const size_t ra = rank.count(a->name) ? rank.at(a->name) : order.size();
    const size_t rb = rank.count(b->name) ? rank.at(b->name) : order.size();
    return ra < rb;
  });
  size_t runs = profile.run_latency_us.size();
  for (const KernelTime* kernel : kernels) runs = std::max(runs, kernel->samples_us.size());

  JsonWriter json(/*pretty=*/false);
  json.BeginObject();
  json.Key("displayTimeUnit").String("ns");
  json.Key("otherData").BeginObject();
  json.Key("profile").String(profile.label);
  json.Key("source").String(profile.source);
  json.Key("device").String(profile.device);
  json.Key("settings").String(profile.settings);
  json.Key("created_at").String(profile.created_at);
  json.Key("layout").String(
      "kernel durations are measured; start times are not recorded: each run's kernels are "
      "laid out back to back in schedule order");
  json.EndObject();
  json.Key("traceEvents").BeginArray();
  json.BeginObject();
  json.Key("ph").String("M");
  json.Key("name").String("process_name");
  json.Key("pid").Int(1);
  json.Key("args").BeginObject().Key("name").String(profile.label).EndObject();
  json.EndObject();
  double run_start = 0;
  for (size_t run = 0; run < runs; ++run) {
    double at = run_start;
    double kernels_sum = 0;
    for (const KernelTime* kernel : kernels) {
      if (run >= kernel->samples_us.size()) continue;
      const double duration = kernel->samples_us[run];
      json.BeginObject();
      json.Key("ph").String("X");
      json.Key("name").String(kernel->name);
      json.Key("pid").Int(1);
      json.Key("tid").Int(1);
      json.Key("ts").Double(at);
      json.Key("dur").Double(duration);
      json.Key("args").BeginObject();
      json.Key("run").Int(static_cast<int64_t>(run));
      json.Key("instruction_id").Int(kernel->instruction_id);
      json.Key("share").Double(kernel->share);
      json.EndObject();
      json.EndObject();
      at += duration;
      kernels_sum += duration;
    }
    const double latency =
        run < profile.run_latency_us.size() ? profile.run_latency_us[run] : kernels_sum;
    run_start += std::max(latency, kernels_sum);
  }
  json.EndArray();
  json.EndObject();
  out << json.str() << '\n';
}

ProfileComparison CompareProfiles(const Profile& before, const Profile& after) {
  ProfileComparison comparison;
  comparison.before_latency_us = MedianLatency(before);
  comparison.after_latency_us = MedianLatency(after);
  std::map<std::string, KernelComparison> rows;
  for (const KernelTime& kernel : before.kernels) {
    KernelComparison& row = rows[kernel.name];
    row.name = kernel.name;
    row.in_before = true;
    row.before_median_us = kernel.Summary().median;
    row.before_share = kernel.share;
  }
  for (const KernelTime& kernel : after.kernels) {
    KernelComparison& row = rows[kernel.name];
    row.name = kernel.name;
    row.in_after = true;
    row.after_median_us = kernel.Summary().median;
    row.after_share = kernel.share;
  }
  for (auto& [name, row] : rows) {
    comparison.only_before += row.in_before && !row.in_after;
    comparison.only_after += row.in_after && !row.in_before;
    comparison.kernels.push_back(row);
  }
  std::stable_sort(comparison.kernels.begin(), comparison.kernels.end(),
                   [](const KernelComparison& a, const KernelComparison& b) {
                     return std::fabs(a.delta_us()) > std::fabs(b.delta_us());
                   });
  return comparison;
}

}  // namespace fusescope::profiler
