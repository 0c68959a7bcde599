#ifndef FUSESCOPE_RECORDING_OPERATION_COUNTS_H_
#define FUSESCOPE_RECORDING_OPERATION_COUNTS_H_

// How big a module is, counted the way a reader of a pass table expects. The instructions
// inside fused computations are part of the fusion that calls them, not work of their own:
// counting them with the rest makes a fusion pass read as if it had added work. So a module
// is counted as operations (the instructions of computations that are not fusion bodies:
// the entry, control flow and reduction bodies), the fusions among them, and the
// instructions those fusions hold.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/module.h"
#include "recording/recording.h"
#include "recording/snapshot.h"

namespace fusescope::recording {

struct OperationCounts {
  int64_t operations = 0;          // instructions outside fusion bodies
  int64_t fusions = 0;             // fusion instructions among the operations
  int64_t fused_instructions = 0;  // instructions inside fusion bodies, nested ones included

  int64_t instructions() const { return operations + fused_instructions; }
  bool operator==(const OperationCounts& other) const = default;
};

// A computation is a fusion body when a fusion instruction calls it.
OperationCounts CountOperations(const Snapshot& snapshot);
OperationCounts CountOperations(const ir::Module& module);

// passes.size() + 1 entries: [0] counts the input, [i + 1] the module after pass i (zero
// where the recording lacks that snapshot).
std::vector<OperationCounts> CountSnapshots(const Recording& recording);

// "131 → 40 operations, 17 fusions holding 98 instructions"; "40 operations" when the two are
// equal, and no fusion part when the after side has none.
std::string DescribeCounts(const OperationCounts& before, const OperationCounts& after);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_OPERATION_COUNTS_H_
