#ifndef FUSESCOPE_PASSES_SIDE_EFFECT_ANALYSIS_H_
#define FUSESCOPE_PASSES_SIDE_EFFECT_ANALYSIS_H_

// Which instructions must not be removed, merged or reordered. Beyond an instruction's own
// side effect (Instruction::HasSideEffect) this looks through called computations: a while
// whose body sends, or a call to a computation with an outfeed, has the effect too. Opcodes
// we do not know count as side-effecting, since nothing says they are pure.
//
// A snapshot: computed once for the module as it is when constructed.

#include <unordered_set>

#include "ir/module.h"

namespace fusescope::passes {

class SideEffectAnalysis {
 public:
  explicit SideEffectAnalysis(const ir::Module& module);

  // Also answers for instructions added after construction, from their callees' verdicts.
  bool HasSideEffect(const ir::Instruction& instruction) const;

 private:
  std::unordered_set<const ir::Computation*> effectful_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_SIDE_EFFECT_ANALYSIS_H_
