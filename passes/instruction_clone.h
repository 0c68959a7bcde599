#ifndef FUSESCOPE_PASSES_INSTRUCTION_CLONE_H_
#define FUSESCOPE_PASSES_INSTRUCTION_CLONE_H_

// Copying one instruction over new operands, for passes that move work between
// computations (fusion, call inlining).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/instruction.h"
#include "ir/module.h"

namespace fusescope::passes {

// A copy of `original` over `operands`: opcode (unknown spellings kept), shape, attributes
// in written order (called computations included), literal, parameter number, metadata and
// provenance. The id is unset and the name is `name`; the copy has no parent yet.
std::unique_ptr<ir::Instruction> CloneWithOperands(const ir::Instruction& original,
                                                   std::vector<ir::Instruction*> operands,
                                                   std::string name);

// Copies the instructions of `body` into `caller` in place of a call or fusion whose operands
// are `operands`: body parameter N stands for operands[N]. With `move` (the body goes away
// afterwards) the copies keep names and ids and copied fusions take their fused
// computations along; otherwise they get fresh names and ids and copies of those fused
// computations. Returns each body instruction's value in `caller`, in the body's post order.
std::vector<std::pair<const ir::Instruction*, ir::Instruction*>> CopyBodyInto(
    const ir::Computation& body, ir::Computation& caller,
    const std::vector<ir::Instruction*>& operands, bool move);

// A copy of the fused computation `body` added to `module` under a fresh name, its
// instructions with fresh names and ids (provenance kept) and nested fusions' bodies copied
// too, so that the copy can be the body of another fusion instruction: a fused computation
// belongs to exactly one fusion. The copy's fusion instruction is left for the caller to set.
ir::Computation* CloneFusedComputation(const ir::Computation& body, ir::Module& module);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_INSTRUCTION_CLONE_H_
