#ifndef FUSESCOPE_IR_VERIFIER_H_
#define FUSESCOPE_IR_VERIFIER_H_

// Structural checks (operand/user consistency, unique names, roots, parameters, called
// computations) and shape inference for the core ops. An error names the computation, the
// instruction and the mismatch: "computation main, instruction %add.3: operand 1 shape
// f32[4] does not match f32[8]".

#include <optional>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::ir {

Status VerifyModule(const Module& module);

// Shape inference for one instruction from its operands and attributes: the inferred shape
// (layout left empty); nullopt for ops it does not infer (the verifier then trusts the
// written shape); an error naming the mismatch when the operands or attributes are malformed.
StatusOr<std::optional<Shape>> InferShape(const Instruction& instruction);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_VERIFIER_H_
