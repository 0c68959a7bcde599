#include "profiler/tensorrt_profile.h"

#include <algorithm>

namespace fusescope::profiler {

std::optional<Profile> TensorRtProfile(const ir::TensorRtImport& imported, std::string label) {
  if (!imported.layer_profile && !imported.times) return std::nullopt;
  Profile profile;
  profile.label = std::move(label);
  profile.source = "tensorrt";
  profile.device = "TensorRT engine (trtexec's own measurements)";
  profile.created_at = UtcNow();
  profile.snapshot_index = 1;  // the engine
  if (imported.times) {
    for (const ir::TensorRtInference& inference : imported.times->inferences) {
      profile.run_latency_us.push_back(inference.latency_ms * 1000);
    }
  }
  const int64_t profiled = imported.layer_profile ? imported.layer_profile->count : 0;
  const auto timed = static_cast<double>(profile.run_latency_us.size());
  for (const ir::TensorRtNodeTime& time : imported.node_times) {
    KernelTime kernel;
    kernel.instruction_id = time.instruction_id;
    kernel.name = time.instruction_name;
    kernel.samples_us = {time.median_ms * 1000};
    const double total_ms =
        time.total_ms > 0 ? time.total_ms : time.average_ms * static_cast<double>(profiled);
    kernel.total_us = timed > 0 ? time.average_ms * 1000 * timed : total_ms * 1000;
    profile.kernels.push_back(std::move(kernel));
  }
  const double total_us = profile.TotalUs();
  for (KernelTime& kernel : profile.kernels) {
    kernel.share = total_us > 0 ? kernel.total_us / total_us : 0;
  }
  std::stable_sort(
      profile.kernels.begin(), profile.kernels.end(),
      [](const KernelTime& a, const KernelTime& b) { return a.total_us > b.total_us; });
  std::string settings;
  if (imported.layer_profile) {
    settings = "layers: TensorRT's median over " + std::to_string(profiled) +
               " profiled inferences (synchronised per layer)";
  }
  if (imported.times) {
    settings += std::string(settings.empty() ? "" : "; ") +
                "runs=" + std::to_string(imported.times->inferences.size()) +
                " timed inferences (latency: H2D + compute + D2H)";
  }
  profile.settings = std::move(settings);
  return profile;
}

}  // namespace fusescope::profiler
