#ifndef FUSESCOPE_PASSES_INSTRUCTION_CLONE_H_
#define FUSESCOPE_PASSES_INSTRUCTION_CLONE_H_

// Copying one instruction over new operands, for passes that move work between
// computations (fusion, call inlining).

#include <memory>
#include <string>
#include <vector>

#include "ir/instruction.h"

namespace fusescope::passes {

// A copy of `original` over `operands`: opcode (unknown spellings kept), shape, attributes
// in written order (called computations included), literal, parameter number, metadata and
// provenance. The id is unset and the name is `name`; the copy has no parent yet.
std::unique_ptr<ir::Instruction> CloneWithOperands(const ir::Instruction& original,
                                                   std::vector<ir::Instruction*> operands,
                                                   std::string name);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_INSTRUCTION_CLONE_H_
