#ifndef FUSESCOPE_PASSES_CONSTANT_FOLDING_H_
#define FUSESCOPE_PASSES_CONSTANT_FOLDING_H_

// "constant-folding": an instruction whose operands are all constants becomes one constant
// computed from their literal text. Folded: elementwise arithmetic, logic and comparison,
// select, a few exact math functions, convert, reshape and transpose, over pred, integer,
// f32 and f64 values. A broadcast of a constant is not folded on its own, as in XLA: it
// would turn a scalar into an array constant that costs memory and stays out of fusions.
// It counts as a constant operand, though, so what consumes it folds. Only small values
// take part (at most kMaxElements, operands and results alike).
//
// The new constant answers for the folded instruction and for the operands that die with it
// (they are removed in the same run, see RemovalBatch).

#include <cstdint>

#include "passes/pass.h"

namespace fusescope::passes {

class ConstantFolding : public Pass {
 public:
  static constexpr int64_t kMaxElements = 1024;

  std::string_view name() const override { return "constant-folding"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_CONSTANT_FOLDING_H_
