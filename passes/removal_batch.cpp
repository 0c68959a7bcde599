#include "passes/removal_batch.h"

#include <algorithm>

namespace fusescope::passes {

void RemovalBatch::Replace(ir::Instruction* old, ir::Instruction* replacement) {
  old->ReplaceAllUsesWith(replacement);
  Bury(old, replacement);
}

bool RemovalBatch::Dies(const ir::Instruction* operand, const ir::Instruction* heir) const {
  if (operand == heir || buried_.count(operand) != 0 || operand->IsRoot() ||
      operand->opcode() == ir::Opcode::kParameter || effects_.HasSideEffect(*operand)) {
    return false;
  }
  const auto it = buried_users_.find(operand);
  return it != buried_users_.end() && it->second == operand->user_count();
}

void RemovalBatch::Bury(ir::Instruction* dead, ir::Instruction* heir) {
  if (dead->opcode() == ir::Opcode::kParameter || effects_.HasSideEffect(*dead)) return;
  if (!buried_.insert(dead).second) return;
  // An explicit stack: a dying chain can be as long as the computation.
  std::vector<ir::Instruction*> stack = {dead};
  while (!stack.empty()) {
    ir::Instruction* instruction = stack.back();
    stack.pop_back();
    order_.push_back(instruction);
    heir->mutable_provenance().Union(instruction->provenance());
    // Users are distinct, so an operand read twice counts this user once.
    std::vector<ir::Instruction*> operands = instruction->operands();
    std::sort(operands.begin(), operands.end());
    operands.erase(std::unique(operands.begin(), operands.end()), operands.end());
    for (ir::Instruction* operand : operands) {
      ++buried_users_[operand];
      if (!Dies(operand, heir)) continue;
      buried_.insert(operand);
      stack.push_back(operand);
    }
  }
}

void RemovalBatch::RemoveFrom(ir::Computation& computation) {
  computation.RemoveInstructions(order_);
  order_.clear();
  buried_.clear();
  buried_users_.clear();
}

}  // namespace fusescope::passes
