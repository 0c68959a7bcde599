#ifndef FUSESCOPE_IR_VERIFIER_H_
#define FUSESCOPE_IR_VERIFIER_H_

// Checks that a module is well formed, first its structure, then every instruction's shape
// against the shape inferred from its operands (InferShape, ir/shape_inference.h).
//
// Structure: an entry computation; unique computation names, instruction names and ids
// module-wide; every computation has a root of its own; operands and users agree both ways
// and stay inside the computation; no cycles among instructions or among calling
// computations; parameters numbered 0..n-1 once each; called computations belong to the
// module; fixed-arity opcodes have their operand count.
//
// Shapes: element type and dimensions must match (layouts are ignored, tuples compared
// element by element). Ops InferShape does not cover, unknown opcodes included, are trusted.
//
// The first problem found is returned, as one line naming the computation, the instruction
// and the mismatch: "computation main, instruction %add.3: operand 1 shape f32[4] does not
// match f32[8]". Runs in time linear in the size of the module.

#include "ir/module.h"
#include "ir/shape_inference.h"
#include "ir/status.h"

namespace fusescope::ir {

Status VerifyModule(const Module& module);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_VERIFIER_H_
