#ifndef FUSESCOPE_RUNTIME_CPU_GEMM_H_
#define FUSESCOPE_RUNTIME_CPU_GEMM_H_

// One row-major batched GEMM, C = A·B, run by a library chosen per call: OpenBLAS
// (cblas_?gemm), oneDNN (dnnl_sgemm), BLIS (its typed API, bli_?gemm with strides) or a
// matmul of our own emitted as MLIR (linalg.matmul / linalg.batch_matmul, their _transpose_a
// forms, and a linalg.transpose of a B stored transposed) and compiled by the kernel compiler
// with the caller's tile size and vector width.
// Which libraries exist is decided when the build is configured (FUSESCOPE_HAVE_OPENBLAS,
// FUSESCOPE_HAVE_ONEDNN, FUSESCOPE_HAVE_BLIS, FUSESCOPE_HAVE_MLIR); a missing one says so
// through GemmLibraryAvailable and every call that asks for it. No library header, and no
// MLIR type, appears here.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"
#include "runtime/cpu/kernel_compiler.h"

namespace fusescope::runtime {

enum class GemmLibrary { kOpenBlas, kOneDnn, kBlis, kMlir };

// Every library, in enum order.
const std::vector<GemmLibrary>& AllGemmLibraries();
// "openblas", "onednn", "blis", "mlir".
std::string_view GemmLibraryName(GemmLibrary library);
// The inverse of GemmLibraryName; an error lists the names.
StatusOr<GemmLibrary> ParseGemmLibrary(std::string_view name);

enum class GemmType { kF32, kF64 };

// "threads=N" (N from 0, the library's own count, to 1024): the word GemmConfig and
// KernelConfig give a library's thread count in.
StatusOr<int> ParseGemmThreads(std::string_view word);

// Whether this build and process can run `library` at all (for some element type);
// otherwise why not. OpenBLAS is also refused when the cblas_sgemm this process calls is not
// OpenBLAS's (a library linked before it exporting cblas_*, as BLIS does).
Status GemmLibraryAvailable(GemmLibrary library);
// The same for one element type: oneDNN 2.6 has no f64 GEMM.
Status GemmLibraryAvailable(GemmLibrary library, GemmType type);
// "OpenBLAS 0.3.21 ...", "oneDNN 2.6.3 (OpenMP)", "BLIS 0.9.0", "MLIR 19"; "" when absent.
std::string GemmLibraryVersion(GemmLibrary library);

// batch products C[i] = A[i]·B[i] of row-major matrices, one after another in memory:
// A[i] is m x k (stored k x m when transpose_a), B[i] is k x n (stored n x k when
// transpose_b), C[i] is m x n. A zero k gives zeros.
struct GemmProblem {
  int64_t batch = 1;
  int64_t m = 0, n = 0, k = 0;
  bool transpose_a = false;
  bool transpose_b = false;
  // "64x512x256" and, where they apply, " (batch 12, A transposed, B transposed)".
  std::string ToString() const;
};

// Which library runs a GEMM, and for kMlir how its matmul is lowered.
struct GemmConfig {
  GemmLibrary library = GemmLibrary::kOpenBlas;
  LoweringOptions lowering;  // kMlir only
  // The library's threads for this call (SetGemmThreads for the call, then back); 0: the
  // library's own count. Not for kMlir, which runs on the calling thread.
  int threads = 0;
  // "openblas", "openblas threads=1", "mlir tile=32 vector=8".
  std::string ToString() const;
  // The form ToString writes; an error names what is wrong.
  static StatusOr<GemmConfig> Parse(std::string_view text);
};

// Runs `problem` (a, b and c must not overlap; c is overwritten). Errors: the library is
// unavailable for the type, a dimension is negative or exceeds the library's int range, the
// library refuses the call, or (kMlir) the matmul fails to compile, with the failing stage.
// Thread-safe, with one caveat: a library keeps one thread count per process, so calls with
// `threads` set take turns, and a call without it on another thread meanwhile runs on that
// count. The CPU executable and the tuner call one GEMM at a time.
Status RunGemm(const GemmConfig& config, const GemmProblem& problem, const float* a, const float* b,
               float* c);
Status RunGemm(const GemmConfig& config, const GemmProblem& problem, const double* a,
               const double* b, double* c);

// A convolution oneDNN runs itself, with its convolution primitive (direct or implicit-GEMM
// kernels generated for this shape and CPU, no im2col matrix), f32 only. Dimensions are in
// oneDNN's order, each with its stride in elements in the caller's buffers: src {batch,
// input features, spatial...}, weights {output features, input features per group,
// spatial...}, dst {batch, output features, spatial...}; output features are grouped in
// `groups` consecutive runs.
struct DirectConvolution {
  int64_t groups = 1;
  std::vector<int64_t> src_dims, src_strides;
  std::vector<int64_t> weight_dims, weight_strides;
  std::vector<int64_t> dst_dims, dst_strides;
  std::vector<int64_t> strides, dilations;  // a dilation of 1 is dense
  std::vector<int64_t> padding_low, padding_high;
  // The threads its kernels are generated for (oneDNN fixes the count when it creates the
  // primitive); 0: oneDNN's own count.
  int threads = 0;
  // Every field, in one line: what the prepared primitives are kept under.
  std::string Key() const;
};
class PreparedConvolution {
 public:
  virtual ~PreparedConvolution() = default;
  // oneDNN's name for the kernels it chose: "brgconv:avx512_core", "jit:avx2".
  virtual const std::string& implementation() const = 0;
  // Reorders the weights into the layout the kernels read (a buffer per call), then runs.
  virtual Status Run(const float* src, const float* weights, float* dst) const = 0;
};
// The primitive for `convolution`, created (its code generated) once per convolution and
// kept for the process. Errors: no oneDNN in this build; oneDNN refuses the convolution (a
// negative padding, sizes that do not agree); oneDNN has only its reference kernels for it
// (slower than im2col and a GEMM).
StatusOr<std::shared_ptr<const PreparedConvolution>> PrepareOneDnnConvolution(
    const DirectConvolution& convolution);
// Runs it (on the threads it was prepared for).
Status RunOneDnnConvolution(const PreparedConvolution& prepared, const float* src,
                            const float* weights, float* dst);

// Everything RunGemm does before computing: the checks and, for kMlir, compiling the matmul
// for this shape and options (cached for the process, so that a timed RunGemm does not
// compile). The compile's record (stages, time) goes to `record` when given.
Status PrepareGemm(const GemmConfig& config, const GemmProblem& problem, GemmType type,
                   recording::KernelRecord* record = nullptr);

// The MLIR text of kMlir's matmul for `problem`: func.func @matmul(%a, %b, %c) on static
// memrefs. With a vector width (options.vector > 0) it is register-blocked: C in blocks of
// `unroll` rows (default 8 at 16 lanes, 4 below) by two vectors of `vector` lanes, whose sums
// stay in vector registers over a block of `tile` steps of k (default 256 for f32, 128 for
// f64; at least 16), one vector.fma per row and vector per step (A's element broadcast, B's
// row loaded once per step); the last columns of a row use masked loads and stores. Without
// one (vector=0), a linalg matmul on tensors lowered like the kernel emitter's kernels
// (scalar loops, `tile` applied).
std::string MlirMatmulText(const GemmProblem& problem, GemmType type,
                           const LoweringOptions& options = {});

// "cblas_sgemm 64x512x256 (batch 2)", "dnnl_sgemm ..." (oneDNN's GEMM, one product after
// another; "dnnl_matmul ..." for a batch on more than one thread: one matmul primitive, which
// splits the batch over the threads), "bli_dgemm ...",
// "mlir transpose + batch_matmul tile=32 vector=8 128x128x64 (batch 12, B transposed)" (with
// ", f64" in the parentheses for an f64 matmul), with " on N thread(s)" where the config
// sets the library's count.
std::string GemmCallDescription(const GemmConfig& config, const GemmProblem& problem,
                                GemmType type);

// Threads a library runs a GEMM on: OpenBLAS's own pool (default: every core, or
// OPENBLAS_NUM_THREADS), oneDNN's OpenMP team (default: every core, or OMP_NUM_THREADS; a
// count set here is applied on whichever thread calls), BLIS (default: one thread unless
// BLIS_NUM_THREADS or OMP_NUM_THREADS says otherwise). The MLIR matmul always runs on the
// calling thread alone.
Status SetGemmThreads(GemmLibrary library, int threads);
int GemmThreads(GemmLibrary library);

// OpenBLAS chooses its kernels once, when it loads, from its own table of CPUs. A CPU the
// table does not know (a virtual machine's "Intel Xeon Processor" that OpenBLAS 0.3.21 took
// for a Prescott) gets its oldest x86 kernels, SSE3 only: a 128x768x768 sgemm took 5-10 ms
// there instead of 0.6 ms with the SkylakeX kernels, and two threads were slower than one.
// The kernels OpenBLAS took ("" without OpenBLAS):
std::string OpenBlasCore();
// The kernels to ask for (OPENBLAS_CORETYPE) when OpenBLAS took ones older than the CPU runs:
// `taken` is one of its pre-AVX2 x86 kernels while the CPU has AVX2 and FMA (SkylakeX with
// AVX-512 F/BW/DQ/VL, else Haswell); nullopt otherwise, a kernel OpenBLAS does not name
// included.
struct CpuVectorFeatures {
  bool avx2_fma = false;
  bool avx512 = false;  // F, BW, DQ and VL
};
std::optional<std::string> BetterOpenBlasCore(std::string_view taken, const CpuVectorFeatures& cpu);
// This CPU's features (cpuid), and BetterOpenBlasCore for this process.
CpuVectorFeatures HostVectorFeatures();
std::optional<std::string> BetterOpenBlasCoreHere();
// For an executable's main, first thing: where BetterOpenBlasCoreHere names kernels, starts
// the process again (/proc/self/exe, `argv`, the same environment) with OPENBLAS_CORETYPE
// naming them and FUSESCOPE_OPENBLAS_TOOK what OpenBLAS had taken. Returns, changing nothing,
// when OPENBLAS_CORETYPE is already set (a user's choice, or the new start), when no better
// kernels exist, or when starting again fails.
void RestartForBetterOpenBlasKernels(char** argv);

// OpenBLAS starts its worker threads when it loads, before main, and each spins on
// sched_yield for 2^28 clock ticks (about 0.1 s) before it sleeps. On a two-core machine that
// is one core taken from whatever the process does first: a fresh `profile` compiled a U-Net
// block's kernels in 174 ms instead of 134 (median of ten), and a small model's compile took
// 60 or 95 ms depending on where the spinner ran. This stops those threads; OpenBLAS starts
// them again at its next call that uses them. Returns whether there were threads to stop.
// For an executable's main, or wherever no other thread can be inside OpenBLAS.
bool StopIdleOpenBlasThreads();

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_GEMM_H_
