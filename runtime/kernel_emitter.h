#ifndef FUSESCOPE_RUNTIME_KERNEL_EMITTER_H_
#define FUSESCOPE_RUNTIME_KERNEL_EMITTER_H_

// Emits the MLIR text of one CPU kernel: a `func.func @kernel` on static-shaped memrefs, one
// per input then one per output, whose body computes on tensors with linalg, tensor, arith
// and math ops and writes each result into its output memref. Text only: no MLIR library is
// needed here, the kernel compiler parses it.
//
// Element types: pred (i1, one byte per element as runtime::Literal holds it), s8..s64,
// u8..u64 (signless integers, unsigned ops where the type says so), f32, f64, and f16/bf16
// (computed in f64 and rounded once, as the interpreter does). What the emitter cannot lower
// (an opcode, a complex type, a dynamic shape) is refused with an error
// naming the instruction and the reason; nothing is emitted half-way.

#include <string>
#include <vector>

#include "ir/instruction.h"
#include "ir/shape.h"
#include "ir/status.h"

namespace fusescope::runtime {

struct EmittedKernel {
  std::string function_name;  // "kernel"
  std::string text;           // a whole MLIR module
  std::vector<ir::Shape> input_shapes;
  std::vector<ir::Shape> output_shapes;
  // False when the kernel holds an access the affine super-vectorizer of MLIR 19 gets wrong
  // (a reversed dimension or a strided window: it reads a contiguous forward vector; a
  // data-dependent gather) or crashes on (a reduction of values an iota feeds); such kernels
  // must be lowered without it.
  bool vectorizable = true;
  // The input whose bytes the output holds on entry, or -1. A kernel whose result is a
  // dynamic-update-slice of one of its inputs (a loop's output buffer filled a step at a time)
  // is emitted in place when asked: it writes only the updated window of its output, so its
  // caller puts that input's bytes there first, or better passes the input's own buffer as the
  // output when nothing reads the input afterwards.
  int in_place_input = -1;
};

// A kernel computing `outputs` from `inputs`: each input is read from an argument; `body`
// (in an order where operands come first) is computed; each output is written to its own
// argument. Inputs and body instructions may come from any computation; an operand of a body
// instruction must be an input or an earlier body instruction.
StatusOr<EmittedKernel> EmitKernel(const std::vector<const ir::Instruction*>& inputs,
                                   const std::vector<const ir::Instruction*>& body,
                                   const std::vector<const ir::Instruction*>& outputs,
                                   bool in_place = false);

// A loop or input fusion: inputs are its fused computation's parameters in number order,
// outputs the root, or the root tuple's elements.
// `in_place`: a root dynamic-update-slice whose operand is an input nothing else in the kernel
// reads is written in place (EmittedKernel::in_place_input).
StatusOr<EmittedKernel> EmitFusionKernel(const ir::Instruction& fusion, bool in_place = false);

// One instruction of a computation on its own: inputs are its operands, in order (an
// operand used twice is passed twice), the output its result.
StatusOr<EmittedKernel> EmitInstructionKernel(const ir::Instruction& instruction,
                                              bool in_place = false);

// Whether the emitter has a lowering for `opcode` at all (types and attributes may still
// make it refuse one instruction).
bool IsEmittableOpcode(ir::Opcode opcode);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_KERNEL_EMITTER_H_
