#include "runtime/cpu/gemm.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>

#include "runtime/cpu/gemm_libraries.h"

namespace fusescope::runtime {
namespace {

namespace libraries = gemm_libraries;

// OpenBLAS and BLIS take int dimensions (BLIS's dim_t is wider, but the same limit keeps the
// libraries interchangeable).
constexpr int64_t kIntLimit = int64_t{1} << 31;

Status CheckProblem(GemmLibrary library, const GemmProblem& p) {
  if (p.batch < 0 || p.m < 0 || p.n < 0 || p.k < 0)
    return Status::Error("GEMM " + p.ToString() + " has a negative dimension");
  if (library != GemmLibrary::kMlir && (p.m >= kIntLimit || p.n >= kIntLimit || p.k >= kIntLimit))
    return Status::Error("GEMM " + p.ToString() + " exceeds " +
                         std::string(GemmLibraryName(library)) + "'s int range");
  return Status::Ok();
}

// A count for one call: set, run, set back. Libraries keep one count per process, so such
// calls take turns.
class ThreadsForOneCall {
 public:
  explicit ThreadsForOneCall(const GemmConfig& config) : library_(config.library) {
    if (config.threads <= 0 || config.library == GemmLibrary::kMlir) return;
    static std::mutex counts;
    turn_ = std::unique_lock<std::mutex>(counts);
    previous_ = GemmThreads(config.library);
    status_ = SetGemmThreads(config.library, config.threads);
    if (!status_.ok()) previous_ = 0;
  }
  ~ThreadsForOneCall() {
    if (previous_ > 0) (void)SetGemmThreads(library_, previous_);
  }
  const Status& status() const { return status_; }

 private:
  GemmLibrary library_;
  std::unique_lock<std::mutex> turn_;
  int previous_ = 0;
  Status status_ = Status::Ok();
};

template <typename T>
Status Run(const GemmConfig& config, const GemmProblem& p, const T* a, const T* b, T* c) {
  constexpr GemmType type = sizeof(T) == 4 ? GemmType::kF32 : GemmType::kF64;
  FS_RETURN_IF_ERROR(GemmLibraryAvailable(config.library, type));
  FS_RETURN_IF_ERROR(CheckProblem(config.library, p));
  if (p.batch == 0 || p.m == 0 || p.n == 0) return Status::Ok();
  if (p.k == 0) {
    std::fill(c, c + p.batch * p.m * p.n, T{0});
    return Status::Ok();
  }
  ThreadsForOneCall threads(config);
  FS_RETURN_IF_ERROR(threads.status());
  switch (config.library) {
    case GemmLibrary::kOpenBlas:
      libraries::OpenBlasGemm(p, a, b, c);
      return Status::Ok();
    case GemmLibrary::kOneDnn:
      if constexpr (type == GemmType::kF32) return libraries::OneDnnGemm(p, a, b, c);
      break;
    case GemmLibrary::kBlis:
      libraries::BlisGemm(p, a, b, c);
      return Status::Ok();
    case GemmLibrary::kMlir:
      return libraries::MlirGemm(p, type, config.lowering, a, b, c);
  }
  return Status::Error("no " + std::string(GemmLibraryName(config.library)) +
                       " GEMM for this type");
}

}  // namespace

StatusOr<int> ParseGemmThreads(std::string_view word) {
  if (word.rfind("threads=", 0) != 0) return Status::Error("not threads=N: " + std::string(word));
  const std::string_view digits = word.substr(8);
  int threads = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), threads);
  if (error != std::errc() || end != digits.data() + digits.size() || threads < 0 || threads > 1024)
    return Status::Error("threads takes a count from 0 (the library's own) to 1024, not '" +
                         std::string(digits) + "'");
  return threads;
}

const std::vector<GemmLibrary>& AllGemmLibraries() {
  static const std::vector<GemmLibrary> all = {GemmLibrary::kOpenBlas, GemmLibrary::kOneDnn,
                                               GemmLibrary::kBlis, GemmLibrary::kMlir};
  return all;
}

std::string_view GemmLibraryName(GemmLibrary library) {
  switch (library) {
    case GemmLibrary::kOpenBlas:
      return "openblas";
    case GemmLibrary::kOneDnn:
      return "onednn";
    case GemmLibrary::kBlis:
      return "blis";
    case GemmLibrary::kMlir:
      return "mlir";
  }
  return "?";
}

StatusOr<GemmLibrary> ParseGemmLibrary(std::string_view name) {
  for (GemmLibrary library : AllGemmLibraries()) {
    if (GemmLibraryName(library) == name) return library;
  }
  return Status::Error("unknown GEMM library '" + std::string(name) +
                       "' (openblas, onednn, blis, mlir)");
}

Status GemmLibraryAvailable(GemmLibrary library) {
  switch (library) {
    case GemmLibrary::kOpenBlas:
      return libraries::OpenBlasAvailable();
    case GemmLibrary::kOneDnn:
      return libraries::OneDnnAvailable();
    case GemmLibrary::kBlis:
      return libraries::BlisAvailable();
    case GemmLibrary::kMlir:
      if (!KernelCompilerAvailable())
        return Status::Error(
            "this build has no MLIR (MLIR 19 was not found when it was "
            "configured)");
      return Status::Ok();
  }
  return Status::Error("unknown GEMM library");
}

