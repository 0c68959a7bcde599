#include "passes/output_fusion.h"

#include <algorithm>
#include <string>

#include "ir/computation.h"
#include "passes/fusion_utils.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;
using ir::Opcode;

FusionDecision RefuseShape(std::string explanation) {
  return FusionDecision::Refuse(FusionReason::kOutputFusionShape, std::move(explanation));
}

bool HasBatchDimensions(const Instruction& dot) {
  const auto batch = dot.IntListAttribute("lhs_batch_dims");
  return batch && !batch->empty();
}

// Instructions an epilogue may hold besides its add: elementwise math and the broadcasts,
// constants and bitcasts that feed it.
bool IsEpilogueInstruction(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kParameter:
    case Opcode::kBroadcast:
    case Opcode::kIota:
    case Opcode::kBitcast:
      return true;
    case Opcode::kReshape:
      return IsBitcastLike(instruction);
    default:
      return IsElementwise(instruction);
  }
}

}  // namespace

bool OutputFusion::IsPrimaryCandidate(const Instruction& instruction) {
  return instruction.opcode() == Opcode::kDot || instruction.opcode() == Opcode::kConvolution;
}

const Instruction* OutputFusion::FindPrimary(const Instruction& fusion) {
  if (FusionKindOf(fusion) != FusionKind::kOutput) return nullptr;
  for (const Instruction* inner : FusedInstructions(fusion)) {
    if (IsPrimaryCandidate(*inner)) return inner;
  }
  return nullptr;
}

FusionDecision OutputFusion::CheckPrimary(const Instruction& producer) const {
  if (ir::IsComplexType(producer.shape().element_type())) {
    return RefuseShape(Ref(producer) + " produces complex numbers; output fusion takes real ones");
  }
  if (producer.opcode() == Opcode::kDot && HasBatchDimensions(producer)) {
    return RefuseShape(Ref(producer) +
                       " has batch dimensions; output fusion takes only non-batched dots");
  }
  const Instruction* user = producer.users().empty() ? nullptr : producer.users().front();
  const bool one_use = producer.user_count() == 1 &&
                       std::count(user->operands().begin(), user->operands().end(), &producer) == 1;
  if (!one_use) {
    return RefuseShape(Ref(producer) + " is used " +
                       (producer.user_count() == 1
                            ? std::string("more than once")
                            : std::to_string(producer.user_count()) + " times") +
                       "; its epilogue can absorb it only when it is the single use");
  }
  if (scope_ == Scope::kMatrixVector &&
      (producer.opcode() != Opcode::kDot || producer.shape().rank() > 1)) {
    return RefuseShape(Ref(producer) + " produces " + producer.shape().ToString(false) +
                       "; output fusion here takes only matrix-vector products (rank <= 1)");
  }
  return FusionDecision::Allow();
}

FusionDecision OutputFusion::CheckEpilogueFusion(const Instruction& producer,
                                                 const Instruction& fusion) const {
  if (scope_ != Scope::kEpilogue || FusionKindOf(fusion) != FusionKind::kLoop) {
    return RefuseShape(Ref(fusion) + " is not a bias add; output fusion of " + Ref(producer) +
                       " needs an add of it as the first step of the epilogue");
  }
  const ir::Computation& body = *fusion.fused_computation();
  int64_t index = -1;
  for (int64_t i = 0; i < fusion.operand_count(); ++i) {
    if (fusion.operand(i) == &producer) index = i;
  }
  const Instruction* param = index >= 0 ? body.parameter(index) : nullptr;
  if (param == nullptr || param->user_count() != 1 ||
      param->users().front()->opcode() != Opcode::kAdd) {
    return RefuseShape(Ref(fusion) + " does not begin with an add of " + Ref(producer) +
                       "; the epilogue must start with the bias add");
  }
  for (const auto& inner : body.instructions()) {
    if (!IsEpilogueInstruction(*inner)) {
      return RefuseShape(Ref(fusion) + " holds " + Ref(*inner) + " (" +
                         std::string(inner->opcode_name()) +
                         "); an epilogue may only hold elementwise work after the bias add");
    }
  }
  if (!body.root()->shape().IsArray() ||
      body.root()->shape().dimensions() != producer.shape().dimensions()) {
    return RefuseShape(Ref(fusion) + " changes the shape of " + Ref(producer) +
                       "'s result; an epilogue keeps it");
  }
  return FusionDecision::Allow();
}

FusionDecision OutputFusion::CanFuse(const Instruction& producer,
                                     const Instruction& consumer) const {
  FusionDecision primary = CheckPrimary(producer);
  if (!primary) return primary;
  if (consumer.opcode() == Opcode::kFusion) return CheckEpilogueFusion(producer, consumer);
  if (consumer.opcode() != Opcode::kAdd) {
    return RefuseShape(Ref(consumer) + " (" + std::string(consumer.opcode_name()) +
                       ") is not an add; output fusion of " + Ref(producer) +
                       " starts with its bias add");
  }
  return FusionDecision::Allow();
}

bool OutputFusion::CanAbsorbAnOperand(const Instruction& add) const {
  if (add.opcode() != Opcode::kAdd) return false;
  return std::any_of(add.operands().begin(), add.operands().end(), [&](const Instruction* operand) {
    return IsPrimaryCandidate(*operand) && CanFuse(*operand, add).allowed();
  });
}

}  // namespace fusescope::passes
