#include "passes/fusion_inliner.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "passes/instruction_clone.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;

// Moves the body of `fusion` into its computation and replaces the fusion by it. Returns the
// instructions moved in, for nested fusions among them to be inlined in turn.
std::vector<Instruction*> InlineFusion(Instruction* fusion) {
  Computation& caller = *fusion->parent();
  const Computation& body = *fusion->fused_computation();
  std::unordered_map<const Instruction*, Instruction*> mapped;
  std::vector<Instruction*> moved;
  for (Instruction* instruction : body.MakePostOrder()) {
    if (instruction->opcode() == ir::Opcode::kParameter) {
      mapped[instruction] = fusion->operand(instruction->parameter_number());
      continue;
    }
    std::vector<Instruction*> operands;
    for (Instruction* operand : instruction->operands()) operands.push_back(mapped.at(operand));
    std::unique_ptr<Instruction> copy =
        CloneWithOperands(*instruction, std::move(operands), instruction->name());
    copy->set_id(instruction->id());
    Instruction* added = caller.AddInstruction(std::move(copy));
    if (Computation* nested = added->fused_computation()) nested->set_fusion_instruction(added);
    mapped[instruction] = added;
    moved.push_back(added);
  }
  Instruction* root = mapped.at(body.root());
  if (root->opcode() == ir::Opcode::kParameter) {
    // A fusion that only forwards an operand: its users read the operand.
    fusion->ReplaceAllUsesWith(root);
    caller.RemoveInstruction(fusion);
  } else {
    // Removing the fusion removes its fused computation; the moved copies no longer need it
    // (their own nested fused computations were handed to them above).
    caller.ReplaceInstruction(fusion, root);
  }
  return moved;
}

}  // namespace

StatusOr<bool> FusionInliner::Run(ir::Module& module, PassContext& context) {
  // Taken before anything changes: inlining removes fused computations, never these.
  std::vector<Computation*> callers;
  for (Computation* computation : module.MakeComputationPostOrder()) {
    if (computation->fusion_instruction() == nullptr) callers.push_back(computation);
  }
  int64_t inlined = 0;
  for (Computation* computation : callers) {
    std::vector<Instruction*> work;
    for (const auto& instruction : computation->instructions()) {
      if (instruction->fused_computation() != nullptr) work.push_back(instruction.get());
    }
    while (!work.empty()) {
      Instruction* fusion = work.back();
      work.pop_back();
      for (Instruction* moved : InlineFusion(fusion)) {
        if (moved->fused_computation() != nullptr) work.push_back(moved);
      }
      ++inlined;
    }
  }
  context.AddStat("inlined_fusions", std::to_string(inlined));
  return inlined > 0;
}

}  // namespace fusescope::passes
