#ifndef FUSESCOPE_RUNTIME_CPU_BLAS_DOT_H_
#define FUSESCOPE_RUNTIME_CPU_BLAS_DOT_H_

// dot through OpenBLAS GEMM: each operand is copied into a row-major [batch, rows, contracted]
// (lhs) or [batch, contracted, columns] (rhs) layout when its dimensions are not already in
// that order, then one cblas_sgemm / cblas_dgemm per batch writes the result, whose XLA
// dimension order (batch, lhs free, rhs free) is exactly that product's.

#include <string>

#include "ir/instruction.h"
#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

// Whether this build has OpenBLAS.
bool BlasAvailable();

// Whether `dot` can run through BLAS (f32 or f64 operands and result of one type, valid
// dimension numbers); otherwise the reason.
Status CheckBlasDot(const ir::Instruction& dot);

// How an f32 dot is computed: cblas_sgemm (kNative), or cblas_dgemm on operands widened to
// f64 and rounded once (kWidened), which gives the interpreter's numbers: a sum of many f32
// products that nearly cancel can differ from the double-precision result by far more than
// 1e-5 relative in single precision.
enum class BlasPrecision { kNative, kWidened };

// Precondition: CheckBlasDot(dot) is ok and the operands have the dot's operand shapes.
// `storage` (optional) becomes the result's bytes when it has the result's size.
StatusOr<Literal> RunBlasDot(const ir::Instruction& dot, const Literal& lhs, const Literal& rhs,
                             BlasPrecision precision = BlasPrecision::kNative,
                             std::vector<uint8_t> storage = {});

// "cblas_sgemm 64x512x256 (batch 2)": the library call `dot` makes.
std::string BlasCallDescription(const ir::Instruction& dot,
                                BlasPrecision precision = BlasPrecision::kNative);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_BLAS_DOT_H_
