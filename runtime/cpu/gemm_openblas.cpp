// OpenBLAS behind runtime/cpu/gemm.h: cblas_sgemm / cblas_dgemm, row-major.

#include <string>

#include "runtime/cpu/gemm_libraries.h"

#ifdef FUSESCOPE_HAVE_OPENBLAS
#include <cblas.h>
#include <dlfcn.h>
#endif

namespace fusescope::runtime::gemm_libraries {

#ifdef FUSESCOPE_HAVE_OPENBLAS
namespace {

// BLIS exports cblas_* too: where both are linked, the one the dynamic linker finds first
// serves every cblas_sgemm call. It must be the shared object that holds openblas_get_config.
Status CheckCblasIsOpenBlas() {
  Dl_info gemm{}, openblas{};
  void* resolved = dlsym(RTLD_DEFAULT, "cblas_sgemm");
  if (resolved == nullptr || dladdr(resolved, &gemm) == 0 ||
      dladdr(reinterpret_cast<void*>(&openblas_get_config), &openblas) == 0)
    return Status::Error("cannot tell which library this process's cblas_sgemm comes from");
  if (gemm.dli_fbase != openblas.dli_fbase)
    return Status::Error(std::string("cblas_sgemm resolves to ") +
                         (gemm.dli_fname ? gemm.dli_fname : "?") + ", not to OpenBLAS (" +
                         (openblas.dli_fname ? openblas.dli_fname : "?") +
                         "): a library found before OpenBLAS exports cblas_*");
  return Status::Ok();
}

CBLAS_TRANSPOSE Transpose(bool transposed) { return transposed ? CblasTrans : CblasNoTrans; }

template <typename T, typename Gemm>
void Run(const GemmProblem& p, const T* a, const T* b, T* c, Gemm gemm) {
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
  for (int64_t i = 0; i < p.batch; ++i) {
    gemm(CblasRowMajor, Transpose(p.transpose_a), Transpose(p.transpose_b), m, n, k, T{1},
         a + i * p.m * p.k, p.transpose_a ? m : k, b + i * p.k * p.n, p.transpose_b ? k : n, T{0},
         c + i * p.m * p.n, n);
  }
}

}  // namespace

Status OpenBlasAvailable() {
  static const Status checked = CheckCblasIsOpenBlas();
  return checked;
}

std::string OpenBlasVersion() { return openblas_get_config(); }

void OpenBlasGemm(const GemmProblem& problem, const float* a, const float* b, float* c) {
  Run(problem, a, b, c, cblas_sgemm);
}

void OpenBlasGemm(const GemmProblem& problem, const double* a, const double* b, double* c) {
  Run(problem, a, b, c, cblas_dgemm);
}

void OpenBlasSetThreads(int threads) { openblas_set_num_threads(threads); }
int OpenBlasThreads() { return openblas_get_num_threads(); }
std::string OpenBlasCore() { return openblas_get_corename(); }

bool OpenBlasStopThreads() {
  // Not declared by cblas.h, and absent from OpenBLAS's OpenMP and single-threaded builds.
  using Shutdown = int (*)();
  static const auto shutdown =
      reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_"));
  static const auto running = static_cast<const int*>(dlsym(RTLD_DEFAULT, "blas_server_avail"));
  if (shutdown == nullptr || running == nullptr || *running == 0) return false;
  shutdown();
  return true;
}

#else

Status OpenBlasAvailable() {
  return Status::Error(
      "this build has no OpenBLAS (libopenblas-dev was not found when it was "
      "configured)");
}
std::string OpenBlasVersion() { return ""; }
void OpenBlasGemm(const GemmProblem&, const float*, const float*, float*) {}
void OpenBlasGemm(const GemmProblem&, const double*, const double*, double*) {}
void OpenBlasSetThreads(int) {}
int OpenBlasThreads() { return 0; }
std::string OpenBlasCore() { return ""; }
bool OpenBlasStopThreads() { return false; }

#endif

}  // namespace fusescope::runtime::gemm_libraries
