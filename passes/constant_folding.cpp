#include "passes/constant_folding.h"

#include <optional>
#include <vector>

#include "passes/hlo_queries.h"
#include "passes/literal_evaluator.h"
#include "passes/literal_value.h"
#include "passes/removal_batch.h"
#include "passes/side_effect_analysis.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;

bool IsSmallArray(const ir::Shape& shape) {
  return shape.IsArray() && shape.ElementCount() <= ConstantFolding::kMaxElements;
}

std::optional<LiteralValue> ReadConstant(const Instruction& constant) {
  if (constant.opcode() != ir::Opcode::kConstant || !IsSmallArray(constant.shape())) {
    return std::nullopt;
  }
  return LiteralValue::Of(constant);
}

// The value of an operand that is a small constant, or a small broadcast of one.
std::optional<LiteralValue> ConstantValue(const Instruction& operand) {
  if (operand.opcode() != ir::Opcode::kBroadcast) return ReadConstant(operand);
  if (!IsSmallArray(operand.shape())) return std::nullopt;
  std::optional<LiteralValue> source = ReadConstant(*operand.operand(0));
  if (!source) return std::nullopt;
  return EvaluateOnLiterals(operand, {*source});
}

std::optional<std::vector<LiteralValue>> ConstantOperands(const Instruction& instruction) {
  std::vector<LiteralValue> values;
  for (const Instruction* operand : instruction.operands()) {
    std::optional<LiteralValue> value = ConstantValue(*operand);
    if (!value) return std::nullopt;
    values.push_back(std::move(*value));
  }
  return values;
}

// A broadcast alone stays: it would turn a scalar into an array constant, which costs memory
// and keeps it out of fusions (fusion refuses non-scalar constants). Its consumers fold.
bool Foldable(const Instruction& instruction) {
  return instruction.operand_count() > 0 && instruction.opcode() != ir::Opcode::kBroadcast &&
         instruction.called_computations().empty() && !instruction.HasSideEffect() &&
         IsSmallArray(instruction.shape());
}

// Hands `instruction`'s uses to a constant if it can be computed now. Returns whether it did.
bool TryFold(ir::Computation& computation, Instruction* instruction, RemovalBatch& removed) {
  if (!Foldable(*instruction)) return false;
  std::optional<std::vector<LiteralValue>> operands = ConstantOperands(*instruction);
  if (!operands) return false;
  std::optional<LiteralValue> value = EvaluateOnLiterals(*instruction, *operands);
  if (!value) return false;
  Instruction* constant = AddDerivedInstruction(computation, ir::Opcode::kConstant,
                                                instruction->shape(), {}, "constant", *instruction);
  constant->set_literal(value->ToText());
  // Operands that only fed the folded instruction go with it and their provenance with
  // them; those that stay still answer for themselves.
  removed.Replace(instruction, constant);
  return true;
}

}  // namespace

StatusOr<bool> ConstantFolding::Run(ir::Module& module, PassContext& /*context*/) {
  const SideEffectAnalysis effects(module);
  bool changed = false;
  for (ir::Computation* computation : module.MakeComputationPostOrder()) {
    if (computation->fusion_instruction() != nullptr) continue;
    RemovalBatch removed(effects);
    // Operands before users: a folded result feeds the next fold in the same sweep.
    for (Instruction* instruction : computation->MakePostOrder()) {
      changed |= TryFold(*computation, instruction, removed);
    }
    removed.RemoveFrom(*computation);
  }
  return changed;
}

}  // namespace fusescope::passes
