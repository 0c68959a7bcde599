#ifndef FUSESCOPE_PASSES_ALGEBRAIC_SIMPLIFIER_H_
#define FUSESCOPE_PASSES_ALGEBRAIC_SIMPLIFIER_H_

// "algsimp": local rewrites that make an instruction unnecessary or cheaper, as XLA's
// algebraic simplifier does: x+0, x-0, x*1, x/1, x*0 for integers, double negation,
// reshape/transpose/broadcast chains, no-op reshape, transpose, broadcast, convert, copy,
// bitcast, slice, pad, reverse, reduce and one-operand concatenate, select on a constant
// predicate, get-tuple-element of a tuple, x op x for max/min/and/or, and neutral operands
// (and with true, or/xor with 0, maximum with -inf, minimum with +inf).
//
// Fused computations are left alone (they are rewritten by the passes that build them).
// What takes over an instruction's value inherits its provenance, and that of the operands
// that die with it (see RemovalBatch); an instruction rewritten in place takes the provenance
// of the operand it absorbed. Dead code the pass did not make is left for "dce".

#include "passes/pass.h"

namespace fusescope::passes {

class AlgebraicSimplifier : public Pass {
 public:
  std::string_view name() const override { return "algsimp"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_ALGEBRAIC_SIMPLIFIER_H_
