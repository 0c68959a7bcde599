#include "passes/side_effect_analysis.h"

namespace fusescope::passes {

SideEffectAnalysis::SideEffectAnalysis(const ir::Module& module) {
  // Callees come first in this order, so a caller sees its callees' verdicts.
  for (const ir::Computation* computation : module.MakeComputationPostOrder()) {
    for (const auto& instruction : computation->instructions()) {
      if (HasSideEffect(*instruction)) {
        effectful_.insert(computation);
        break;
      }
    }
  }
}

bool SideEffectAnalysis::HasSideEffect(const ir::Instruction& instruction) const {
  if (instruction.HasSideEffect() || instruction.opcode() == ir::Opcode::kUnknown) return true;
  for (const ir::Computation* callee : instruction.called_computations()) {
    if (effectful_.count(callee) != 0) return true;
  }
  return false;
}

}  // namespace fusescope::passes
