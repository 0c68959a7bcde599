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
  return std::all_of(operand->users().begin(), operand->users().end(),
                     [&](const ir::Instruction* user) { return buried_.count(user) != 0; });
}

void RemovalBatch::Bury(ir::Instruction* dead, ir::Instruction* heir) {
  if (!buried_.insert(dead).second) return;
  // An explicit stack: a dying chain can be as long as the computation.
  std::vector<ir::Instruction*> stack = {dead};
  while (!stack.empty()) {
    ir::Instruction* instruction = stack.back();
    stack.pop_back();
    order_.push_back(instruction);
    heir->mutable_provenance().Union(instruction->provenance());
    for (ir::Instruction* operand : instruction->operands()) {
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
}

}  // namespace fusescope::passes
