#ifndef FUSESCOPE_PASSES_PROVENANCE_UTIL_H_
#define FUSESCOPE_PASSES_PROVENANCE_UTIL_H_

// Checks of the provenance invariant that passes must keep: every instruction answers for at
// least one instruction of the module as it was read, and only for instructions that
// existed there.

#include <cstdint>
#include <unordered_set>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::passes {

// The ids of every instruction of `module`, fused computations included.
std::unordered_set<int64_t> InstructionIds(const ir::Module& module);

// An error naming the first instruction whose provenance is empty or names an id outside
// `original` (the ids of the module as it was read).
Status CheckProvenance(const ir::Module& module, const std::unordered_set<int64_t>& original);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PROVENANCE_UTIL_H_
