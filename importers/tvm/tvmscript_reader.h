#ifndef FUSESCOPE_IMPORTERS_TVM_TVMSCRIPT_READER_H_
#define FUSESCOPE_IMPORTERS_TVM_TVMSCRIPT_READER_H_

// Reads TVMScript (what `IRModule.script()` prints, and so what TVM's DumpIR instrument writes
// per pass) without Python or TVM, as the same operation tree the MLIR readers produce
// (mlir_operation_tree.h), so that one builder turns both into our IR. It relies on how TVM's
// printer lays text out: one statement per line (continued while brackets are open), blocks
// opened by a line ending in `:` and held by deeper indentation.
//
//  - `@I.ir_module class Module:` is a `builtin.module` holding its functions;
//  - `@R.function def f(x: R.Tensor((n, 16), dtype="float32")) -> ...:` is an `R.function`
//    operation with symbol `f` whose region's block arguments are the parameters; every
//    binding `lv = R.op(args...)` / `lv: TYPE = cls.fused_fn(...)` is an operation named
//    after the call as written (`R.matmul`, `cls.fused_matmul_add`), its result the bound
//    name and its type the annotation (or `out_sinfo=` / `out_ty=` of `R.call_tir`, whose
//    first argument is the callee); every argument that names a value is an operand;
//    `metadata["relax.expr.Constant"][i]` (any metadata key) is an `R.const` operation of its
//    own, once per function; `return v` is the terminator `R.return`. A statement that binds
//    nothing (`cls.f(x, alloc)`) is an operation without results. `with R.dataflow():` and
//    other `with`/`if` blocks are read into the function's body in order (Relax's dataflow
//    block only restricts what escapes it; its bindings are the function's dataflow).
//  - `@T.prim_func def f(A: T.Buffer((n, 32), "float32"), ...):` is a `T.prim_func`
//    operation (a scope box, as MLIR functions are); buffers are its values. Each
//    `with T.sblock("name"):` (or `T.block`) is one operation whose operands are the buffers
//    of its `T.reads(...)` and whose result is the first buffer of its `T.writes(...)`; a
//    buffer store outside any block (`C[i] = A[i] + B[i]` of lowered TIR) is a
//    `T.buffer_store` that writes `C`; buffer allocations (`T.alloc_buffer`,
//    `T.sblock_alloc_buffer`, `T.decl_buffer`, `T.match_buffer`, ...) are operations defining
//    their buffer; other calls made for their effect (`T.call_packed(...)`, `T.evaluate(...)`)
//    are operations. Loops and ifs are structure, read through.
//
// Types become MLIR type text the builder understands: `R.Tensor((n, 16), "float32")` ->
// `tensor<?x16xf32>` (a symbolic dimension is dynamic), `T.Buffer((T.int64(32),), "float32")`
// -> `tensor<32xf32>`, `R.Tuple(a, b)` -> `tuple<..>`; other types are kept as written
// (opaque). Anything it cannot read (a garbled header, an unclosed bracket, a string left
// open) is skipped with a warning "FILE:LINE:COL: cause"; it never fails. Nesting deeper than
// kMaxTvmScriptNesting is skipped with a warning. Linear in the text.

#include <string>
#include <string_view>
#include <vector>

#include "importers/mlir/mlir_operation_tree.h"

namespace fusescope::ir::tvm_import {

struct TvmScriptReadResult {
  mlir_import::MlirOperationTree tree;
  std::vector<std::string> warnings;  // "FILE:LINE:COL: cause"
  std::string module_name;            // the `class` name of the `@I.ir_module`, if any
};

inline constexpr int kMaxTvmScriptNesting = 100;

TvmScriptReadResult ReadTvmScript(std::string_view text, std::string_view file);

// `R.Tensor((n, 16), dtype="float32")` -> `tensor<?x16xf32>`; text that is no tensor type is
// returned as written.
std::string MlirTypeOfTvmType(std::string_view type);

}  // namespace fusescope::ir::tvm_import

#endif  // FUSESCOPE_IMPORTERS_TVM_TVMSCRIPT_READER_H_
