#include "runtime/cuda/cuda_driver.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>

#include "runtime/cuda/ptx_compiler.h"

namespace fusescope::runtime {

// The driver API's types as the ABI has them (cuda.h is not needed to build this file).
using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
using CUstream = void*;
using CUdeviceptr = unsigned long long;

struct CudaDriver::Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDeviceTotalMem)(size_t*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void**, void**);
  CUresult (*cuGetErrorString)(CUresult, const char**);

  std::string Error(const char* call, CUresult result) const {
    const char* text = nullptr;
    if (cuGetErrorString) cuGetErrorString(result, &text);
    return std::string(call) + " failed: " + (text ? text : "error " + std::to_string(result));
  }
};

namespace {

constexpr int kComputeCapabilityMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeCapabilityMinor = 76;

template <typename F>
bool Resolve(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}

StatusOr<CudaDriver*> LoadDriver(CudaDriver* driver, CudaDriver::Api* api, void** context,
                                 CudaDevice* device) {
  const std::string no_gpu = "no NVIDIA driver/GPU found: ";
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) return Status::Error(no_gpu + "libcuda.so.1 cannot be loaded (" + dlerror() + ")");
  const bool resolved =
      Resolve(library, "cuInit", api->cuInit) &&
      Resolve(library, "cuDriverGetVersion", api->cuDriverGetVersion) &&
      Resolve(library, "cuDeviceGetCount", api->cuDeviceGetCount) &&
      Resolve(library, "cuDeviceGet", api->cuDeviceGet) &&
      Resolve(library, "cuDeviceGetName", api->cuDeviceGetName) &&
      Resolve(library, "cuDeviceGetAttribute", api->cuDeviceGetAttribute) &&
      Resolve(library, "cuDeviceTotalMem_v2", api->cuDeviceTotalMem) &&
      Resolve(library, "cuDevicePrimaryCtxRetain", api->cuDevicePrimaryCtxRetain) &&
      Resolve(library, "cuCtxSetCurrent", api->cuCtxSetCurrent) &&
      Resolve(library, "cuCtxSynchronize", api->cuCtxSynchronize) &&
      Resolve(library, "cuModuleLoadData", api->cuModuleLoadData) &&
      Resolve(library, "cuModuleGetFunction", api->cuModuleGetFunction) &&
      Resolve(library, "cuModuleUnload", api->cuModuleUnload) &&
      Resolve(library, "cuMemAlloc_v2", api->cuMemAlloc) &&
      Resolve(library, "cuMemFree_v2", api->cuMemFree) &&
      Resolve(library, "cuMemcpyHtoD_v2", api->cuMemcpyHtoD) &&
      Resolve(library, "cuMemcpyDtoH_v2", api->cuMemcpyDtoH) &&
      Resolve(library, "cuMemcpyDtoD_v2", api->cuMemcpyDtoD) &&
      Resolve(library, "cuLaunchKernel", api->cuLaunchKernel) &&
      Resolve(library, "cuGetErrorString", api->cuGetErrorString);
  if (!resolved) return Status::Error(no_gpu + "libcuda.so.1 lacks a driver function Fusescope needs");
  if (CUresult r = api->cuInit(0); r != 0) return Status::Error(no_gpu + api->Error("cuInit", r));
  int count = 0;
  if (CUresult r = api->cuDeviceGetCount(&count); r != 0 || count == 0) {
    return Status::Error(no_gpu + (r != 0 ? api->Error("cuDeviceGetCount", r) : "the driver sees no device"));
  }
  CUdevice handle = 0;
  if (CUresult r = api->cuDeviceGet(&handle, 0); r != 0) return Status::Error(api->Error("cuDeviceGet", r));
  char name[256] = {};
  api->cuDeviceGetName(name, sizeof name - 1, handle);
  device->name = name;
  api->cuDeviceGetAttribute(&device->compute_major, kComputeCapabilityMajor, handle);
  api->cuDeviceGetAttribute(&device->compute_minor, kComputeCapabilityMinor, handle);
  size_t memory = 0;
  api->cuDeviceTotalMem(&memory, handle);
  device->memory_bytes = static_cast<int64_t>(memory);
  api->cuDriverGetVersion(&device->driver_version);
  if (CUresult r = api->cuDevicePrimaryCtxRetain(context, handle); r != 0) {
    return Status::Error(api->Error("cuDevicePrimaryCtxRetain", r));
  }
  return driver;
}

int64_t Bytes(const std::vector<int64_t>& shape, int64_t element_bytes) {
  int64_t bytes = element_bytes;
  for (int64_t d : shape) bytes *= d;
  return bytes;
}

}  // namespace

