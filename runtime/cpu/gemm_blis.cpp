// BLIS behind runtime/cpu/gemm.h: its typed API, bli_sgemm / bli_dgemm, which takes a row and
// a column stride per matrix (row-major: the row stride is the leading dimension, the column
// stride 1). Not BLIS's cblas_*: the process's cblas_* are OpenBLAS's.

#include <string>

#include "runtime/cpu/gemm_libraries.h"

#ifdef FUSESCOPE_HAVE_BLIS
#include <blis.h>
#endif

namespace fusescope::runtime::gemm_libraries {

#ifdef FUSESCOPE_HAVE_BLIS
namespace {

trans_t Transpose(bool transposed) { return transposed ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE; }

// BLIS's API takes non-const pointers, and reads A, B, alpha and beta only.
template <typename T, typename Gemm>
void Run(const GemmProblem& p, const T* a, const T* b, T* c, Gemm gemm) {
  T one = 1, zero = 0;
  // A stored transposed is k x m: its row stride is m.
  const inc_t a_rows = p.transpose_a ? p.m : p.k;
  const inc_t b_rows = p.transpose_b ? p.k : p.n;
  for (int64_t i = 0; i < p.batch; ++i) {
    gemm(Transpose(p.transpose_a), Transpose(p.transpose_b), p.m, p.n, p.k, &one,
         const_cast<T*>(a + i * p.m * p.k), a_rows, 1, const_cast<T*>(b + i * p.k * p.n), b_rows, 1,
         &zero, c + i * p.m * p.n, p.n, 1);
  }
}

}  // namespace

Status BlisAvailable() { return Status::Ok(); }

std::string BlisVersion() { return std::string("BLIS ") + bli_info_get_version_str(); }

void BlisGemm(const GemmProblem& problem, const float* a, const float* b, float* c) {
  Run(problem, a, b, c, bli_sgemm);
}

void BlisGemm(const GemmProblem& problem, const double* a, const double* b, double* c) {
  Run(problem, a, b, c, bli_dgemm);
}

void BlisSetThreads(int threads) { bli_thread_set_num_threads(threads); }

int BlisThreads() {
  const dim_t threads = bli_thread_get_num_threads();
  return threads < 1 ? 1 : static_cast<int>(threads);
}

#else

Status BlisAvailable() {
  return Status::Error(
      "this build has no BLIS (libblis-dev was not found, or FUSESCOPE_USE_BLIS=OFF, when it "
      "was configured)");
}
std::string BlisVersion() { return ""; }
void BlisGemm(const GemmProblem&, const float*, const float*, float*) {}
void BlisGemm(const GemmProblem&, const double*, const double*, double*) {}
void BlisSetThreads(int) {}
int BlisThreads() { return 0; }

#endif

}  // namespace fusescope::runtime::gemm_libraries
