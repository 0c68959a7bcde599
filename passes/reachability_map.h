#ifndef FUSESCOPE_PASSES_REACHABILITY_MAP_H_
#define FUSESCOPE_PASSES_REACHABILITY_MAP_H_

// Answers "does B depend on A?" inside one computation, which multi-output fusion needs to
// avoid cycles. Instead of a quadratic bit matrix (too large for 100k-instruction modules) it
// keeps a def-before-use position per instruction and searches backwards from B through
// operands, never looking at anything placed before A. Positions stay valid when a fusion
// takes its consumer's place (producer-consumer fusion); after any other rewrite call
// Rebuild(), as XLA rebuilds its reachability after each sibling fusion.

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "ir/computation.h"

namespace fusescope::passes {

class ReachabilityMap {
 public:
  explicit ReachabilityMap(const ir::Computation& computation);

  // True when `to` is `from` or (transitively) uses the value of `from`.
  bool IsReachable(const ir::Instruction* from, const ir::Instruction* to) const;
  // Either depends on the other.
  bool IsConnected(const ir::Instruction* a, const ir::Instruction* b) const {
    return IsReachable(a, b) || IsReachable(b, a);
  }

  // Everything that (transitively) uses `from`, as far as position `limit`: a forward search
  // that answers many IsReachable(from, x) questions at once for x placed up to `limit`.
  std::unordered_set<const ir::Instruction*> Descendants(const ir::Instruction* from,
                                                         int64_t limit) const;

  // Where `instruction` sits in the def-before-use order; -1 when unknown.
  int64_t Position(const ir::Instruction* instruction) const;
  // Puts `instruction` at `position`. The caller guarantees the order stays valid: its
  // operands sit at or before it and its users after it.
  void Place(const ir::Instruction* instruction, int64_t position) {
    position_[instruction] = position;
  }
  // `replacement` took `replaced`'s position (its operands all precede it).
  void Replace(const ir::Instruction* replaced, const ir::Instruction* replacement);
  void Erase(const ir::Instruction* instruction) { position_.erase(instruction); }
  void Rebuild();

 private:
  const ir::Computation& computation_;
  std::unordered_map<const ir::Instruction*, int64_t> position_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_REACHABILITY_MAP_H_
