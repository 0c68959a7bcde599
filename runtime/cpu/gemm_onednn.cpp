// oneDNN behind runtime/cpu/gemm.h: dnnl_sgemm, which takes row-major matrices. oneDNN 2.6
// has no f64 GEMM on the CPU.

#include <atomic>
#include <string>

#include "runtime/cpu/gemm_libraries.h"

#ifdef FUSESCOPE_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.h>

#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
// oneDNN's OpenMP team takes the calling thread's OpenMP setting; the OpenMP runtime is the one
// oneDNN itself links (libgomp on Debian), declared here rather than through omp.h, which a
// compiler without OpenMP support does not have.
extern "C" {
void omp_set_num_threads(int threads);
int omp_get_max_threads(void);
}
#endif
#endif

namespace fusescope::runtime::gemm_libraries {

#ifdef FUSESCOPE_HAVE_ONEDNN
namespace {

// Threads asked for through SetGemmThreads (0: oneDNN's default).
std::atomic<int> requested_threads{0};

}  // namespace

Status OneDnnAvailable() { return Status::Ok(); }

std::string OneDnnVersion() {
  const dnnl_version_t* version = dnnl_version();
  std::string text = "oneDNN " + std::to_string(version->major) + "." +
                     std::to_string(version->minor) + "." + std::to_string(version->patch);
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
  text += " (OpenMP)";
#endif
  return text;
}

Status OneDnnGemm(const GemmProblem& p, const float* a, const float* b, float* c) {
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
  if (const int threads = requested_threads.load(); threads > 0) omp_set_num_threads(threads);
#endif
  for (int64_t i = 0; i < p.batch; ++i) {
    const dnnl_status_t status =
        dnnl_sgemm(p.transpose_a ? 'T' : 'N', p.transpose_b ? 'T' : 'N', p.m, p.n, p.k, 1.0f,
                   a + i * p.m * p.k, p.transpose_a ? p.m : p.k, b + i * p.k * p.n,
                   p.transpose_b ? p.k : p.n, 0.0f, c + i * p.m * p.n, p.n);
    if (status != dnnl_success)
      return Status::Error("dnnl_sgemm " + p.ToString() + " failed: oneDNN status " +
                           std::to_string(static_cast<int>(status)));
  }
  return Status::Ok();
}

Status OneDnnSetThreads(int threads) {
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
  requested_threads = threads;
  return Status::Ok();
#else
  return Status::Error("this oneDNN does not run on OpenMP: its thread count is not set here");
#endif
}

int OneDnnThreads() {
  if (const int threads = requested_threads.load(); threads > 0) return threads;
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
  return omp_get_max_threads();
#else
  return 0;
#endif
}

#else

Status OneDnnAvailable() {
  return Status::Error(
      "this build has no oneDNN (libdnnl-dev was not found, or FUSESCOPE_USE_ONEDNN=OFF, when "
      "it was configured)");
}
std::string OneDnnVersion() { return ""; }
Status OneDnnGemm(const GemmProblem&, const float*, const float*, float*) {
  return OneDnnAvailable();
}
Status OneDnnSetThreads(int) { return OneDnnAvailable(); }
int OneDnnThreads() { return 0; }

#endif

}  // namespace fusescope::runtime::gemm_libraries
