#include "passes/constant_folding.h"

#include <optional>
#include <vector>

#include "passes/hlo_queries.h"
#include "passes/literal_evaluator.h"
#include "passes/literal_value.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;

bool IsSmallArray(const ir::Shape& shape) {
  return shape.IsArray() && shape.ElementCount() <= ConstantFolding::kMaxElements;
}

// The operands' values when every operand is a small constant whose text can be read.
std::optional<std::vector<LiteralValue>> ConstantOperands(const Instruction& instruction) {
  std::vector<LiteralValue> values;
  for (const Instruction* operand : instruction.operands()) {
    if (operand->opcode() != ir::Opcode::kConstant || !IsSmallArray(operand->shape())) {
      return std::nullopt;
    }
    std::optional<LiteralValue> value = LiteralValue::Parse(operand->literal(), operand->shape());
    if (!value) return std::nullopt;
    values.push_back(std::move(*value));
  }
  return values;
}

bool Foldable(const Instruction& instruction) {
  return instruction.operand_count() > 0 && instruction.called_computations().empty() &&
         !instruction.HasSideEffect() && IsSmallArray(instruction.shape());
}

// Hands `instruction`'s uses to a constant if it can be computed now. Returns whether it did.
bool TryFold(ir::Computation& computation, Instruction* instruction) {
  if (!Foldable(*instruction)) return false;
  std::optional<std::vector<LiteralValue>> operands = ConstantOperands(*instruction);
  if (!operands) return false;
  std::optional<LiteralValue> value = EvaluateOnLiterals(*instruction, *operands);
  if (!value) return false;
  Instruction* constant = AddDerivedInstruction(computation, ir::Opcode::kConstant,
                                                instruction->shape(), {}, "constant", *instruction);
  constant->set_literal(value->ToText());
  for (const Instruction* operand : instruction->operands()) {
    constant->mutable_provenance().Union(operand->provenance());
  }
  RedirectUses(instruction, constant);
  return true;
}

}  // namespace

StatusOr<bool> ConstantFolding::Run(ir::Module& module, PassContext& /*context*/) {
  bool changed = false;
  for (ir::Computation* computation : module.MakeComputationPostOrder()) {
    if (computation->fusion_instruction() != nullptr) continue;
    std::vector<Instruction*> folded;
    // Operands before users: a folded result feeds the next fold in the same sweep.
    for (Instruction* instruction : computation->MakePostOrder()) {
      if (TryFold(*computation, instruction)) folded.push_back(instruction);
    }
    computation->RemoveInstructions(folded);
    changed |= !folded.empty();
  }
  return changed;
}

}  // namespace fusescope::passes
