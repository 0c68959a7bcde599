#include "profiler/cupti_activity.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <unordered_map>

#include "runtime/cuda/cuda_driver.h"

#ifdef FUSESCOPE_HAVE_CUPTI_HEADERS
#include <cupti.h>
#endif

namespace fusescope::profiler {

#ifdef FUSESCOPE_HAVE_CUPTI_HEADERS
namespace {

struct CuptiApi {
  CUptiResult (*GetVersion)(uint32_t*);
  CUptiResult (*GetResultString)(CUptiResult, const char**);
  CUptiResult (*RegisterCallbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
  CUptiResult (*Enable)(CUpti_ActivityKind);
  CUptiResult (*Disable)(CUpti_ActivityKind);
  CUptiResult (*FlushAll)(uint32_t);
  CUptiResult (*GetNextRecord)(uint8_t*, size_t, CUpti_Activity**);
  CUptiResult (*GetNumDroppedRecords)(CUcontext, uint32_t, size_t*);
  CUptiResult (*PushExternalCorrelationId)(CUpti_ExternalCorrelationKind, uint64_t);
  CUptiResult (*PopExternalCorrelationId)(CUpti_ExternalCorrelationKind, uint64_t*);

  std::string Error(const char* call, CUptiResult result) const {
    const char* text = nullptr;
    if (GetResultString) GetResultString(result, &text);
    return std::string(call) + " failed: " + (text ? text : "error " + std::to_string(result));
  }
};

template <typename F>
bool Resolve(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}

StatusOr<const CuptiApi*> LoadCupti() {
  static std::once_flag once;
  static CuptiApi api;
  static std::string error;
  std::call_once(once, [] {
    void* library = nullptr;
    for (const char* name : {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so"}) {
      if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    }
    if (!library) {
      error = "CUPTI cannot be loaded (libcupti.so from the CUDA toolkit): " + std::string(dlerror());
      return;
    }
    const bool resolved = Resolve(library, "cuptiGetVersion", api.GetVersion) &&
                          Resolve(library, "cuptiGetResultString", api.GetResultString) &&
                          Resolve(library, "cuptiActivityRegisterCallbacks", api.RegisterCallbacks) &&
                          Resolve(library, "cuptiActivityEnable", api.Enable) &&
                          Resolve(library, "cuptiActivityDisable", api.Disable) &&
                          Resolve(library, "cuptiActivityFlushAll", api.FlushAll) &&
                          Resolve(library, "cuptiActivityGetNextRecord", api.GetNextRecord) &&
                          Resolve(library, "cuptiActivityGetNumDroppedRecords", api.GetNumDroppedRecords) &&
                          Resolve(library, "cuptiActivityPushExternalCorrelationId",
                                  api.PushExternalCorrelationId) &&
                          Resolve(library, "cuptiActivityPopExternalCorrelationId",
                                  api.PopExternalCorrelationId);
    if (!resolved) error = "libcupti lacks an activity function Fusescope needs";
  });
  if (!error.empty()) return Status::Error(error);
  return &api;
}

// What the callbacks fill; guarded because CUPTI completes buffers on its own thread.
std::mutex records_mutex;
std::vector<GpuKernelActivity> records;
std::unordered_map<uint32_t, uint64_t> external_ids;  // by correlation id
std::atomic<uint64_t> dropped_records{0};
std::atomic<bool> collecting{false};
const CuptiApi* active_api = nullptr;
constexpr size_t kBufferBytes = 1 << 20;
// Kernels, and the external correlation of each launch: CUPTI writes an external correlation
// record before each driver or runtime API record made while an id is pushed, so those API
// records are collected too (and skipped when read).
constexpr CUpti_ActivityKind kCollectedKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
    CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_RUNTIME};

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  // CUPTI wants 8-byte aligned buffers.
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext context, uint32_t stream, uint8_t* buffer, size_t,
                              size_t valid) {
  std::vector<GpuKernelActivity> kernels;
  std::vector<std::pair<uint32_t, uint64_t>> externals;
  CUpti_Activity* record = nullptr;
  while (active_api && active_api->GetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
      const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
      if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
        externals.emplace_back(e->correlationId, e->externalId);
      continue;
    }
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        record->kind != CUPTI_ACTIVITY_KIND_KERNEL) {
      continue;
    }
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    GpuKernelActivity activity;
    activity.name = k->name ? k->name : "";
    activity.start_ns = k->start;
    activity.end_ns = k->end;
    activity.grid[0] = k->gridX;
    activity.grid[1] = k->gridY;
    activity.grid[2] = k->gridZ;
    activity.block[0] = k->blockX;
    activity.block[1] = k->blockY;
    activity.block[2] = k->blockZ;
    activity.registers_per_thread = k->registersPerThread;
    activity.static_shared_bytes = k->staticSharedMemory;
    activity.dynamic_shared_bytes = k->dynamicSharedMemory;
    activity.correlation_id = k->correlationId;
    kernels.push_back(std::move(activity));
  }
  size_t dropped = 0;
  if (active_api && active_api->GetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS) {
    dropped_records += dropped;
  }
  std::free(buffer);
  std::lock_guard<std::mutex> lock(records_mutex);
  records.insert(records.end(), kernels.begin(), kernels.end());
  external_ids.insert(externals.begin(), externals.end());
}

}  // namespace

