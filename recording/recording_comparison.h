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
//    what each holds that the other's does not, with the refusals that kept those apart),
//    and fusions of one that share no member with any of the other's. Fusions that compute
//    the same output pair first; members that cheap producers duplicated into several
//    fusions pair fusions only where nothing else does;
//  - every producer -> consumer edge of the input fused in one only, with the other
//    recording's own last refusal of it: the decision that made them differ.
// ComparePass does the same for the fusions one pass formed.

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

// Why members are in one recording's fusion and not in the other's: the other recording's
// last refusal of a pair whose one end held such a member and whose other end held more of
// the fusion (on the CPU pipeline, the operand budget refusing "add.103 -> fusion.2").
struct FusionRefusal {
  bool refused_by_b = false;    // the members are in A's fusion only, and B refused; or A did
  int64_t decision_index = -1;  // into the refusing recording's decisions; -1: none recorded
  std::string pass;             // the refusing pass's name
  int64_t pass_index = -1;
  std::string producer, consumer;    // as that recording named them then
  std::string reason, explanation;   // code and sentence
  std::vector<std::string> members;  // the members it kept out of the fusion
};

// One final fusion, or two that hold some of the same input instructions.
struct FusionMatch {
  std::string fusion_a, fusion_b;   // "" for a fusion of one recording only
  int64_t fusion_a_id = -1, fusion_b_id = -1;  // in the snapshots compared
  std::vector<std::string> common;  // input instructions both answer for ("exp.1")
  std::vector<std::string> only_a;  // members only A's fusion holds
  std::vector<std::string> only_b;
  std::vector<int64_t> member_ids;  // the input ids of all three lists, ascending
  // A fusion of B that no fusion of A was paired with from A's side (one that computes
  // what B's does, or else shares members only they hold): it holds members of A's.
  bool from_b = false;
  // For fusions that differ: the refusals that kept only_a out of B's fusion and (unless
  // from_b) only_b out of A's, each decision once; members no refusal explains come last,
  // in one entry with decision_index -1 per side.
  std::vector<FusionRefusal> refusals;
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

// Pass `index` of both recordings: its row of RecordingComparison::passes, the fusions after
// it that it formed or changed in A or in B (matched by members, as the final fusions are),
// and the edges fused by one only after it whose state that pass changed in either, with
// the other's last refusal up to that pass.
struct PassFusionComparison {
  PassComparison pass;
  std::vector<FusionMatch> same;
  std::vector<FusionMatch> different;
  std::vector<FusionMatch> only_a;
  std::vector<FusionMatch> only_b;
  std::vector<FusedPair> edges_only_a;
  std::vector<FusedPair> edges_only_b;
  int64_t accepted_a = 0, refused_a = 0;  // the pass's fusion decisions
  int64_t accepted_b = 0, refused_b = 0;
};

// Errors when the two do not start from the same module or one has no snapshots.
StatusOr<RecordingComparison> CompareRecordings(const Recording& a, const Recording& b);
// Also errors when neither recording has pass `index`.
StatusOr<PassFusionComparison> ComparePass(const Recording& a, const Recording& b, int64_t index);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDING_COMPARISON_H_
