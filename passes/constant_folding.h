#ifndef FUSESCOPE_PASSES_CONSTANT_FOLDING_H_
#define FUSESCOPE_PASSES_CONSTANT_FOLDING_H_

// "constant-folding": an instruction whose operands are all constants becomes one constant
// computed from their literal text. Folded: elementwise arithmetic, logic and comparison,
// select, a few exact math functions, convert, broadcast, reshape and transpose, over pred,
// integer, f32 and f64 values. Only small results are folded (at most kMaxElements, as are
// the operands): a folded broadcast would otherwise turn a scalar into a large constant that
// costs memory and load time for no compute saved.
//
// The new constant answers for the folded instruction and for the constants it consumed.
// Operand constants left without users are left for "dce".

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
