#include "passes/dce.h"

#include <unordered_set>
#include <vector>

#include "passes/side_effect_analysis.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;

std::unordered_set<const Instruction*> LiveInstructions(const ir::Computation& computation,
                                                        const SideEffectAnalysis& effects) {
  std::unordered_set<const Instruction*> live;
  std::vector<const Instruction*> work;
  auto mark = [&](const Instruction* instruction) {
    if (live.insert(instruction).second) work.push_back(instruction);
  };
  if (computation.root() != nullptr) mark(computation.root());
  for (const auto& instruction : computation.instructions()) {
    if (instruction->opcode() == ir::Opcode::kParameter || effects.HasSideEffect(*instruction)) {
      mark(instruction.get());
    }
  }
  while (!work.empty()) {
    const Instruction* instruction = work.back();
    work.pop_back();
    for (const Instruction* operand : instruction->operands()) mark(operand);
  }
  return live;
}

int64_t RemoveDead(ir::Computation& computation, const SideEffectAnalysis& effects) {
  const std::unordered_set<const Instruction*> live = LiveInstructions(computation, effects);
  if (live.size() == static_cast<size_t>(computation.instruction_count())) return 0;
  std::vector<Instruction*> dead;
  for (const auto& instruction : computation.instructions()) {
    if (live.count(instruction.get()) == 0) dead.push_back(instruction.get());
  }
  // Users of a dead instruction are dead too, so the batch holds all of them.
  computation.RemoveInstructions(dead);
  return static_cast<int64_t>(dead.size());
}

}  // namespace

StatusOr<bool> Dce::Run(ir::Module& module, PassContext& context) {
  const SideEffectAnalysis effects(module);
  int64_t removed = 0;
  for (ir::Computation* computation : module.MakeComputationPostOrder()) {
    removed += RemoveDead(*computation, effects);
  }
  const int64_t computations = module.RemoveUnreachableComputations();
  context.AddStat("removed_instructions", std::to_string(removed));
  context.AddStat("removed_computations", std::to_string(computations));
  return removed > 0 || computations > 0;
}

}  // namespace fusescope::passes
