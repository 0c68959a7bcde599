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

// Ids of the instructions that contribute to what the module does: reachable through
// operands from the entry's root and its side-effecting instructions, and into the bodies of
// while, conditional, call and fusion. Reducers and comparators count as part of the
// instruction that applies them; fused parameters only stand for the fusion's operands.
std::unordered_set<int64_t> LiveInstructionIds(const ir::Module& module);

// An error naming the first id of `live` (see LiveInstructionIds of the module as it was
// read) that no instruction of `module` answers for: a pass dropped work without handing
// its provenance on.
Status CheckProvenanceCovers(const ir::Module& module, const std::unordered_set<int64_t>& live);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PROVENANCE_UTIL_H_
