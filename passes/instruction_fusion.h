#ifndef FUSESCOPE_PASSES_INSTRUCTION_FUSION_H_
#define FUSESCOPE_PASSES_INSTRUCTION_FUSION_H_

// "fusion": XLA:CPU's producer-consumer instruction fusion. Consumers are visited from the
// root towards the leaves (reverse post order); each visit fuses at most one operand, the
// latest in post order first, and a consumer that grew is visited again. A producer with
// other users is duplicated when duplication is allowed and it is cheap; producers that read
// more than they write and cannot be fused into every user on every path are never
// duplicated. Dots and convolutions fuse with their bias/activation epilogue as kOutput
// fusions (see OutputFusion); everything else forms kLoop fusions.
//
// Every pair considered is recorded with its reason. Limits come from the pipeline options
// (FusionLimits, CPU budgets when left at their defaults).

#include <string_view>

#include "passes/fusion_utils.h"
#include "passes/output_fusion.h"
#include "passes/pass.h"

namespace fusescope::passes {

class InstructionFusion : public Pass {
 public:
  InstructionFusion() = default;
  explicit InstructionFusion(OutputFusion::Scope output_scope) : output_scope_(output_scope) {}

  std::string_view name() const override { return "fusion"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;

 private:
  OutputFusion::Scope output_scope_ = OutputFusion::Scope::kEpilogue;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_INSTRUCTION_FUSION_H_
