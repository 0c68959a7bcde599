#include "passes/provenance_util.h"

#include <algorithm>
#include <string>
#include <vector>

namespace fusescope::passes {

std::unordered_set<int64_t> InstructionIds(const ir::Module& module) {
  std::unordered_set<int64_t> ids;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) ids.insert(instruction->id());
  }
  return ids;
}

Status CheckProvenance(const ir::Module& module, const std::unordered_set<int64_t>& original) {
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      const std::string where =
          "computation " + computation->name() + ", instruction %" + instruction->name();
      if (instruction->provenance().empty()) {
        return Status::Error(where + ": empty provenance");
      }
      for (int64_t id : instruction->provenance().ids()) {
        if (original.count(id) == 0) {
          return Status::Error(where + ": provenance names id " + std::to_string(id) +
                               ", which the original module does not have");
        }
      }
    }
  }
  return Status::Ok();
}

std::unordered_set<int64_t> LiveInstructionIds(const ir::Module& module) {
  std::unordered_set<int64_t> live;
  if (module.entry() == nullptr || module.entry()->root() == nullptr) return live;
  std::vector<const ir::Instruction*> work = {module.entry()->root()};
  for (const auto& instruction : module.entry()->instructions()) {
    if (instruction->HasSideEffect()) work.push_back(instruction.get());
  }
  std::unordered_set<const ir::Instruction*> seen(work.begin(), work.end());
  auto visit = [&](const ir::Instruction* next) {
    if (next != nullptr && seen.insert(next).second) work.push_back(next);
  };
  while (!work.empty()) {
    const ir::Instruction* instruction = work.back();
    work.pop_back();
    const bool placeholder = instruction->opcode() == ir::Opcode::kParameter &&
                             instruction->parent()->fusion_instruction() != nullptr;
    if (!placeholder) live.insert(instruction->id());
    for (const ir::Instruction* operand : instruction->operands()) visit(operand);
    const ir::Opcode opcode = instruction->opcode();
    if (opcode == ir::Opcode::kWhile || opcode == ir::Opcode::kConditional ||
        opcode == ir::Opcode::kCall || opcode == ir::Opcode::kFusion) {
      for (const ir::Computation* callee : instruction->called_computations()) {
        visit(callee->root());
      }
    }
  }
  return live;
}

Status CheckProvenanceCovers(const ir::Module& module, const std::unordered_set<int64_t>& live) {
  std::unordered_set<int64_t> covered;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      covered.insert(instruction->provenance().ids().begin(),
                     instruction->provenance().ids().end());
    }
  }
  std::vector<int64_t> missing;
  for (int64_t id : live) {
    if (covered.count(id) == 0) missing.push_back(id);
  }
  if (missing.empty()) return Status::Ok();
  std::sort(missing.begin(), missing.end());
  return Status::Error("original instruction id " + std::to_string(missing.front()) + " (and " +
                       std::to_string(missing.size() - 1) +
                       " more) contributed to the result but maps forward to nothing");
}

}  // namespace fusescope::passes
