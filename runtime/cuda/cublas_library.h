#ifndef FUSESCOPE_RUNTIME_CUDA_CUBLAS_LIBRARY_H_
#define FUSESCOPE_RUNTIME_CUDA_CUBLAS_LIBRARY_H_

// cuBLAS, loaded at run time like the driver (runtime/cuda_driver.h): Fusescope never links
// it. `CublasLibrary::Get()` needs the driver (its sentence when there is none), opens
// libcublas.so.13 (or libcublas.so, or the toolkit's copy under /usr/local/cuda), resolves
// the few functions used and creates one handle on the default stream in the driver's
// context.

#include "ir/status.h"
#include "runtime/cuda/cuda_driver.h"
#include "runtime/cuda/gemm_plan.h"

namespace fusescope::runtime {

class CublasLibrary {
 public:
  // The process's cuBLAS, loaded on first use; an error when there is no GPU or no cuBLAS.
  static StatusOr<CublasLibrary*> Get();

  // Queues `plan`'s GEMM on the default stream: C = op(A) op(B) with alpha 1 and beta 0, the
  // buffers of the plan's element type and sizes (runtime/gemm_plan.h: A is the dot's rhs,
  // B its lhs, C the result).
  Status Gemm(const GemmPlan& plan, DevicePointer a, DevicePointer b, DevicePointer c);

  struct Api;  // the resolved cuBLAS functions (cublas_library.cpp)

 private:
  CublasLibrary() = default;
  Api* api_ = nullptr;
  void* handle_ = nullptr;
};

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CUDA_CUBLAS_LIBRARY_H_
