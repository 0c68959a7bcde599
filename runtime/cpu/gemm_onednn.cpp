// oneDNN behind runtime/cpu/gemm.h: dnnl_sgemm, which takes row-major matrices. oneDNN 2.6
// has no f64 GEMM on the CPU.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/cpu/gemm_libraries.h"

#ifdef FUSESCOPE_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.h>

#include <oneapi/dnnl/dnnl.hpp>

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

void ApplyRequestedThreads() {
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
  if (const int threads = requested_threads.load(); threads > 0) omp_set_num_threads(threads);
#endif
}

// `threads` (0: leave it) as the calling thread's OpenMP count while it lives.
class OpenMpThreads {
 public:
  explicit OpenMpThreads(int threads) {
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
    if (threads <= 0) return;
    previous_ = omp_get_max_threads();
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
  }
  ~OpenMpThreads() {
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
    if (previous_ > 0) omp_set_num_threads(previous_);
#endif
  }
  OpenMpThreads(const OpenMpThreads&) = delete;
  OpenMpThreads& operator=(const OpenMpThreads&) = delete;

 private:
  int previous_ = 0;
};

const dnnl::engine& CpuEngine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::memory::desc Described(const std::vector<int64_t>& dims,
                             const std::vector<int64_t>& strides) {
  return dnnl::memory::desc(dnnl::memory::dims(dims.begin(), dims.end()),
                            dnnl::memory::data_type::f32,
                            dnnl::memory::dims(strides.begin(), strides.end()));
}

std::string Message(const dnnl::error& error) {
  return std::string(error.what()) + " (oneDNN status " +
         std::to_string(static_cast<int>(error.status)) + ")";
}

// A convolution primitive with the caller's layouts for src and dst, and the weights in the
// layout its kernels chose (format "any"): each run reorders the caller's weights into it.
// Its scratchpad is the caller's (one per run), so that runs on several threads do not share
// one.
class OneDnnConvolution final : public PreparedConvolution {
 public:
  explicit OneDnnConvolution(const DirectConvolution& c) : threads_(c.threads) {
    // oneDNN sizes the primitive's work for the calling thread's OpenMP count now, and runs
    // on that many threads whatever the count is later.
    OpenMpThreads threads(c.threads);
    const dnnl::memory::desc src = Described(c.src_dims, c.src_strides);
    const dnnl::memory::desc dst = Described(c.dst_dims, c.dst_strides);
    std::vector<int64_t> weight_dims = c.weight_dims, weight_strides = c.weight_strides;
    if (c.groups > 1) {
      // oneDNN's grouped weights: {groups, output features per group, input, spatial...}.
      weight_dims[0] /= c.groups;
      weight_dims.insert(weight_dims.begin(), c.groups);
      weight_strides.insert(weight_strides.begin(), weight_strides[0] * weight_dims[1]);
    }
    user_weights_ = Described(weight_dims, weight_strides);
    const dnnl::memory::desc any(dnnl::memory::dims(weight_dims.begin(), weight_dims.end()),
                                 dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
    std::vector<int64_t> dilations;
    for (int64_t d : c.dilations) dilations.push_back(d - 1);  // oneDNN counts the gaps
    const dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, any, dst,
        dnnl::memory::dims(c.strides.begin(), c.strides.end()),
        dnnl::memory::dims(dilations.begin(), dilations.end()),
        dnnl::memory::dims(c.padding_low.begin(), c.padding_low.end()),
        dnnl::memory::dims(c.padding_high.begin(), c.padding_high.end()));
    dnnl::primitive_attr attributes;
    attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const dnnl::convolution_forward::primitive_desc primitive(desc, attributes, CpuEngine());
    implementation_ = primitive.impl_info_str();
    weights_ = primitive.weights_desc();
    scratchpad_ = primitive.scratchpad_desc();
    convolution_ = dnnl::convolution_forward(primitive);
    if (weights_ != user_weights_) {
      dnnl::primitive_attr reorder_attributes;
      reorder_attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      const dnnl::reorder::primitive_desc reorder(CpuEngine(), user_weights_, CpuEngine(), weights_,
                                                  reorder_attributes);
      reorder_scratchpad_ = reorder.scratchpad_desc();
      reorder_ = dnnl::reorder(reorder);
    }
    src_ = src;
    dst_ = dst;
  }
  const std::string& implementation() const override { return implementation_; }
  Status Run(const float* src, const float* weights, float* dst) const override {
    OpenMpThreads threads(threads_);
    try {
      const dnnl::engine& engine = CpuEngine();
      dnnl::stream stream(engine);
      dnnl::memory user_weights(user_weights_, engine, const_cast<float*>(weights));
      dnnl::memory kernel_weights = user_weights;
      if (reorder_) {
        kernel_weights = dnnl::memory(weights_, engine);
        dnnl::memory scratch(reorder_scratchpad_, engine);
        reorder_.execute(stream, {{DNNL_ARG_FROM, user_weights},
                                  {DNNL_ARG_TO, kernel_weights},
                                  {DNNL_ARG_SCRATCHPAD, scratch}});
      }
      dnnl::memory scratch(scratchpad_, engine);
      convolution_.execute(stream,
                           {{DNNL_ARG_SRC, dnnl::memory(src_, engine, const_cast<float*>(src))},
                            {DNNL_ARG_WEIGHTS, kernel_weights},
                            {DNNL_ARG_DST, dnnl::memory(dst_, engine, dst)},
                            {DNNL_ARG_SCRATCHPAD, scratch}});
      stream.wait();
    } catch (const dnnl::error& error) {
      return Status::Error("oneDNN convolution (" + implementation_ +
                           ") failed: " + Message(error));
    }
    return Status::Ok();
  }

