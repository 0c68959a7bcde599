#ifndef FUSESCOPE_RUNTIME_CPU_BLAS_DOT_H_
#define FUSESCOPE_RUNTIME_CPU_BLAS_DOT_H_

// dot through a GEMM library (runtime/cpu/gemm.h; OpenBLAS unless told otherwise): each
// operand is read in place when its dimensions are already in the GEMM's row-major order,
// [batch, rows, contracted] (lhs) or [batch, contracted, columns] (rhs), or in the transposed
// order the GEMM reads with a transpose flag ([batch, contracted, rows], [batch, columns,
// contracted]); otherwise it is copied into the GEMM's order. One batched GEMM then writes the
// result, whose XLA dimension order (batch, lhs free, rhs free) is exactly that product's.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/instruction.h"
#include "ir/status.h"
#include "runtime/cpu/gemm.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

// Whether this build has OpenBLAS.
bool BlasAvailable();

// How an f32 dot is computed: an f32 GEMM (kNative), or an f64 GEMM on operands widened to
// f64 and rounded once (kWidened), which gives the interpreter's numbers: a sum of many f32
// products that nearly cancel can differ from the double-precision result by far more than
// 1e-5 relative in single precision.
enum class BlasPrecision { kNative, kWidened };

// Whether `dot` can run through `library` at `precision` (f32 or f64 operands and result of
// one type, valid dimension numbers, the library available for the GEMM's type: oneDNN has no
// f64 GEMM, so neither f64 dots nor widened f32 ones); otherwise the reason.
Status CheckBlasDot(const ir::Instruction& dot, GemmLibrary library = GemmLibrary::kOpenBlas,
                    BlasPrecision precision = BlasPrecision::kNative);

// A dot's dimension numbers, read and checked once: the GEMM's sizes and the order each
// operand is read in. Made by PlanBlasDot, for the calls of a dot run many times.
struct BlasDotPlan;
StatusOr<std::shared_ptr<const BlasDotPlan>> PlanBlasDot(const ir::Instruction& dot);

// Precondition: CheckBlasDot(dot) is ok and the operands have the dot's operand shapes.
// `storage` (optional) becomes the result's bytes when it has the result's size; `plan`
// (optional, PlanBlasDot(dot)'s) saves reading the dimension numbers again. Errors: the
// GEMM's (the library unavailable for the type, a compile failure of the MLIR matmul).
StatusOr<Literal> RunBlasDot(const ir::Instruction& dot, const Literal& lhs, const Literal& rhs,
                             BlasPrecision precision = BlasPrecision::kNative,
                             std::vector<uint8_t> storage = {}, const GemmConfig& gemm = {},
                             const BlasDotPlan* plan = nullptr);

// RunBlasDot into `result`, an array of the dot's shape that already holds its bytes (a
// loop's buffer, written at every step): no value is made. Errors: RunBlasDot's, and a result
// of another size.
Status RunBlasDotInto(const ir::Instruction& dot, const Literal& lhs, const Literal& rhs,
                      BlasPrecision precision, Literal& result, const GemmConfig& gemm = {},
                      const BlasDotPlan* plan = nullptr);

// Everything RunBlasDot does before computing that can be done once: for the MLIR matmul
// (gemm.library kMlir), compiling it for the exact GEMM the dot will call, so that its first
// run does not compile and a build's time includes it. Its stages and compile time go to
// `record` when given (the record's name, note and backend are kept). Nothing for a library.
// Errors: the matmul's compile failure, with its stage.
Status PrepareBlasDot(const ir::Instruction& dot, BlasPrecision precision, const GemmConfig& gemm,
                      recording::KernelRecord* record = nullptr);

// PrepareGemm, its compile's stages, options, failure and time put into `record` (when given)
// while the record's name, note and backend stay: what PrepareBlasDot and
// PrepareBlasConvolution do once they know their GEMM.
Status PrepareGemmInto(const GemmConfig& gemm, const GemmProblem& problem, GemmType type,
                       recording::KernelRecord* record);

// The GEMM a native-precision `dot` runs: its batch, m, n, k, and which operands are read
// transposed in place. Errors: dimension numbers that do not fit the operands.
StatusOr<GemmProblem> DotGemmProblem(const ir::Instruction& dot);

// "cblas_sgemm 64x512x256 (batch 2)", "dnnl_sgemm 64x512x256", "mlir matmul tile=0 vector=8
// 64x512x256": the library call `dot` makes, with ", operands reordered" when one is copied.
std::string BlasCallDescription(const ir::Instruction& dot,
                                BlasPrecision precision = BlasPrecision::kNative,
                                const GemmConfig& gemm = {});

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_BLAS_DOT_H_
