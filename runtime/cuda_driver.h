#ifndef FUSESCOPE_RUNTIME_CUDA_DRIVER_H_
#define FUSESCOPE_RUNTIME_CUDA_DRIVER_H_

// The NVIDIA driver, loaded at run time. Fusescope never links libcuda: a binary linked to it
// does not start on a machine without the driver. `CudaDriver::Get()` opens libcuda.so.1,
// resolves the few driver functions it uses, initialises the driver and takes the first
// device's primary context; where any of that fails it says so in one sentence
// ("no NVIDIA driver/GPU found: ...") and everything else keeps working.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/status.h"

namespace fusescope::runtime {

struct PtxKernel;

struct CudaDevice {
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int64_t memory_bytes = 0;
  int driver_version = 0;  // e.g. 13000
};

class CudaDriver {
 public:
  // The process's driver, loaded on first use; an error when there is no usable GPU.
  static StatusOr<CudaDriver*> Get();

  const CudaDevice& device() const { return device_; }

  // Runs a kernel lowered by CompileToPtx: copies `inputs` to the device, makes its outputs
  // and temporaries, runs its launches in order and copies the outputs back into `outputs`
  // (one span per output, of the output's byte size). `seconds` (optional) receives the
  // launches' wall time, synchronised, without the copies.
  Status Run(const PtxKernel& kernel, const std::vector<std::span<const std::byte>>& inputs,
             const std::vector<std::span<std::byte>>& outputs, double* seconds = nullptr);

  struct Api;  // the resolved driver functions (cuda_driver.cpp)

 private:
  CudaDriver() = default;
  Api* api_ = nullptr;
  void* context_ = nullptr;
  CudaDevice device_;
};

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CUDA_DRIVER_H_
