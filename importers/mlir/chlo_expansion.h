#ifndef FUSESCOPE_IMPORTERS_MLIR_CHLO_EXPANSION_H_
#define FUSESCOPE_IMPORTERS_MLIR_CHLO_EXPANSION_H_

// chlo operations that HLO has no opcode for, as computations of elementwise HLO operations:
// what XLA computes for them once it has decomposed them (jax emits chlo.erf_inv for
// jax.random.normal, chlo.sinh/cosh/asin/acos/atanh/asinh for the numpy functions).

#include <functional>
#include <string>
#include <string_view>

#include "ir/computation.h"
#include "ir/shape.h"

namespace fusescope::ir::mlir_import {

// Whether `name` (without the `chlo.` prefix) has an expansion here.
bool HasChloExpansion(std::string_view name);

// Fills the empty `computation` with the expansion of chlo.`name` applied to one operand of
// floating-point `shape`: parameter 0, the result its root. `unique_name` names each
// instruction. Returns false (and adds nothing) for another name or a non-float shape.
bool ExpandChlo(std::string_view name, const Shape& shape, Computation& computation,
                const std::function<std::string(std::string_view)>& unique_name);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_CHLO_EXPANSION_H_
