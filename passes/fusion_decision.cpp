#include "passes/fusion_decision.h"

namespace fusescope::passes {

std::string_view FusionReasonCode(FusionReason reason) {
  switch (reason) {
    case FusionReason::kFused:
      return "fused";
    case FusionReason::kFusedWithDuplication:
      return "fused_with_duplication";
    case FusionReason::kWouldCreateCycle:
      return "would_create_cycle";
    case FusionReason::kExpensiveDuplication:
      return "expensive_duplication";
    case FusionReason::kTooManyOperands:
      return "too_many_operands";
    case FusionReason::kProducerIsReduction:
      return "producer_is_reduction";
    case FusionReason::kIncompatibleIterationSpace:
      return "incompatible_iteration_space";
    case FusionReason::kOpaqueCustomCall:
      return "opaque_custom_call";
    case FusionReason::kSideEffect:
      return "side_effect";
    case FusionReason::kProducerNotFusible:
      return "producer_not_fusible";
    case FusionReason::kConsumerNotFusible:
      return "consumer_not_fusible";
    case FusionReason::kSizeLimit:
      return "size_limit";
    case FusionReason::kNonScalarConstant:
      return "non_scalar_constant";
    case FusionReason::kNotProfitable:
      return "not_profitable";
    case FusionReason::kBothReductions:
      return "both_reductions";
    case FusionReason::kTooManyReductions:
      return "too_many_reductions";
    case FusionReason::kOutputFusionShape:
      return "output_fusion_shape";
    case FusionReason::kNoUsers:
      return "no_users";
    case FusionReason::kMultiOutputNotPossible:
      return "multi_output_not_possible";
  }
  return "unknown";
}

bool IsAccepted(FusionReason reason) {
  return reason == FusionReason::kFused || reason == FusionReason::kFusedWithDuplication;
}

FusionDecision FusionDecision::Or(const FusionDecision& other) const {
  if (allowed()) return *this;
  if (other.allowed()) return other;
  // Both refused: the reason code stays the first one, but neither sentence is lost.
  return FusionDecision(reason_, explanation_ + "; " + other.explanation_);
}

}  // namespace fusescope::passes
