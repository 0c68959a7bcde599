#ifndef FUSESCOPE_PASSES_SCHEDULER_H_
#define FUSESCOPE_PASSES_SCHEDULER_H_

// "scheduling": orders the instructions of every computation that runs as a sequence (all
// but fused computations) to keep live memory low, then marks the module is_scheduled=true
// so the stored order is the execution order.
//
// A list scheduler in XLA's manner: among the instructions whose operands are done, run the
// one that frees the most bytes minus the bytes it defines (ties: the earlier one in the
// original order). Side-effecting instructions keep their relative order. The list
// schedule is kept only when its peak of live bytes (see BufferLiveness) beats the order
// the computation already has; otherwise that order stays.
//
// Stats: "peak_bytes_before" and "peak_bytes_after" for the entry computation.

#include "passes/pass.h"

namespace fusescope::passes {

class Scheduler : public Pass {
 public:
  std::string_view name() const override { return "scheduling"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_SCHEDULER_H_
