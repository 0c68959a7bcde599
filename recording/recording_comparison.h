#ifndef FUSESCOPE_RECORDING_RECORDING_COMPARISON_H_
#define FUSESCOPE_RECORDING_RECORDING_COMPARISON_H_

// Two recordings of one model compared: what a what-if experiment asks ("what if this pass
// did not run, what if the fusion limit were smaller"). A and B must start from the same
// module (same instruction ids, as two compiles of one file do). Compared are
//  - the options each ran with, where they differ;
//  - pass by pass: each pass's name, whether it ran and changed the module, and the operation
//    and fusion counts after it, in A and in B side by side (row N is pass N of both);
//  - the final fusions, by the input instructions each one answers for (parameters and
//    constants aside): fusions of A with a twin of the same members in B, fusions of A and B
//    that share members without being twins (one entry per such pair: what both hold and
//    what each holds that the other's does not), and fusions of one that share no member with
//    any of the other's;
//  - every producer -> consumer edge of the input fused in one only, with the other
//    recording's own last refusal of it: the decision that made them differ.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/status.h"
#include "recording/fusion_comparison.h"
#include "recording/recording.h"

namespace fusescope::recording {

struct PassComparison {
  int64_t index = 0;
  std::string name_a, name_b;  // "" past the end of a shorter run
  bool skipped_a = false, skipped_b = false;
  bool changed_a = false, changed_b = false;
  int64_t operations_a = 0, operations_b = 0;  // after the pass, outside fusions
  int64_t fusions_a = 0, fusions_b = 0;        // after the pass
};

// One final fusion, or two that hold some of the same input instructions.
struct FusionMatch {
  std::string fusion_a, fusion_b;   // "" for a fusion of one recording only
  std::vector<std::string> common;  // input instructions both answer for ("exp.1")
  std::vector<std::string> only_a;  // members only A's fusion holds
  std::vector<std::string> only_b;
};

struct RecordingComparison {
  std::vector<std::pair<std::string, std::string>> options_a, options_b;  // differing only
  std::vector<PassComparison> passes;
  std::vector<FusionMatch> same;       // equal members
  std::vector<FusionMatch> different;  // overlapping, unequal members
  std::vector<FusionMatch> only_a;     // no member in any fusion of B
  std::vector<FusionMatch> only_b;
  // Edges fused by one only; `second_reason` is the other's refusal (B's for only_a).
  std::vector<FusedPair> edges_only_a;
  std::vector<FusedPair> edges_only_b;
  int64_t edges_both = 0;
  int64_t edges = 0;
};

// Errors when the two do not start from the same module or one has no snapshots.
StatusOr<RecordingComparison> CompareRecordings(const Recording& a, const Recording& b);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDING_COMPARISON_H_
