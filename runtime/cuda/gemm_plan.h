#ifndef FUSESCOPE_RUNTIME_CUDA_GEMM_PLAN_H_
#define FUSESCOPE_RUNTIME_CUDA_GEMM_PLAN_H_

// An HLO dot as one column-major strided-batched GEMM (cuBLAS's convention), reading its
// operands where they are whenever their order allows. Our buffers are row-major with the
// dot's result ordered (batch, lhs free, rhs free): read column-major, that memory is the
// transposed product C^T = B^T A^T, so the GEMM's first operand is the dot's rhs and its
// second the lhs. Each operand must be read as [batch..., free..., contracting...] or
// [batch..., contracting..., free...] (the second is a transposed GEMM operand); an operand in
// another order (batch dimensions not leading, contracting dimensions apart or out of order)
// is first transposed into a temporary in one of those orders, and the plan says with which
// permutation. A pure function of the instruction: it is checked without a GPU by running the
// same parameters (and permutations) through a column-major host GEMM.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/instruction.h"
#include "ir/status.h"

namespace fusescope::runtime {

struct GemmPlan {
  // Column-major C (m x n) = op(A) (m x k) * op(B) (k x n), `batch` times, each operand
  // advancing by its stride (in elements) per batch.
  bool transpose_a = false;  // A is the dot's rhs
  bool transpose_b = false;  // B is the dot's lhs
  int64_t m = 1, n = 1, k = 1, batch = 1;
  int64_t lda = 1, ldb = 1, ldc = 1;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;
  bool f64 = false;  // f64 operands and result; otherwise f32
  // When not empty: the operand is first transposed (result dimension i = operand dimension
  // permutation[i]) to [batch..., free..., contracting...] (lhs) or [batch..., contracting...,
  // free...] (rhs), and the GEMM reads that.
  std::vector<int64_t> lhs_permutation;
  std::vector<int64_t> rhs_permutation;
  // "cublasSgemmStridedBatched N,T m=64 n=128 k=32 batch 8", and ", lhs transposed {1,0,2}".
  std::string Description() const;
};

// Precondition: none; a dot whose types or dimension numbers the mapping does not cover is
// refused with the reason.
StatusOr<GemmPlan> PlanGemm(const ir::Instruction& dot);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CUDA_GEMM_PLAN_H_