StatusOr<CudaDriver*> CudaDriver::Get() {
  static std::once_flag once;
  static CudaDriver* driver = nullptr;
  static Status error = Status::Ok();
  std::call_once(once, [] {
    auto* candidate = new CudaDriver();
    candidate->api_ = new Api();
    StatusOr<CudaDriver*> loaded =
        LoadDriver(candidate, candidate->api_, &candidate->context_, &candidate->device_);
    if (loaded.ok()) {
      driver = candidate;
    } else {
      error = Status::Error(loaded.message());
      delete candidate->api_;
      delete candidate;
    }
  });
  if (!driver) return error;
  return driver;
}

Status CudaDriver::MakeCurrent() {
  if (CUresult r = api_->cuCtxSetCurrent(context_); r != 0)
    return Status::Error(api_->Error("cuCtxSetCurrent", r));
  return Status::Ok();
}

StatusOr<DevicePointer> CudaDriver::Allocate(int64_t bytes) {
  if (Status current = MakeCurrent(); !current.ok()) return current;
  CUdeviceptr p = 0;
  if (CUresult r = api_->cuMemAlloc(&p, static_cast<size_t>(std::max<int64_t>(bytes, 1))); r != 0)
    return Status::Error(api_->Error("cuMemAlloc", r) + " (" + std::to_string(bytes) + " bytes)");
  return DevicePointer{p};
}

void CudaDriver::Free(DevicePointer pointer) {
  if (pointer != 0) api_->cuMemFree(pointer);
}

Status CudaDriver::CopyToDevice(DevicePointer to, std::span<const std::byte> from) {
  if (from.empty()) return Status::Ok();
  if (CUresult r = api_->cuMemcpyHtoD(to, from.data(), from.size()); r != 0)
    return Status::Error(api_->Error("cuMemcpyHtoD", r));
  return Status::Ok();
}

Status CudaDriver::CopyToHost(std::span<std::byte> to, DevicePointer from) {
  if (to.empty()) return Status::Ok();
  if (CUresult r = api_->cuMemcpyDtoH(to.data(), from, to.size()); r != 0)
    return Status::Error(api_->Error("cuMemcpyDtoH", r));
  return Status::Ok();
}

Status CudaDriver::CopyOnDevice(DevicePointer to, DevicePointer from, int64_t bytes) {
  if (bytes <= 0) return Status::Ok();
  if (CUresult r = api_->cuMemcpyDtoD(to, from, static_cast<size_t>(bytes)); r != 0)
    return Status::Error(api_->Error("cuMemcpyDtoD", r));
  return Status::Ok();
}

Status CudaDriver::Synchronize() {
  if (CUresult r = api_->cuCtxSynchronize(); r != 0)
    return Status::Error(api_->Error("cuCtxSynchronize", r));
  return Status::Ok();
}

LoadedPtxKernel::~LoadedPtxKernel() {
  for (DevicePointer p : temporaries_) driver_.Free(p);
  for (void* module : modules_) driver_.api_->cuModuleUnload(static_cast<CUmodule>(module));
}

StatusOr<std::unique_ptr<LoadedPtxKernel>> CudaDriver::Load(const PtxKernel& kernel) {
  if (Status current = MakeCurrent(); !current.ok()) return current;
  std::unique_ptr<LoadedPtxKernel> loaded(new LoadedPtxKernel(*this, kernel));
  for (const auto& [name, ptx] : kernel.ptx) {
    CUmodule module = nullptr;
    if (CUresult r = api_->cuModuleLoadData(&module, ptx.c_str()); r != 0)
      return Status::Error(api_->Error("cuModuleLoadData", r) + " for " + name);
    loaded->modules_.push_back(module);
  }
  for (const PtxLaunch& launch : kernel.launches) {
    CUfunction function = nullptr;
    if (!launch.is_copy) {
      CUmodule module = nullptr;
      for (size_t i = 0; i < kernel.ptx.size(); ++i) {
        if (kernel.ptx[i].first == launch.module) module = loaded->modules_[i];
      }
      if (!module || api_->cuModuleGetFunction(&function, module, launch.kernel.c_str()) != 0)
        return Status::Error("kernel " + launch.module + "::" + launch.kernel + " is not in its PTX");
    }
    loaded->functions_.push_back(function);
  }
  for (const PtxTemporary& temporary : kernel.temporaries) {
    StatusOr<DevicePointer> p = Allocate(Bytes(temporary.shape, temporary.element_bytes));
    if (!p.ok()) return p.status();
    loaded->temporaries_.push_back(*p);
  }
  return loaded;
}

