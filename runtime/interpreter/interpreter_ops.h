#ifndef FUSESCOPE_RUNTIME_INTERPRETER_INTERPRETER_OPS_H_
#define FUSESCOPE_RUNTIME_INTERPRETER_INTERPRETER_OPS_H_

// The interpreter's opcode implementations, grouped by kind; internal to runtime/. Each takes
// the instruction and its operand values and returns the result value or an error. Ops that
// call computations get a CallComputation that runs one through the interpreter.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/instruction.h"
#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::runtime::internal {

using Operands = std::vector<const Literal*>;
using CallComputation =
    std::function<StatusOr<Literal>(const ir::Computation&, std::vector<Literal>)>;

// "add.3: message": errors that name the instruction.
Status InstructionError(const ir::Instruction& instruction, const std::string& message);

// Row-major strides of `dims`.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims);
// Advances `index` over `dims` in row-major order; false after the last index.
bool NextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& dims);
// A zero-filled array of the instruction's (array) shape.
StatusOr<Literal> NewArray(const ir::Instruction& instruction);
// Copies element `from` of `source` to element `to` of `target` (same element type).
void CopyElement(const Literal& source, int64_t from, Literal& target, int64_t to);

// Elementwise unary/binary/ternary ops, compare, select, clamp, convert, bitcast-convert,
// reduce-precision. nullopt-like: returns an error for opcodes it does not own.
bool IsElementwiseKind(ir::Opcode opcode);
StatusOr<Literal> EvaluateElementwise(const ir::Instruction& instruction, const Operands& operands);

// broadcast, reshape, bitcast, copy, transpose, slice, dynamic-slice, dynamic-update-slice,
// concatenate, pad, reverse, iota.
bool IsDataMovementKind(ir::Opcode opcode);
StatusOr<Literal> EvaluateDataMovement(const ir::Instruction& instruction,
                                       const Operands& operands);

// dot, convolution.
StatusOr<Literal> EvaluateDot(const ir::Instruction& instruction, const Operands& operands);
StatusOr<Literal> EvaluateConvolution(const ir::Instruction& instruction, const Operands& operands);

// reduce, reduce-window, select-and-scatter, sort, topk, map, gather, scatter, batch norm.
StatusOr<Literal> EvaluateReduce(const ir::Instruction& instruction, const Operands& operands,
                                 const CallComputation& call);
StatusOr<Literal> EvaluateReduceWindow(const ir::Instruction& instruction, const Operands& operands,
                                       const CallComputation& call);
StatusOr<Literal> EvaluateSelectAndScatter(const ir::Instruction& instruction,
                                           const Operands& operands, const CallComputation& call);
StatusOr<Literal> EvaluateSort(const ir::Instruction& instruction, const Operands& operands,
                               const CallComputation& call);
StatusOr<Literal> EvaluateTopK(const ir::Instruction& instruction, const Operands& operands);
StatusOr<Literal> EvaluateMap(const ir::Instruction& instruction, const Operands& operands,
                              const CallComputation& call);
StatusOr<Literal> EvaluateGather(const ir::Instruction& instruction, const Operands& operands);
StatusOr<Literal> EvaluateScatter(const ir::Instruction& instruction, const Operands& operands,
                                  const CallComputation& call);
StatusOr<Literal> EvaluateBatchNorm(const ir::Instruction& instruction, const Operands& operands);

// A scalar computation `(a, b) -> a OP b` with OP one of add/multiply/maximum/minimum/and/or,
// recognised so that reductions need not run the interpreter per element.
struct ScalarBinaryOp {
  ir::Opcode opcode = ir::Opcode::kUnknown;
  bool valid() const { return opcode != ir::Opcode::kUnknown; }
};
ScalarBinaryOp RecogniseScalarBinaryOp(const ir::Computation& computation);
// Applies a recognised op to two values of a type (doubles for floats, int64 bit patterns
// for integers; the caller rounds/wraps with SetDouble/SetInt).
double ApplyScalarFloat(ir::Opcode opcode, double a, double b);
int64_t ApplyScalarInt(ir::Opcode opcode, int64_t a, int64_t b, bool is_unsigned);

}  // namespace fusescope::runtime::internal

#endif  // FUSESCOPE_RUNTIME_INTERPRETER_INTERPRETER_OPS_H_
