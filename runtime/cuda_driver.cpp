#include "runtime/cuda_driver.h"

#include <dlfcn.h>

#include <chrono>
#include <cstring>
#include <mutex>

#include "runtime/ptx_compiler.h"

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

StatusOr<CudaDriver*> Load(CudaDriver* driver, CudaDriver::Api* api, void** context,
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

// Device buffers freed on every path out of Run.
class DeviceBuffers {
 public:
  explicit DeviceBuffers(const CudaDriver::Api& api) : api_(api) {}
  ~DeviceBuffers() {
    for (CUdeviceptr p : buffers_) api_.cuMemFree(p);
  }
  StatusOr<CUdeviceptr> Allocate(int64_t bytes) {
    CUdeviceptr p = 0;
    if (CUresult r = api_.cuMemAlloc(&p, static_cast<size_t>(std::max<int64_t>(bytes, 1))); r != 0) {
      return Status::Error(api_.Error("cuMemAlloc", r) + " (" + std::to_string(bytes) + " bytes)");
    }
    buffers_.push_back(p);
    return p;
  }

 private:
  const CudaDriver::Api& api_;
  std::vector<CUdeviceptr> buffers_;
};

}  // namespace

StatusOr<CudaDriver*> CudaDriver::Get() {
  static std::once_flag once;
  static CudaDriver* driver = nullptr;
  static Status error = Status::Ok();
  std::call_once(once, [] {
    auto* candidate = new CudaDriver();
    candidate->api_ = new Api();
    StatusOr<CudaDriver*> loaded =
        Load(candidate, candidate->api_, &candidate->context_, &candidate->device_);
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

Status CudaDriver::Run(const PtxKernel& kernel, const std::vector<std::span<const std::byte>>& inputs,
                       const std::vector<std::span<std::byte>>& outputs, double* seconds) {
  const Api& api = *api_;
  if (CUresult r = api.cuCtxSetCurrent(context_); r != 0) return Status::Error(api.Error("cuCtxSetCurrent", r));
  if (static_cast<int>(inputs.size()) != kernel.inputs || static_cast<int>(outputs.size()) != kernel.outputs) {
    return Status::Error("the kernel takes " + std::to_string(kernel.inputs) + " inputs and " +
                         std::to_string(kernel.outputs) + " outputs");
  }
  DeviceBuffers buffers(api);
  std::vector<CUdeviceptr> arguments;  // inputs then outputs
  for (const auto& input : inputs) {
    auto p = buffers.Allocate(static_cast<int64_t>(input.size()));
    if (!p.ok()) return Status::Error(p.message());
    if (CUresult r = api.cuMemcpyHtoD(*p, input.data(), input.size()); r != 0) {
      return Status::Error(api.Error("cuMemcpyHtoD", r));
    }
    arguments.push_back(*p);
  }
  for (const auto& output : outputs) {
    auto p = buffers.Allocate(static_cast<int64_t>(output.size()));
    if (!p.ok()) return Status::Error(p.message());
    arguments.push_back(*p);
  }
  std::vector<CUdeviceptr> temporaries;
  for (const PtxTemporary& temporary : kernel.temporaries) {
    auto p = buffers.Allocate(Bytes(temporary.shape, temporary.element_bytes));
    if (!p.ok()) return Status::Error(p.message());
    temporaries.push_back(*p);
  }
  std::vector<std::pair<std::string, CUmodule>> modules;
  auto unload = [&] {
    for (auto& [name, module] : modules) api.cuModuleUnload(module);
  };
  for (const auto& [name, ptx] : kernel.ptx) {
    CUmodule module = nullptr;
    if (CUresult r = api.cuModuleLoadData(&module, ptx.c_str()); r != 0) {
      unload();
      return Status::Error(api.Error("cuModuleLoadData", r) + " for " + name);
    }
    modules.emplace_back(name, module);
  }
  const auto started = std::chrono::steady_clock::now();
  auto device_buffer = [&](const PtxArgument& argument) {
    return argument.buffer >= 0 ? arguments.at(argument.buffer)
                                : temporaries.at(-argument.buffer - 1);
  };
  for (const PtxLaunch& launch : kernel.launches) {
    if (launch.is_copy) {
      const PtxArgument& from = launch.arguments.at(0);
      const size_t bytes = static_cast<size_t>(Bytes(from.shape, from.element_bytes));
      if (CUresult r = api.cuMemcpyDtoD(device_buffer(launch.arguments.at(1)), device_buffer(from), bytes);
          r != 0) {
        unload();
        return Status::Error(api.Error("cuMemcpyDtoD", r));
      }
      continue;
    }
    CUmodule module = nullptr;
    for (auto& [name, m] : modules) {
      if (name == launch.module) module = m;
    }
    CUfunction function = nullptr;
    if (!module || api.cuModuleGetFunction(&function, module, launch.kernel.c_str()) != 0) {
      unload();
      return Status::Error("kernel " + launch.module + "::" + launch.kernel + " is not in its PTX");
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
    CUresult r = api.cuLaunchKernel(
        function, static_cast<unsigned>(launch.grid[0]), static_cast<unsigned>(launch.grid[1]),
        static_cast<unsigned>(launch.grid[2]), static_cast<unsigned>(launch.block[0]),
        static_cast<unsigned>(launch.block[1]), static_cast<unsigned>(launch.block[2]), 0,
        nullptr, parameters.data(), nullptr);
    if (r != 0) {
      unload();
      return Status::Error(api.Error("cuLaunchKernel", r) + " for " + launch.kernel);
    }
  }
  if (CUresult r = api.cuCtxSynchronize(); r != 0) {
    unload();
    return Status::Error(api.Error("cuCtxSynchronize", r));
  }
  if (seconds) {
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (CUresult r = api.cuMemcpyDtoH(outputs[i].data(), arguments[inputs.size() + i],
                                      outputs[i].size());
        r != 0) {
      unload();
      return Status::Error(api.Error("cuMemcpyDtoH", r));
    }
  }
  unload();
  return Status::Ok();
}

}  // namespace fusescope::runtime