Status CudaDriver::Launch(const LoadedPtxKernel& loaded, const std::vector<DevicePointer>& buffers) {
  const PtxKernel& kernel = loaded.kernel_;
  if (static_cast<int>(buffers.size()) != kernel.inputs + kernel.outputs) {
    return Status::Error("the kernel takes " + std::to_string(kernel.inputs + kernel.outputs) +
                         " buffers, got " + std::to_string(buffers.size()));
  }
  auto device_buffer = [&](const PtxArgument& argument) {
    return argument.buffer >= 0 ? buffers.at(static_cast<size_t>(argument.buffer))
                                : loaded.temporaries_.at(static_cast<size_t>(-argument.buffer - 1));
  };
  for (size_t l = 0; l < kernel.launches.size(); ++l) {
    const PtxLaunch& launch = kernel.launches[l];
    if (launch.is_copy) {
      const PtxArgument& from = launch.arguments.at(0);
      Status copied = CopyOnDevice(device_buffer(launch.arguments.at(1)), device_buffer(from),
                                   Bytes(from.shape, from.element_bytes));
      if (!copied.ok()) return copied;
      continue;
    }
    // Each parameter's bytes, in order; a buffer is its memref descriptor.
    std::vector<std::vector<std::byte>> storage;
    auto push = [&](const void* data, size_t size) {
      storage.emplace_back(size);
      std::memcpy(storage.back().data(), data, size);
    };
    for (const PtxArgument& argument : launch.arguments) {
      switch (argument.kind) {
        case PtxArgument::Kind::kIndex: push(&argument.integer, 8); break;
        case PtxArgument::Kind::kInteger: {
          const int64_t v = argument.integer;
          const size_t size = argument.bit_width <= 8 ? 1 : argument.bit_width <= 16 ? 2
                              : argument.bit_width <= 32 ? 4 : 8;
          push(&v, size);  // little-endian: the low bytes first
          break;
        }
        case PtxArgument::Kind::kFloat32: {
          const float v = static_cast<float>(argument.real);
          push(&v, 4);
          break;
        }
        case PtxArgument::Kind::kFloat64: push(&argument.real, 8); break;
        case PtxArgument::Kind::kBuffer: {
          const CUdeviceptr p = device_buffer(argument);
          const int64_t zero = 0;
          push(&p, 8);  // allocated
          push(&p, 8);  // aligned
          push(&zero, 8);  // offset
          for (int64_t size : argument.shape) push(&size, 8);
          int64_t stride = 1;
          std::vector<int64_t> strides(argument.shape.size());
          for (size_t i = argument.shape.size(); i-- > 0;) {
            strides[i] = stride;
            stride *= argument.shape[i];
          }
          for (int64_t s : strides) push(&s, 8);
          break;
        }
      }
    }
    std::vector<void*> parameters;
    for (auto& bytes : storage) parameters.push_back(bytes.data());
    CUresult r = api_->cuLaunchKernel(
        static_cast<CUfunction>(loaded.functions_[l]), static_cast<unsigned>(launch.grid[0]),
        static_cast<unsigned>(launch.grid[1]), static_cast<unsigned>(launch.grid[2]),
        static_cast<unsigned>(launch.block[0]), static_cast<unsigned>(launch.block[1]),
        static_cast<unsigned>(launch.block[2]), 0, nullptr, parameters.data(), nullptr);
    if (r != 0) return Status::Error(api_->Error("cuLaunchKernel", r) + " for " + launch.kernel);
  }
  return Status::Ok();
}

Status CudaDriver::Run(const PtxKernel& kernel, const std::vector<std::span<const std::byte>>& inputs,
                       const std::vector<std::span<std::byte>>& outputs, double* seconds) {
  if (static_cast<int>(inputs.size()) != kernel.inputs || static_cast<int>(outputs.size()) != kernel.outputs) {
    return Status::Error("the kernel takes " + std::to_string(kernel.inputs) + " inputs and " +
                         std::to_string(kernel.outputs) + " outputs");
  }
  std::vector<DevicePointer> buffers;  // inputs then outputs
  struct FreeAll {
    CudaDriver& driver;
    std::vector<DevicePointer>& buffers;
    ~FreeAll() {
      for (DevicePointer p : buffers) driver.Free(p);
    }
  } free_all{*this, buffers};
  for (const auto& input : inputs) {
    StatusOr<DevicePointer> p = Allocate(static_cast<int64_t>(input.size()));
    if (!p.ok()) return p.status();
    buffers.push_back(*p);
    if (Status copied = CopyToDevice(*p, input); !copied.ok()) return copied;
  }
  for (const auto& output : outputs) {
    StatusOr<DevicePointer> p = Allocate(static_cast<int64_t>(output.size()));
    if (!p.ok()) return p.status();
    buffers.push_back(*p);
  }
  StatusOr<std::unique_ptr<LoadedPtxKernel>> loaded = Load(kernel);
  if (!loaded.ok()) return loaded.status();
  const auto started = std::chrono::steady_clock::now();
  if (Status launched = Launch(**loaded, buffers); !launched.ok()) return launched;
  if (Status synchronized = Synchronize(); !synchronized.ok()) return synchronized;
  if (seconds) {
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    Status copied = CopyToHost(outputs[i], buffers[inputs.size() + i]);
    if (!copied.ok()) return copied;
  }
  return Status::Ok();
}

}  // namespace fusescope::runtime
