#ifndef FUSESCOPE_PASSES_REMOVAL_BATCH_H_
#define FUSESCOPE_PASSES_REMOVAL_BATCH_H_

// Instructions a pass replaces during a sweep over one computation, removed together at the
// end (one at a time, each removal would scan the computation). Replacing an instruction
// also buries what dies with it, as XLA's ReplaceInstruction does: operands that nothing
// else uses, recursively (the zero of x + 0 and the constant it broadcasts). The heir takes
// over the provenance of everything buried on its behalf, so every original instruction
// that still contributed to a result keeps mapping to something.

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/computation.h"
#include "passes/side_effect_analysis.h"

namespace fusescope::passes {

class RemovalBatch {
 public:
  explicit RemovalBatch(const SideEffectAnalysis& effects) : effects_(effects) {}

  // Hands every use of `old` (and its role as root) to `replacement`, then buries `old`.
  void Replace(ir::Instruction* old, ir::Instruction* replacement);
  // `dead` has no users left and is not a root: it and the operands only it used go,
  // their provenance to `heir`. Parameters and side-effecting instructions never go.
  void Bury(ir::Instruction* dead, ir::Instruction* heir);

  bool empty() const { return order_.empty(); }
  // Removes every buried instruction from `computation` and empties the batch.
  void RemoveFrom(ir::Computation& computation);

 private:
  bool Dies(const ir::Instruction* operand, const ir::Instruction* heir) const;

  const SideEffectAnalysis& effects_;
  std::unordered_set<const ir::Instruction*> buried_;
  // How many of each instruction's users are buried, so that a value with thousands of
  // users (a broadcast zero) is not rescanned on every burial.
  std::unordered_map<const ir::Instruction*, int64_t> buried_users_;
  std::vector<ir::Instruction*> order_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_REMOVAL_BATCH_H_
