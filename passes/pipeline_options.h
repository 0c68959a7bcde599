#ifndef FUSESCOPE_PASSES_PIPELINE_OPTIONS_H_
#define FUSESCOPE_PASSES_PIPELINE_OPTIONS_H_

// User-controllable knobs of the built-in pipelines (CLI: --disable-pass, --stop-after,
// --fusion-limit KEY=VALUE).

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

struct PipelineOptions {
  std::string target = "cpu";               // "cpu" or "gpu"
  FusionLimits fusion;
  std::set<std::string> disabled_passes;    // by pass name
  std::string stop_after;                   // pass name; empty = run all
  bool verify_between_passes = true;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PIPELINE_OPTIONS_H_
