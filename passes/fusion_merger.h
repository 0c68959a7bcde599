#ifndef FUSESCOPE_PASSES_FUSION_MERGER_H_
#define FUSESCOPE_PASSES_FUSION_MERGER_H_

// "fusion_merger": XLA:GPU's fusion merger. A loop fusion is merged into all of its users or
// none (then it disappears), when every user can take it, the merged fusions fit the
// budgets, a reduction user would not read mostly transposed (uncoalesced) data, no heavy
// computation would be repeated, and the cost model says the merged kernels are not slower
// than the producer's kernel plus its users'.

#include <string_view>

#include "passes/pass.h"

namespace fusescope::passes {

class FusionMerger : public Pass {
 public:
  std::string_view name() const override { return "fusion_merger"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_FUSION_MERGER_H_