StatusOr<std::unique_ptr<CuptiCollection>> CuptiCollection::Start() {
  StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
  if (!driver.ok()) return Status::Error(driver.message());
  StatusOr<const CuptiApi*> api = LoadCupti();
  if (!api.ok()) return Status::Error(api.message());
  if (collecting.exchange(true)) return Status::Error("a CUPTI collection is already open");
  active_api = *api;
  if (CUptiResult r = (*api)->RegisterCallbacks(BufferRequested, BufferCompleted); r != CUPTI_SUCCESS) {
    collecting = false;
    return Status::Error((*api)->Error("cuptiActivityRegisterCallbacks", r));
  }
  for (size_t i = 0; i < std::size(kCollectedKinds); ++i) {
    if (CUptiResult r = (*api)->Enable(kCollectedKinds[i]); r != CUPTI_SUCCESS) {
      for (size_t j = 0; j < i; ++j) (*api)->Disable(kCollectedKinds[j]);
      collecting = false;
      return Status::Error((*api)->Error("cuptiActivityEnable", r));
    }
  }
  {
    std::lock_guard<std::mutex> lock(records_mutex);
    records.clear();
    external_ids.clear();
  }
  dropped_records = 0;
  return std::unique_ptr<CuptiCollection>(new CuptiCollection());
}

CuptiCollection::~CuptiCollection() {
  if (active_api) {
    active_api->FlushAll(1);  // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED
    for (CUpti_ActivityKind kind : kCollectedKinds) active_api->Disable(kind);
  }
  collecting = false;
}

StatusOr<std::vector<GpuKernelActivity>> CuptiCollection::Take() {
  if (CUptiResult r = active_api->FlushAll(1); r != CUPTI_SUCCESS) {
    return Status::Error(active_api->Error("cuptiActivityFlushAll", r));
  }
  std::vector<GpuKernelActivity> taken;
  {
    std::lock_guard<std::mutex> lock(records_mutex);
    taken.swap(records);
    for (GpuKernelActivity& kernel : taken) {
      auto found = external_ids.find(kernel.correlation_id);
      if (found != external_ids.end()) kernel.external_id = found->second;
    }
    // The rest belong to API calls that launched nothing (copies, synchronisation); a forced
    // flush has delivered every record of the work done so far.
    external_ids.clear();
  }
  std::sort(taken.begin(), taken.end(),
            [](const GpuKernelActivity& a, const GpuKernelActivity& b) { return a.start_ns < b.start_ns; });
  return taken;
}

uint64_t CuptiCollection::dropped() const { return dropped_records; }

Status CuptiCollection::PushExternalId(uint64_t id) {
  if (CUptiResult r =
          active_api->PushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id);
      r != CUPTI_SUCCESS) {
    return Status::Error(active_api->Error("cuptiActivityPushExternalCorrelationId", r));
  }
  return Status::Ok();
}

Status CuptiCollection::PopExternalId() {
  uint64_t last = 0;
  if (CUptiResult r =
          active_api->PopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
      r != CUPTI_SUCCESS) {
    return Status::Error(active_api->Error("cuptiActivityPopExternalCorrelationId", r));
  }
  return Status::Ok();
}

#else  // without CUPTI's headers at build time

StatusOr<std::unique_ptr<CuptiCollection>> CuptiCollection::Start() {
  StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
  if (!driver.ok()) return Status::Error(driver.message());
  return Status::Error("this build has no CUPTI support (the CUDA toolkit was not found at build time)");
}
CuptiCollection::~CuptiCollection() = default;
StatusOr<std::vector<GpuKernelActivity>> CuptiCollection::Take() {
  return Status::Error("this build has no CUPTI support");
}
uint64_t CuptiCollection::dropped() const { return 0; }
Status CuptiCollection::PushExternalId(uint64_t) {
  return Status::Error("this build has no CUPTI support");
}
Status CuptiCollection::PopExternalId() {
  return Status::Error("this build has no CUPTI support");
}

#endif

}  // namespace fusescope::profiler
