#ifndef FUSESCOPE_PASSES_DCE_H_
#define FUSESCOPE_PASSES_DCE_H_

// "dce": removes instructions whose values reach neither their computation's root nor an
// instruction with a side effect (see SideEffectAnalysis: a call of a computation that sends
// or writes an outfeed stays), then computations that nothing calls any more. Parameters
// are kept, so fused computations keep matching their fusion's operands.

#include "passes/pass.h"

namespace fusescope::passes {

class Dce : public Pass {
 public:
  std::string_view name() const override { return "dce"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_DCE_H_
