#include "passes/fusion_inliner.h"

#include <string>
#include <vector>

#include "passes/instruction_clone.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;

// Moves the body of `fusion` into its computation and replaces the fusion by it. Returns the
// fusions moved in, to be inlined in turn.
std::vector<Instruction*> InlineFusion(Instruction* fusion) {
  Computation& caller = *fusion->parent();
  const Computation& body = *fusion->fused_computation();
  Instruction* root = nullptr;
  std::vector<Instruction*> nested;
  for (const auto& [original, value] : CopyBodyInto(body, caller, fusion->operands(), true)) {
    if (original == body.root()) root = value;
    if (original->opcode() != ir::Opcode::kParameter && value->fused_computation() != nullptr) {
      nested.push_back(value);
    }
  }
  if (root->opcode() == ir::Opcode::kParameter) {
    // A fusion that only forwards an operand: its users read the operand.
    fusion->ReplaceAllUsesWith(root);
    caller.RemoveInstruction(fusion);
  } else {
    // Removing the fusion removes its fused computation; the moved copies no longer need it
    // (their own nested fused computations were handed to them).
    caller.ReplaceInstruction(fusion, root);
  }
  return nested;
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
      for (Instruction* nested : InlineFusion(fusion)) work.push_back(nested);
      ++inlined;
    }
  }
  context.AddStat("inlined_fusions", std::to_string(inlined));
  return inlined > 0;
}

}  // namespace fusescope::passes
