#ifndef FUSESCOPE_IR_SHAPE_INFERENCE_H_
#define FUSESCOPE_IR_SHAPE_INFERENCE_H_

// Shape inference for one instruction from its operands, attributes and called
// computations, following XLA's rules. Element types must agree where XLA requires it
// (elementwise operands, select branches, concatenated pieces, reducer signatures); dot and
// convolution take their result element type from the written shape, as XLA's
// preferred_element_type does, and so do convert, iota and the extents that only the written
// shape knows (broadcast's new dimensions, reshape's target).

#include <optional>

#include "ir/instruction.h"
#include "ir/shape.h"
#include "ir/status.h"

namespace fusescope::ir {

// The inferred shape (layout left empty); nullopt for ops it does not infer (parameters,
// constants, custom-calls, collectives whose result depends on the device topology, unknown
// opcodes, anything with an unbounded `?` dimension), whose written shape is then trusted;
// an error naming the mismatch when operands, attributes or called computations are
// malformed. Precondition: the structure is sound, as the first phase of VerifyModule
// checks it (operands and called computations non-null, fixed-arity opcodes with their
// operand count, every called computation with a root and numbered parameters).
StatusOr<std::optional<Shape>> InferShape(const Instruction& instruction);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_SHAPE_INFERENCE_H_
