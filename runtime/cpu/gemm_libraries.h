#ifndef FUSESCOPE_RUNTIME_CPU_GEMM_LIBRARIES_H_
#define FUSESCOPE_RUNTIME_CPU_GEMM_LIBRARIES_H_

// The libraries behind runtime/cpu/gemm.h, one source file each (gemm_openblas.cpp,
// gemm_onednn.cpp, gemm_blis.cpp, gemm_mlir.cpp), so that each library's header is seen by
// its own file alone: BLIS's blis.h declares a cblas.h of its own that must not meet
// OpenBLAS's. Only gemm.cpp includes this. Every Gemm function's precondition: the library is
// available for the type and the problem was checked (non-negative, within int range,
// k > 0, batch > 0).

#include <string>

#include "ir/status.h"
#include "runtime/cpu/gemm.h"

namespace fusescope::runtime::gemm_libraries {

Status OpenBlasAvailable();
std::string OpenBlasVersion();
void OpenBlasGemm(const GemmProblem& problem, const float* a, const float* b, float* c);
void OpenBlasGemm(const GemmProblem& problem, const double* a, const double* b, double* c);
void OpenBlasSetThreads(int threads);
int OpenBlasThreads();
std::string OpenBlasCore();  // openblas_get_corename(); "" without OpenBLAS
// Stops OpenBLAS's worker threads where its build has them (the pthreads build's
// blas_thread_shutdown_, what it runs before a fork); its next threaded call starts them again.
bool OpenBlasStopThreads();

Status OneDnnAvailable();
std::string OneDnnVersion();
Status OneDnnGemm(const GemmProblem& problem, const float* a, const float* b, float* c);
Status OneDnnSetThreads(int threads);
StatusOr<std::shared_ptr<const PreparedConvolution>> OneDnnPrepareConvolution(
    const DirectConvolution& convolution);
int OneDnnThreads();

Status BlisAvailable();
std::string BlisVersion();
void BlisGemm(const GemmProblem& problem, const float* a, const float* b, float* c);
void BlisGemm(const GemmProblem& problem, const double* a, const double* b, double* c);
void BlisSetThreads(int threads);
int BlisThreads();

// The MLIR matmul: compiled once per (problem, type, lowering options) and kept for the
// process.
Status MlirPrepare(const GemmProblem& problem, GemmType type, const LoweringOptions& options,
                   recording::KernelRecord* record);
Status MlirGemm(const GemmProblem& problem, GemmType type, const LoweringOptions& options,
                const void* a, const void* b, void* c);
// "matmul", "batch_matmul_transpose_a", "transpose + batch_matmul" (B stored transposed is
// transposed first).
std::string MlirMatmulOpName(const GemmProblem& problem);

}  // namespace fusescope::runtime::gemm_libraries

#endif  // FUSESCOPE_RUNTIME_CPU_GEMM_LIBRARIES_H_
