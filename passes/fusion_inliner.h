#ifndef FUSESCOPE_PASSES_FUSION_INLINER_H_
#define FUSESCOPE_PASSES_FUSION_INLINER_H_

// "fusion-inliner": puts every fusion's operations back in place of the fusion instruction,
// the inverse of fusion. It shows a fusion's ops where they run, and it turns a fused module
// into one that any HLO consumer takes, XLA's unoptimized-module route included (that route
// refuses fusion instructions), so that fused snapshots can be executed and compared.
//
// The fused instructions move into the caller with their names, ids, metadata and
// provenance; the fused computation's parameters become the fusion's operands and its root
// replaces the fusion (a multi-output fusion's root tuple stays, read by the same
// get-tuple-elements). The fused computations go with their fusions. Fusions nested in
// fusions are inlined too. Calls inside fused computations (a reduce's to_apply) are kept.

#include <string_view>

#include "passes/pass.h"

namespace fusescope::passes {

class FusionInliner : public Pass {
 public:
  std::string_view name() const override { return "fusion-inliner"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_FUSION_INLINER_H_