Status GemmLibraryAvailable(GemmLibrary library, GemmType type) {
  FS_RETURN_IF_ERROR(GemmLibraryAvailable(library));
  if (library == GemmLibrary::kOneDnn && type == GemmType::kF64)
    return Status::Error("oneDNN has no f64 GEMM (dnnl_sgemm is single precision only)");
  return Status::Ok();
}

std::string GemmLibraryVersion(GemmLibrary library) {
  if (!GemmLibraryAvailable(library).ok()) return "";
  switch (library) {
    case GemmLibrary::kOpenBlas:
      return libraries::OpenBlasVersion();
    case GemmLibrary::kOneDnn:
      return libraries::OneDnnVersion();
    case GemmLibrary::kBlis:
      return libraries::BlisVersion();
    case GemmLibrary::kMlir:
      return "MLIR 19";
  }
  return "";
}

std::string GemmProblem::ToString() const {
  std::string text = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  std::string notes;
  auto note = [&notes](const std::string& what) { notes += (notes.empty() ? "" : ", ") + what; };
  if (batch != 1) note("batch " + std::to_string(batch));
  if (transpose_a) note("A transposed");
  if (transpose_b) note("B transposed");
  return notes.empty() ? text : text + " (" + notes + ")";
}

std::string GemmConfig::ToString() const {
  std::string text(GemmLibraryName(library));
  if (library == GemmLibrary::kMlir) text += " " + lowering.ToString();
  if (threads > 0 && library != GemmLibrary::kMlir) text += " threads=" + std::to_string(threads);
  return text;
}

StatusOr<GemmConfig> GemmConfig::Parse(std::string_view text) {
  const size_t space = text.find(' ');
  StatusOr<GemmLibrary> library = ParseGemmLibrary(text.substr(0, space));
  if (!library.ok()) return library.status();
  GemmConfig config;
  config.library = *library;
  if (space == std::string_view::npos) return config;
  if (config.library != GemmLibrary::kMlir) {
    StatusOr<int> threads = ParseGemmThreads(text.substr(space + 1));
    if (!threads.ok())
      return Status::Error("GEMM library " + std::string(GemmLibraryName(config.library)) +
                           " takes threads=N and no lowering options, not '" +
                           std::string(text.substr(space + 1)) + "'");
    config.threads = *threads;
    return config;
  }
  StatusOr<LoweringOptions> lowering = LoweringOptions::Parse(text.substr(space + 1));
  if (!lowering.ok()) return lowering.status();
  config.lowering = *lowering;
  return config;
}

Status RunGemm(const GemmConfig& config, const GemmProblem& problem, const float* a, const float* b,
               float* c) {
  return Run(config, problem, a, b, c);
}

Status RunGemm(const GemmConfig& config, const GemmProblem& problem, const double* a,
               const double* b, double* c) {
  return Run(config, problem, a, b, c);
}

std::string DirectConvolution::Key() const {
  std::string text = "threads " + std::to_string(threads) + " groups " + std::to_string(groups);
  auto add = [&text](const char* name, const std::vector<int64_t>& values) {
    text += std::string(" ") + name;
    for (int64_t value : values) text += " " + std::to_string(value);
  };
  add("src", src_dims);
  add("/", src_strides);
  add("weights", weight_dims);
  add("/", weight_strides);
  add("dst", dst_dims);
  add("/", dst_strides);
  add("strides", strides);
  add("dilations", dilations);
  add("padding", padding_low);
  add("/", padding_high);
  return text;
}

StatusOr<std::shared_ptr<const PreparedConvolution>> PrepareOneDnnConvolution(
    const DirectConvolution& convolution) {
  FS_RETURN_IF_ERROR(GemmLibraryAvailable(GemmLibrary::kOneDnn, GemmType::kF32));
  // Generating a primitive's code takes milliseconds: once per convolution for the process.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const PreparedConvolution>> prepared;
  const std::string key = convolution.Key();
  std::lock_guard<std::mutex> lock(mutex);
  auto found = prepared.find(key);
  if (found != prepared.end()) return found->second;
  StatusOr<std::shared_ptr<const PreparedConvolution>> made =
      libraries::OneDnnPrepareConvolution(convolution);
  if (made.ok()) prepared.emplace(key, *made);
  return made;
}

Status RunOneDnnConvolution(const PreparedConvolution& prepared, const float* src,
                            const float* weights, float* dst) {
  return prepared.Run(src, weights, dst);
}

Status PrepareGemm(const GemmConfig& config, const GemmProblem& problem, GemmType type,
                   recording::KernelRecord* record) {
  FS_RETURN_IF_ERROR(GemmLibraryAvailable(config.library, type));
  FS_RETURN_IF_ERROR(CheckProblem(config.library, problem));
  if (config.library != GemmLibrary::kMlir || problem.batch == 0 || problem.m == 0 ||
      problem.n == 0 || problem.k == 0)
    return Status::Ok();
  return libraries::MlirPrepare(problem, type, config.lowering, record);
}

