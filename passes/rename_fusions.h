#ifndef FUSESCOPE_PASSES_RENAME_FUSIONS_H_
#define FUSESCOPE_PASSES_RENAME_FUSIONS_H_

// "rename-fusions": as XLA:GPU's pass of that name at the end of its fusion pipeline, names
// every fusion after its kind and its heroes, so that a reader sees what a kernel does:
// `loop_broadcast_fusion`, `input_reduce_fusion`, `loop_add_multiply_fusion` (a multi-output
// fusion with two roots). The hero of a root is the reduction or tiled transpose it is
// emitted around (FindHero), else the root itself; the set of heroes is sorted and joined
// with `_`, and `-` in opcode names becomes `_`. The fused computation becomes
// `fused_<heroes>`. Names are made unique in the module (`loop_add_fusion.1`). Fusions of
// kind kCustom keep their names (a library call is named after the library). The pass
// reports no change: names are not structure (see Pass::Run and the pipeline's fingerprint).

#include "passes/pass.h"

namespace fusescope::passes {

class RenameFusions : public Pass {
 public:
  std::string_view name() const override { return "rename-fusions"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_RENAME_FUSIONS_H_
