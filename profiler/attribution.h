#ifndef FUSESCOPE_PROFILER_ATTRIBUTION_H_
#define FUSESCOPE_PROFILER_ATTRIBUTION_H_

// Carries a profile's measured kernel times back to the model and onto any pass's graph.
//
// A kernel is an instruction of the profiled snapshot. Its time is split over what it
// executes (a fusion's fused instructions) in proportion to a roofline estimate of each
// (max(FLOPs / peak, bytes / bandwidth)), and each part over the input module's
// instructions that instruction answers for (provenance), again by their estimates — an
// ESTIMATE, always labelled so: only the kernel's total was measured.
// Any snapshot's node then gets the time of the input instructions it answers for; on the
// profiled snapshot itself each kernel keeps its measured time.

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/status.h"
#include "profiler/profile.h"
#include "profiler/xla_trace.h"
#include "recording/recording.h"

namespace fusescope::profiler {

struct RooflineRates {
  double flops_per_second = 1e11;  // used when no machine figures are at hand
  double bytes_per_second = 1e10;
};

struct Attribution {
  // Input-snapshot instruction id -> estimated microseconds over all runs of the profile.
  std::map<int64_t, double> original_us;
  double profile_total_us = 0;
  int64_t kernels_attributed = 0;
  std::vector<std::string> kernels_without_provenance;  // measured but answering for nothing
  double unattributed_us = 0;  // their time: it reaches no model instruction
  std::vector<std::string> kernels_not_found;           // not in the profiled snapshot
};

StatusOr<Attribution> AttributeToOriginals(const recording::Recording& recording,
                                           const Profile& profile, RooflineRates rates = {});

struct HotNode {
  int64_t instruction_id = -1;
  std::string name;
  std::string opcode;
  std::string computation;
  double time_us = 0;
  double share = 0;       // of the profile's total
  bool measured = false;  // a kernel of the profiled snapshot: its own measured time
  // The input instructions it answers for that carry time, largest first (names), and
  // their distinct source lines.
  std::vector<std::string> originals;
  std::vector<std::string> op_names;  // their distinct metadata op_name (ONNX node names, jax scopes)
  std::vector<SourceLine> source_lines;
};

// The nodes of `snapshot_index` that carry time, largest first. Instructions inside fused
// computations are left out (their fusion carries them). A model instruction answered for by
// several nodes (a bitcast of a dot's result fused into an elementwise kernel answers for the
// dot too) shares its time among them by the work each does for it, so no time is counted
// twice: the nodes' times add up to the attributed total.
StatusOr<std::vector<HotNode>> HotNodes(const recording::Recording& recording,
                                        const Profile& profile, const Attribution& attribution,
                                        int64_t snapshot_index, RooflineRates rates = {});

// Each node's share of the profile's time counting what it runs: a while loop, call or
// conditional carries its own share and those of everything in the computations it calls
// (split evenly where several call one). The graphs show the entry computation, where a loop
// is one node, so its heat must be its body's. Keyed by instruction id.
StatusOr<std::unordered_map<int64_t, double>> InclusiveShares(const recording::Recording& recording,
                                                              int64_t snapshot_index,
                                                              const std::vector<HotNode>& nodes);

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_ATTRIBUTION_H_