std::string GemmCallDescription(const GemmConfig& config, const GemmProblem& problem,
                                GemmType type) {
  const bool f32 = type == GemmType::kF32;
  std::string on_threads;
  if (config.threads > 0 && config.library != GemmLibrary::kMlir) {
    on_threads =
        " on " + std::to_string(config.threads) + (config.threads == 1 ? " thread" : " threads");
  }
  switch (config.library) {
    case GemmLibrary::kOpenBlas:
      return std::string(f32 ? "cblas_sgemm " : "cblas_dgemm ") + problem.ToString() + on_threads;
    case GemmLibrary::kOneDnn:
      if (!f32) return "no oneDNN f64 GEMM" + on_threads;
      // A batch on more than one thread runs as one matmul primitive.
      return (problem.batch > 1 && config.threads != 1 ? "dnnl_matmul " : "dnnl_sgemm ") +
             problem.ToString() + on_threads;
    case GemmLibrary::kBlis:
      return std::string(f32 ? "bli_sgemm " : "bli_dgemm ") + problem.ToString() + on_threads;
    case GemmLibrary::kMlir:
      break;
  }
  std::string text = "mlir " + libraries::MlirMatmulOpName(problem) + " " +
                     config.lowering.ToString() + " " + problem.ToString();
  if (!f32)
    text = text.back() == ')' ? text.substr(0, text.size() - 1) + ", f64)" : text + " (f64)";
  return text;
}

Status SetGemmThreads(GemmLibrary library, int threads) {
  FS_RETURN_IF_ERROR(GemmLibraryAvailable(library));
  if (threads < 1) return Status::Error("a GEMM needs at least one thread");
  switch (library) {
    case GemmLibrary::kOpenBlas:
      libraries::OpenBlasSetThreads(threads);
      return Status::Ok();
    case GemmLibrary::kOneDnn:
      return libraries::OneDnnSetThreads(threads);
    case GemmLibrary::kBlis:
      libraries::BlisSetThreads(threads);
      return Status::Ok();
    case GemmLibrary::kMlir:
      if (threads != 1) return Status::Error("the MLIR matmul runs on one thread");
      return Status::Ok();
  }
  return Status::Error("unknown GEMM library");
}

std::string OpenBlasCore() { return libraries::OpenBlasCore(); }

std::optional<std::string> BetterOpenBlasCore(std::string_view taken,
                                              const CpuVectorFeatures& cpu) {
  // OpenBLAS's x86 kernels older than AVX2 with FMA.
  static constexpr std::string_view kOlder[] = {
      "Katmai",       "Coppermine", "Northwood",  "Prescott",  "Banias",      "Atom",
      "Core2",        "Penryn",     "Dunnington", "Nehalem",   "Sandybridge", "Opteron",
      "Opteron_SSE3", "Barcelona",  "Bobcat",     "Bulldozer", "Piledriver"};
  if (!cpu.avx2_fma) return std::nullopt;
  if (std::find(std::begin(kOlder), std::end(kOlder), taken) == std::end(kOlder))
    return std::nullopt;
  return std::string(cpu.avx512 ? "SkylakeX" : "Haswell");
}

CpuVectorFeatures HostVectorFeatures() {
  CpuVectorFeatures cpu;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  cpu.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  cpu.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#endif
  return cpu;
}

std::optional<std::string> BetterOpenBlasCoreHere() {
  if (!GemmLibraryAvailable(GemmLibrary::kOpenBlas).ok()) return std::nullopt;
  return BetterOpenBlasCore(OpenBlasCore(), HostVectorFeatures());
}

void RestartForBetterOpenBlasKernels(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  const std::optional<std::string> better = BetterOpenBlasCoreHere();
  if (!better) return;
  const std::string taken = OpenBlasCore();
  if (setenv("OPENBLAS_CORETYPE", better->c_str(), 1) != 0 ||
      setenv("FUSESCOPE_OPENBLAS_TOOK", taken.c_str(), 1) != 0)
    return;
  execv("/proc/self/exe", argv);
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv("FUSESCOPE_OPENBLAS_TOOK");
}

bool StopIdleOpenBlasThreads() {
  if (!GemmLibraryAvailable(GemmLibrary::kOpenBlas).ok()) return false;
  return libraries::OpenBlasStopThreads();
}

int GemmThreads(GemmLibrary library) {
  if (!GemmLibraryAvailable(library).ok()) return 0;
  switch (library) {
    case GemmLibrary::kOpenBlas:
      return libraries::OpenBlasThreads();
    case GemmLibrary::kOneDnn:
      return libraries::OneDnnThreads();
    case GemmLibrary::kBlis:
      return libraries::BlisThreads();
    case GemmLibrary::kMlir:
      return 1;
  }
  return 0;
}

}  // namespace fusescope::runtime
