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

int64_t ReachabilityMap::Position(const ir::Instruction* instruction) const {
  auto found = position_.find(instruction);
  return found == position_.end() ? -1 : found->second;
}

void ReachabilityMap::Replace(const ir::Instruction* replaced, const ir::Instruction* replacement) {
  const int64_t position = Position(replaced);
  position_.erase(replaced);
  if (position >= 0) position_[replacement] = position;
}

bool ReachabilityMap::IsReachable(const ir::Instruction* from, const ir::Instruction* to) const {
  if (from == to) return true;
  const int64_t floor = Position(from);
  const int64_t target = Position(to);
  // Nothing placed before `from` depends on it.
  if (floor >= 0 && target >= 0 && target < floor) return false;
  std::vector<const ir::Instruction*> work{to};
  std::unordered_set<const ir::Instruction*> seen{to};
  while (!work.empty()) {
    const ir::Instruction* current = work.back();
    work.pop_back();
    for (const ir::Instruction* operand : current->operands()) {
      if (operand == from) return true;
      // Whatever sits before `from` cannot depend on it. Unknown positions are searched.
      const int64_t position = Position(operand);
      if (position >= 0 && floor >= 0 && position < floor) continue;
      if (seen.insert(operand).second) work.push_back(operand);
    }
  }
  return false;
}

std::unordered_set<const ir::Instruction*> ReachabilityMap::Descendants(const ir::Instruction* from,
                                                                        int64_t limit) const {
  std::unordered_set<const ir::Instruction*> reached;
  std::vector<const ir::Instruction*> work{from};
  while (!work.empty()) {
    const ir::Instruction* current = work.back();
    work.pop_back();
    for (const ir::Instruction* user : current->users()) {
      // Users placed after `limit` and everything after them are of no interest. Unknown
      // positions are followed.
      if (Position(user) > limit) continue;
      if (reached.insert(user).second) work.push_back(user);
    }
  }
  return reached;
}

}  // namespace fusescope::passes
