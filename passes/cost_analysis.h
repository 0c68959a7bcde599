#ifndef FUSESCOPE_PASSES_COST_ANALYSIS_H_
#define FUSESCOPE_PASSES_COST_ANALYSIS_H_

// What an instruction or a fused kernel does, counted from the IR: floating-point operations
// and bytes moved. The GPU cost model compares fusions with these; the profiler places each
// measured kernel on the machine's roofline with them.
//
// FLOPs: one per element of an elementwise op, a transcendental counts kTranscendentalFlops;
// a reduce or reduce-window one per input element; a dot 2 x output elements x contracted
// size; a convolution 2 x output elements x (kernel elements / kernel output features), the
// multiply-adds each output element really performs. Data movement counts none.
// Bytes: the output plus every distinct operand once, as a kernel that streams its inputs
// and writes its result moves them (fused intermediates stay in registers).

#include "ir/instruction.h"

namespace fusescope::passes {

inline constexpr double kTranscendentalFlops = 4;

// Elements of a shape; a tuple's leaves summed.
double ElementCount(const ir::Shape& shape);
// One instruction, not looking into a fusion.
double InstructionFlops(const ir::Instruction& instruction);
// An instruction, or every instruction of a fusion.
double KernelFlops(const ir::Instruction& instruction);
double KernelBytes(const ir::Instruction& instruction);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_COST_ANALYSIS_H_
