#ifndef FUSESCOPE_IR_SHAPE_INFERENCE_INTERNAL_H_
#define FUSESCOPE_IR_SHAPE_INFERENCE_INTERNAL_H_

// Shared by the shape_inference_*.cpp files only: the per-family inference functions and
// the checks they have in common. Error texts are fragments that the verifier prefixes with
// the computation and instruction.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attribute_values.h"
#include "ir/computation.h"
#include "ir/instruction.h"
#include "ir/shape.h"
#include "ir/status.h"

namespace fusescope::ir::inference {

using Inferred = StatusOr<std::optional<Shape>>;

// Per family; each is called only for the opcodes its file handles.
Inferred InferElementwise(const Instruction& instruction);
Inferred InferConversion(const Instruction& instruction);
Inferred InferDataMovement(const Instruction& instruction);
Inferred InferGatherScatter(const Instruction& instruction);
Inferred InferReduction(const Instruction& instruction);
Inferred InferContraction(const Instruction& instruction);
Inferred InferControlFlow(const Instruction& instruction);

// "f32[8,16]" (layout omitted).
std::string ShapeText(const Shape& shape);
// "{0,1}".
std::string ListText(const std::vector<int64_t>& values);
std::string TypeText(PrimitiveType type);
// `name` with a % sigil: "%add.3".
std::string InstructionText(const Instruction& instruction);

Status ExpectOperandCount(const Instruction& instruction, int64_t count);
// The operand's shape, or an error when it is not an array.
StatusOr<const Shape*> ArrayOperand(const Instruction& instruction, int64_t index);
// The written shape, or an error when it is not an array.
StatusOr<const Shape*> ArrayResult(const Instruction& instruction);

// `key={1,2}`; an error when absent or malformed.
StatusOr<std::vector<int64_t>> RequiredIntList(const Instruction& instruction,
                                               std::string_view key);
// Empty when absent.
StatusOr<std::vector<int64_t>> OptionalIntList(const Instruction& instruction,
                                               std::string_view key);
StatusOr<int64_t> RequiredInt(const Instruction& instruction, std::string_view key);
StatusOr<std::string_view> RequiredAttribute(const Instruction& instruction, std::string_view key);

// Each of `dims` lies in [0, rank) and none repeats; `what` names the list in errors.
Status CheckDimensions(std::string_view what, const std::vector<int64_t>& dims, int64_t rank);

// Same element type and dimensions (layouts and dynamic markers ignored).
bool SameArrayShape(const Shape& a, const Shape& b);
bool SameTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b);
// "operand 1 shape f32[4] does not match f32[8]" unless operand `index` has `expected`'s
// element type and dimensions.
Status ExpectOperandShape(const Instruction& instruction, int64_t index, const Shape& expected);

// The one computation stored under `key`, or an error.
StatusOr<const Computation*> CalledComputation(const Instruction& instruction,
                                               std::string_view key);
// The result of a computation that must return one scalar or a tuple of `count` scalars:
// their element types.
StatusOr<std::vector<PrimitiveType>> ScalarResults(const Computation& computation,
                                                   std::string_view key, size_t count);
// A computation called under `key` with N accumulators: 2N scalar parameters (accumulators
// of `init_types`, then inputs of `input_types`) returning N scalars of the accumulator
// types (XLA tolerates floating-point precision differences in each). Returns the result
// element types.
StatusOr<std::vector<PrimitiveType>> CheckReducer(const Instruction& instruction,
                                                  std::string_view key,
                                                  const std::vector<PrimitiveType>& init_types,
                                                  const std::vector<PrimitiveType>& input_types);
// A computation called under `key` taking `types` as scalar parameters and returning pred[].
Status CheckComparator(const Instruction& instruction, std::string_view key,
                       const std::vector<PrimitiveType>& types);

// Output extent of one window dimension over `base` elements: XLA's StridedBound over the
// dilated, padded base. Sizes come from attributes, so overflowing int64 is an error, not UB.
StatusOr<int64_t> WindowedSize(int64_t base, const WindowDimension& window);
// a + b, or an error when it overflows int64.
StatusOr<int64_t> CheckedSum(int64_t a, int64_t b);

}  // namespace fusescope::ir::inference

#endif  // FUSESCOPE_IR_SHAPE_INFERENCE_INTERNAL_H_
