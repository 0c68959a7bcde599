#include "passes/reachability_map.h"

#include <unordered_set>
#include <vector>

namespace fusescope::passes {

ReachabilityMap::ReachabilityMap(const ir::Computation& computation) : computation_(computation) {
  Rebuild();
}

void ReachabilityMap::Rebuild() {
  position_.clear();
  int64_t position = 0;
  for (const ir::Instruction* instruction : computation_.MakePostOrder()) {
    position_[instruction] = position++;
  }
}

int64_t ReachabilityMap::PositionOf(const ir::Instruction* instruction) const {
  auto found = position_.find(instruction);
  return found == position_.end() ? -1 : found->second;
}

void ReachabilityMap::Replace(const ir::Instruction* replaced, const ir::Instruction* replacement) {
  const int64_t position = PositionOf(replaced);
  position_.erase(replaced);
  if (position >= 0) position_[replacement] = position;
}

bool ReachabilityMap::IsReachable(const ir::Instruction* from, const ir::Instruction* to) const {
  if (from == to) return true;
  const int64_t floor = PositionOf(from);
  std::vector<const ir::Instruction*> work{to};
  std::unordered_set<const ir::Instruction*> seen{to};
  while (!work.empty()) {
    const ir::Instruction* current = work.back();
    work.pop_back();
    for (const ir::Instruction* operand : current->operands()) {
      if (operand == from) return true;
      // Whatever sits before `from` cannot depend on it. Unknown positions are searched.
      const int64_t position = PositionOf(operand);
      if (position >= 0 && floor >= 0 && position < floor) continue;
      if (seen.insert(operand).second) work.push_back(operand);
    }
  }
  return false;
}

}  // namespace fusescope::passes
