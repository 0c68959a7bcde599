#ifndef FUSESCOPE_RUNTIME_CUDA_CUDA_DRIVER_H_
#define FUSESCOPE_RUNTIME_CUDA_CUDA_DRIVER_H_

// The NVIDIA driver, loaded at run time. Fusescope never links libcuda: a binary linked to it
// does not start on a machine without the driver. `CudaDriver::Get()` opens libcuda.so.1,
// resolves the few driver functions it uses, initialises the driver and takes the first
// device's primary context; where any of that fails it says so in one sentence
// ("no NVIDIA driver/GPU found: ...") and everything else keeps working. Through it the CUDA
// backend (runtime/cuda_executable.h) allocates device memory, copies, loads PTX kernels and
// queues their launches, all on the default stream. No CUDA type appears here.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/status.h"

namespace fusescope::runtime {

struct PtxKernel;
class CudaDriver;

// A device address (CUdeviceptr).
using DevicePointer = uint64_t;

// A kernel's PTX modules loaded into the driver's context, each launch's function resolved
// and its temporaries allocated; destroying it unloads and frees them. The PtxKernel must
// outlive it.
class LoadedPtxKernel {
 public:
  ~LoadedPtxKernel();
  LoadedPtxKernel(const LoadedPtxKernel&) = delete;
  LoadedPtxKernel& operator=(const LoadedPtxKernel&) = delete;
  const PtxKernel& kernel() const { return kernel_; }

 private:
  friend class CudaDriver;
  LoadedPtxKernel(CudaDriver& driver, const PtxKernel& kernel)
      : driver_(driver), kernel_(kernel) {}
  CudaDriver& driver_;
  const PtxKernel& kernel_;
  std::vector<void*> modules_;         // CUmodule, one per entry of kernel.ptx
  std::vector<void*> functions_;       // CUfunction per launch (null for a copy)
  std::vector<DevicePointer> temporaries_;
};

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

  // Device memory, and copies that return when done. Everything here runs on the default
  // stream, in order; a library sharing the context (cuBLAS) runs there too.
  StatusOr<DevicePointer> Allocate(int64_t bytes);
  void Free(DevicePointer pointer);
  Status CopyToDevice(DevicePointer to, std::span<const std::byte> from);
  Status CopyToHost(std::span<std::byte> to, DevicePointer from);
  Status CopyOnDevice(DevicePointer to, DevicePointer from, int64_t bytes);
  // Waits until everything queued has finished; a kernel's failure surfaces here.
  Status Synchronize();

  // Loads `kernel`'s PTX (the driver compiles it for the device) and allocates its
  // temporaries.
  StatusOr<std::unique_ptr<LoadedPtxKernel>> Load(const PtxKernel& kernel);
  // Queues the kernel's launches (and its device-to-device copies) on `buffers`: one device
  // buffer per function argument, inputs then outputs, each of the argument's byte size.
  // Returns once they are queued.
  Status Launch(const LoadedPtxKernel& loaded, const std::vector<DevicePointer>& buffers);

  struct Api;  // the resolved driver functions (cuda_driver.cpp)

 private:
  CudaDriver() = default;
  friend class LoadedPtxKernel;
  Status MakeCurrent();
  Api* api_ = nullptr;
  void* context_ = nullptr;
  CudaDevice device_;
};

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CUDA_CUDA_DRIVER_H_
