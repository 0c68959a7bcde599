#ifndef FUSESCOPE_RECORDING_FUSION_COMPARISON_H_
#define FUSESCOPE_RECORDING_FUSION_COMPARISON_H_

// Two compilers' fusion of one model, pair by pair: for every producer -> consumer edge of a
// base module, whether each compiler's final module holds both ends in one fusion, and,
// where the first fused and the second did not, the second's own recorded reason. Built for
// XLA against our pipeline: `first` is an imported XLA dump and the base is its snapshot
// just before its first fusing pass (simplified, layouts assigned, calls inlined: what XLA's
// fusion passes saw); `second` is our pipeline's recording of that very module, so its
// input ids are the base's.
//
// An edge counts as fused when one fusion instruction of the final module (any kind, XLA's
// library fusions included) answers for everything both ends answer for. Edges from
// parameters and constants, and into tuples, are left out: they say nothing about fusion.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::recording {

struct FusedPair {
  int64_t producer_id = -1;  // in the input module
  int64_t consumer_id = -1;
  std::string producer;      // "exp.1 (exponential)"
  std::string consumer;
  std::string computation;
  std::string first_fusion;   // the fusion holding both, "" when not fused
  std::string second_fusion;
  // Only for pairs the first fused and the second did not: the second's last refusal on a
  // producer and consumer answering for these two ("" when it never considered the pair).
  std::string second_reason;
  std::string second_explanation;
  std::string second_pass;  // the pass that refused it
};

struct FusionComparison {
  std::vector<FusedPair> both;
  std::vector<FusedPair> only_first;
  std::vector<FusedPair> only_second;
  int64_t neither = 0;
  int64_t edges = 0;
};

// The snapshot before the first pass that raised the number of fusions (0 when none did).
int64_t SnapshotBeforeFirstFusion(const Recording& recording);

// Errors when `second` does not start from `first`'s base snapshot (different ids).
// `first_snapshot` and `second_snapshot` pick the snapshots whose fusions are compared (-1:
// the final ones); a refusal is then looked up among the passes before the second's.
StatusOr<FusionComparison> CompareFusion(const Recording& first, int64_t first_base_snapshot,
                                         const Recording& second, int64_t first_snapshot = -1,
                                         int64_t second_snapshot = -1);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_FUSION_COMPARISON_H_
