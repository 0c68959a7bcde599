#include "runtime/cuda/cublas_library.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace fusescope::runtime {

// cuBLAS's types as the ABI has them (cublas_api.h is not needed to build this file).
using cublasStatus_t = int;
using cublasHandle_t = void*;
using cublasOperation_t = int;  // CUBLAS_OP_N = 0, CUBLAS_OP_T = 1
using cudaStream_t = void*;

struct CublasLibrary::Api {
  cublasStatus_t (*cublasCreate)(cublasHandle_t*);
  cublasStatus_t (*cublasSetStream)(cublasHandle_t, cudaStream_t);
  cublasStatus_t (*cublasSgemmStridedBatched)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                              int, int, int, const float*, const float*, int,
                                              long long, const float*, int, long long, const float*,
                                              float*, int, long long, int);
  cublasStatus_t (*cublasDgemmStridedBatched)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                              int, int, int, const double*, const double*, int,
                                              long long, const double*, int, long long,
                                              const double*, double*, int, long long, int);
  const char* (*cublasGetStatusString)(cublasStatus_t);

  std::string Error(const char* call, cublasStatus_t status) const {
    const char* text = cublasGetStatusString ? cublasGetStatusString(status) : nullptr;
    return std::string(call) + " failed: " + (text ? text : "status " + std::to_string(status));
  }
};

namespace {

template <typename F>
bool Resolve(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}

Status Load(CublasLibrary::Api* api, void** handle) {
  void* library = nullptr;
  std::string tried;
  for (const char* name :
       {"libcublas.so.13", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13"}) {
    if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    tried += std::string(tried.empty() ? "" : "; ") + dlerror();
  }
  if (!library) return Status::Error("cuBLAS cannot be loaded (" + tried + ")");
  const bool resolved =
      Resolve(library, "cublasCreate_v2", api->cublasCreate) &&
      Resolve(library, "cublasSetStream_v2", api->cublasSetStream) &&
      Resolve(library, "cublasSgemmStridedBatched", api->cublasSgemmStridedBatched) &&
      Resolve(library, "cublasDgemmStridedBatched", api->cublasDgemmStridedBatched) &&
      Resolve(library, "cublasGetStatusString", api->cublasGetStatusString);
  if (!resolved) return Status::Error("libcublas lacks a function Fusescope needs");
  if (cublasStatus_t r = api->cublasCreate(handle); r != 0)
    return Status::Error(api->Error("cublasCreate_v2", r));
  if (cublasStatus_t r = api->cublasSetStream(*handle, nullptr); r != 0)
    return Status::Error(api->Error("cublasSetStream_v2", r));
  return Status::Ok();
}

}  // namespace

StatusOr<CublasLibrary*> CublasLibrary::Get() {
  StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (!driver.ok()) return driver.status();
  static std::once_flag once;
  static CublasLibrary* library = nullptr;
  static Status error = Status::Ok();
  std::call_once(once, [driver] {
    // cuBLAS takes the context current on this thread: the driver's primary context.
    StatusOr<DevicePointer> probe = (*driver)->Allocate(1);
    if (!probe.ok()) {
      error = probe.status();
      return;
    }
    (*driver)->Free(*probe);
    auto* candidate = new CublasLibrary();
    candidate->api_ = new Api();
    Status loaded = Load(candidate->api_, &candidate->handle_);
    if (loaded.ok()) {
      library = candidate;
    } else {
      error = loaded;
      delete candidate->api_;
      delete candidate;
    }
  });
  if (!library) return error;
  return library;
}

Status CublasLibrary::Gemm(const GemmPlan& plan, DevicePointer a, DevicePointer b,
                           DevicePointer c) {
  const int transa = plan.transpose_a ? 1 : 0;
  const int transb = plan.transpose_b ? 1 : 0;
  const auto m = static_cast<int>(plan.m), n = static_cast<int>(plan.n),
             k = static_cast<int>(plan.k);
  const auto lda = static_cast<int>(plan.lda), ldb = static_cast<int>(plan.ldb),
             ldc = static_cast<int>(plan.ldc), batch = static_cast<int>(plan.batch);
  cublasStatus_t r = 0;
  if (plan.f64) {
    const double one = 1, zero = 0;
    r = api_->cublasDgemmStridedBatched(
        handle_, transa, transb, m, n, k, &one, reinterpret_cast<const double*>(a), lda,
        plan.stride_a, reinterpret_cast<const double*>(b), ldb, plan.stride_b, &zero,
        reinterpret_cast<double*>(c), ldc, plan.stride_c, batch);
  } else {
    const float one = 1, zero = 0;
    r = api_->cublasSgemmStridedBatched(
        handle_, transa, transb, m, n, k, &one, reinterpret_cast<const float*>(a), lda,
        plan.stride_a, reinterpret_cast<const float*>(b), ldb, plan.stride_b, &zero,
        reinterpret_cast<float*>(c), ldc, plan.stride_c, batch);
  }
  if (r != 0)
    return Status::Error(
        api_->Error(plan.f64 ? "cublasDgemmStridedBatched" : "cublasSgemmStridedBatched", r));
  return Status::Ok();
}

}  // namespace fusescope::runtime
