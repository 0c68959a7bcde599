#ifndef FUSESCOPE_PASSES_LITERAL_EVALUATOR_H_
#define FUSESCOPE_PASSES_LITERAL_EVALUATOR_H_

// Computes one instruction on constant operands, with XLA's semantics for the cases that
// differ from C++ (integer division by zero, nan in maximum/minimum, saturating float to
// integer conversion). Supported: elementwise unary and binary arithmetic, logic, compare,
// select, convert, broadcast, reshape and transpose, over the types LiteralValue computes.

#include <optional>
#include <vector>

#include "ir/instruction.h"
#include "passes/literal_value.h"

namespace fusescope::passes {

// The result literal, or nullopt when the opcode, a type or an attribute is not supported
// (the caller then leaves the instruction alone).
std::optional<LiteralValue> EvaluateOnLiterals(const ir::Instruction& instruction,
                                               const std::vector<LiteralValue>& operands);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_LITERAL_EVALUATOR_H_
