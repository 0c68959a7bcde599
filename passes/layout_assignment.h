#ifndef FUSESCOPE_PASSES_LAYOUT_ASSIGNMENT_H_
#define FUSESCOPE_PASSES_LAYOUT_ASSIGNMENT_H_

// "layout-assignment": gives every array shape without a layout one, so that later passes
// and the runtime know the physical order of each buffer. Layouts already written are kept.
//  - Entry parameters take the layouts of the module's entry_computation_layout, and the
//    entry result is copied into its layout when it differs.
//  - An elementwise op follows its first operand of the same rank (no hidden transposition);
//    a fused parameter follows the fusion's operand and the fusion its fused root.
//  - Everything else gets the default descending layout {rank-1,...,0}.
//  - Dot operands must be row-major for the library GEMM the runtime calls; an operand in
//    another layout gets a copy into the default layout first.
// Scalars carry no layout, as XLA prints them. When the module has no
// entry_computation_layout the pass writes one from the assigned entry signature.

#include "passes/pass.h"

namespace fusescope::passes {

class LayoutAssignment : public Pass {
 public:
  std::string_view name() const override { return "layout-assignment"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_LAYOUT_ASSIGNMENT_H_
