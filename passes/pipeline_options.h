#ifndef FUSESCOPE_PASSES_PIPELINE_OPTIONS_H_
#define FUSESCOPE_PASSES_PIPELINE_OPTIONS_H_

// User-controllable knobs of the built-in pipelines (CLI: --pipeline, --disable-pass,
// --stop-after, --set KEY=VALUE). The tunable ones are named, with their defaults and
// meaning, in pipeline_option_table.h.

#include <cstdint>
#include <set>
#include <string>

namespace fusescope::passes {

struct FusionLimits {
  int64_t max_operands_and_outputs = 64;   // GPU: 64; CPU uses a larger budget
  int64_t max_reductions = 8;               // GPU unnested reductions; CPU: 5
  int64_t max_instructions = 128;           // per fused computation
  int64_t max_concat_operands = 8;
  bool allow_duplication = true;            // duplicate cheap producers into several users
  bool multi_output = true;                 // sibling / producer-consumer multi-output fusion
  bool output_fusion = true;                // dot/conv with bias/activation epilogue
};

// The device the GPU pipeline's cost model (gpu_performance_model.h) estimates kernel times
// for: an H100-class device by default. In the units a user writes them (see
// pipeline_option_table.h); what the decisions depend on is their ratios.
struct GpuDeviceDescription {
  double memory_bandwidth_gb_per_s = 3350;  // 1e9 bytes per second
  double peak_tflops = 67;                  // 1e12 flops per second
  double kernel_launch_us = 1;              // per kernel
};

struct PipelineOptions {
  std::string target = "cpu";               // "cpu" or "gpu"
  FusionLimits fusion;
  GpuDeviceDescription gpu_device;          // read by the gpu pipeline's fusion passes
  std::set<std::string> disabled_passes;    // by pass name
  std::string stop_after;                   // pass name; empty = run all
  bool verify_between_passes = true;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PIPELINE_OPTIONS_H_
