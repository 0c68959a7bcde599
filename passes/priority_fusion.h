#ifndef FUSESCOPE_PASSES_PRIORITY_FUSION_H_
#define FUSESCOPE_PASSES_PRIORITY_FUSION_H_

// "priority-fusion": XLA:GPU's producer-consumer fusion. Producers wait in a priority queue
// ordered by what the performance model says fusing them saves (time unfused minus time
// fused); bitcasts go first, producers whose fusion would not pay are dropped. A producer is
// fused into all of its non-bitcast users or into none, duplicating it when it has several.
// After the queue is empty, small constants are fused into every fusible user.
//
// Fusion kinds follow the hero: kInput when a reduction or tiled transpose is emitted at a
// root, kLoop otherwise. Every pair considered is recorded with its reason and, for
// accepts, the fusion formed and the time the model expects to save. The model estimates
// for the device in PipelineOptions::gpu_device.

#include <string_view>

#include "passes/pass.h"

namespace fusescope::passes {

class PriorityFusion : public Pass {
 public:
  std::string_view name() const override { return "priority-fusion"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PRIORITY_FUSION_H_
