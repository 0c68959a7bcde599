#ifndef FUSESCOPE_RUNTIME_INTERPRETER_FLOAT_WIDENING_H_
#define FUSESCOPE_RUNTIME_INTERPRETER_FLOAT_WIDENING_H_

// The exact answer that rounded results are judged by: a copy of a module with every f16,
// bf16 and f32 value made f64, run by the interpreter (InterpreterOptions::
// widen_floats_to_f64). Constants keep the values their own type holds (an f32 0.1 stays
// 0.100000001490116...), so the widened module computes, in f64, what the model's numbers
// are; converts between float types become exact. What depends on a float's width keeps it:
// a bitcast-convert runs in its original types with converts around it.

#include <memory>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

// Whether `type` is one that widening makes f64 (f16, bf16, f32).
bool IsWidenedFloatType(ir::PrimitiveType type);
// `shape` with every widened float type made f64, tuples element by element.
ir::Shape WidenShape(const ir::Shape& shape);

// The widened copy; ids and names are kept, the few converts it adds get new ones.
StatusOr<std::unique_ptr<ir::Module>> WidenFloatsToF64(const ir::Module& module);
// An argument for the widened module: float arrays converted to f64 (exactly), the rest as
// they are.
Literal WidenLiteral(const Literal& literal);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_INTERPRETER_FLOAT_WIDENING_H_
