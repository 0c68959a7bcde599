#ifndef FUSESCOPE_PASSES_MULTI_OUTPUT_FUSION_H_
#define FUSESCOPE_PASSES_MULTI_OUTPUT_FUSION_H_

// "multi_output_fusion": XLA:GPU's multi-output fusion, run after priority fusion. Walking
// the computation from uses to definitions, it first fuses siblings (fusions and reductions
// reading a common operand, so the operand is read once), then tries to fuse each producer
// with several users into one consumer as an extra output (the producer's other users read
// it from the fusion's tuple). Reachability is rebuilt after every fusion.
//
// Refusals: the pair is connected (would create a cycle), the loop shapes differ (a
// reduction's input shape, a transpose's tile, a transpose with a reduction), the budgets
// (operands+outputs, unnested reductions, shared memory, size), a reduction epilogue, or
// the cost model. Disabled when FusionLimits::multi_output is false.

#include <string_view>

#include "passes/pass.h"

namespace fusescope::passes {

class MultiOutputFusion : public Pass {
 public:
  std::string_view name() const override { return "multi_output_fusion"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_MULTI_OUTPUT_FUSION_H_
