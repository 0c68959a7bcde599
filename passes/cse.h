#ifndef FUSESCOPE_PASSES_CSE_H_
#define FUSESCOPE_PASSES_CSE_H_

// "cse": within each computation, instructions with the same opcode, shape (layout
// included), operands, attributes and called computations compute the same value; all but
// the first are replaced by the first. Constants merge when their literal text matches.
// Called computations count as equal when they are structurally equal (same instructions
// and wiring, whatever their names). Operands of commutative binary ops match in either
// order. Parameters and anything with a side effect (see SideEffectAnalysis) never merge.
//
// The survivor answers for both: its provenance becomes the union of the merged pair's.

#include "passes/pass.h"

namespace fusescope::passes {

class Cse : public Pass {
 public:
  std::string_view name() const override { return "cse"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_CSE_H_