 private:
  int threads_ = 0;
  std::string implementation_;
  dnnl::memory::desc src_, dst_, user_weights_, weights_, scratchpad_, reorder_scratchpad_;
  dnnl::convolution_forward convolution_;
  dnnl::reorder reorder_;
};

// A batch of GEMMs as one oneDNN matmul primitive: its kernels split the batch and the blocks
// of each product over the threads together, where dnnl_sgemm one product after another
// splits each small product over them (BERT's 128x128x64 attention products: 62 % of the
// two-core peak that way, 77-95 % as one matmul). Created once per problem and thread count,
// with a scratchpad per run, so that runs on several threads do not share one.
class OneDnnBatchedMatmul {
 public:
  OneDnnBatchedMatmul(const GemmProblem& p, int threads) {
    OpenMpThreads team(threads);
    const int64_t m = p.m, n = p.n, k = p.k;
    a_ = Described({p.batch, m, k}, p.transpose_a ? std::vector<int64_t>{m * k, 1, m}
                                                  : std::vector<int64_t>{m * k, k, 1});
    b_ = Described({p.batch, k, n}, p.transpose_b ? std::vector<int64_t>{k * n, 1, k}
                                                  : std::vector<int64_t>{k * n, n, 1});
    c_ = Described({p.batch, m, n}, {m * n, n, 1});
    dnnl::primitive_attr attributes;
    attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const dnnl::matmul::primitive_desc primitive(dnnl::matmul::desc(a_, b_, c_), attributes,
                                                 CpuEngine());
    implementation_ = primitive.impl_info_str();
    scratchpad_ = primitive.scratchpad_desc();
    matmul_ = dnnl::matmul(primitive);
  }
  const std::string& implementation() const { return implementation_; }
  void Run(const float* a, const float* b, float* c) const {
    const dnnl::engine& engine = CpuEngine();
    dnnl::stream stream(engine);
    dnnl::memory scratch(scratchpad_, engine);
    matmul_.execute(stream, {{DNNL_ARG_SRC, dnnl::memory(a_, engine, const_cast<float*>(a))},
                             {DNNL_ARG_WEIGHTS, dnnl::memory(b_, engine, const_cast<float*>(b))},
                             {DNNL_ARG_DST, dnnl::memory(c_, engine, c)},
                             {DNNL_ARG_SCRATCHPAD, scratch}});
    stream.wait();
  }

 private:
  std::string implementation_;
  dnnl::memory::desc a_, b_, c_, scratchpad_;
  dnnl::matmul matmul_;
};

// The matmul for `p` on `threads`, made on first use; null where oneDNN has only its
// reference kernels for it (slower than dnnl_sgemm's), or refuses it.
std::shared_ptr<const OneDnnBatchedMatmul> BatchedMatmul(const GemmProblem& p, int threads) {
  using Key = std::tuple<int64_t, int64_t, int64_t, int64_t, bool, bool, int>;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const OneDnnBatchedMatmul>> made;
  const Key key{p.batch, p.m, p.n, p.k, p.transpose_a, p.transpose_b, threads};
  std::lock_guard<std::mutex> lock(mutex);
  auto found = made.find(key);
  if (found != made.end()) return found->second;
  std::shared_ptr<const OneDnnBatchedMatmul> matmul;
  try {
    auto candidate = std::make_shared<const OneDnnBatchedMatmul>(p, threads);
    if (candidate->implementation().rfind("ref", 0) != 0) matmul = std::move(candidate);
  } catch (const dnnl::error&) {
    // dnnl_sgemm, one product after another, runs it instead.
  }
  made.emplace(key, matmul);
  return matmul;
}

int CallingThreads() {
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
  return omp_get_max_threads();
#else
  return 0;
#endif
}

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
  ApplyRequestedThreads();
  // On more than one thread, a batch runs as one matmul (one product per thread at a time);
  // on one, the products run one after another either way and dnnl_sgemm costs less to call.
  if (const int threads = CallingThreads(); p.batch > 1 && threads > 1 && p.k > 0) {
    if (auto matmul = BatchedMatmul(p, threads)) {
      try {
        matmul->Run(a, b, c);
        return Status::Ok();
      } catch (const dnnl::error& error) {
        return Status::Error("oneDNN matmul " + p.ToString() + " (" + matmul->implementation() +
                             ") failed: " + Message(error));
      }
    }
  }
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

StatusOr<std::shared_ptr<const PreparedConvolution>> OneDnnPrepareConvolution(
    const DirectConvolution& convolution) {
  std::shared_ptr<OneDnnConvolution> prepared;
  try {
    prepared = std::make_shared<OneDnnConvolution>(convolution);
  } catch (const dnnl::error& error) {
    return Status::Error("oneDNN has no convolution for it: " + Message(error));
  }
  // oneDNN's reference kernels are plain loops, slower than im2col and a GEMM.
  if (prepared->implementation().rfind("ref", 0) == 0)
    return Status::Error("oneDNN has only its reference kernels (" + prepared->implementation() +
                         ") for it");
  return std::shared_ptr<const PreparedConvolution>(std::move(prepared));
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
StatusOr<std::shared_ptr<const PreparedConvolution>> OneDnnPrepareConvolution(
    const DirectConvolution&) {
  return OneDnnAvailable();
}
int OneDnnThreads() { return 0; }

#endif

}  // namespace fusescope::runtime::gemm_libraries
