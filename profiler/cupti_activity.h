#ifndef FUSESCOPE_PROFILER_CUPTI_ACTIVITY_H_
#define FUSESCOPE_PROFILER_CUPTI_ACTIVITY_H_

// GPU kernel activity through CUPTI's activity API: every kernel the process launches while a
// collection is open, with its name, device start/end, grid and block, registers per thread,
// shared memory and the correlation id of the launch that made it. CUPTI is loaded at run
// time like the driver (runtime/cuda_driver.h); without a driver or GPU, Start() says so in
// the driver's plain sentence, and without CUPTI it says that.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/status.h"

namespace fusescope::profiler {

struct GpuKernelActivity {
  std::string name;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  int32_t grid[3] = {0, 0, 0};
  int32_t block[3] = {0, 0, 0};
  int32_t registers_per_thread = 0;
  int32_t static_shared_bytes = 0;
  int32_t dynamic_shared_bytes = 0;
  uint32_t correlation_id = 0;
  // The id pushed with PushExternalId() around the launch that made it; 0 when none was.
  uint64_t external_id = 0;
  double microseconds() const { return static_cast<double>(end_ns - start_ns) / 1e3; }
};

// One collection at a time per process (CUPTI's activity buffers are process-wide).
class CuptiCollection {
 public:
  static StatusOr<std::unique_ptr<CuptiCollection>> Start();
  ~CuptiCollection();
  CuptiCollection(const CuptiCollection&) = delete;
  CuptiCollection& operator=(const CuptiCollection&) = delete;

  // Flushes CUPTI's buffers and returns the kernels recorded since Start() (or the last
  // Take()), in start order. Records CUPTI dropped are counted in dropped().
  StatusOr<std::vector<GpuKernelActivity>> Take();
  uint64_t dropped() const;

  // Tags the launches this thread makes until the matching PopExternalId() with `id` (not 0):
  // their records carry it as external_id (CUPTI's external correlation), which is how a
  // launch is mapped back to what made it, whatever the kernel is called (cuBLAS's kernels
  // carry cuBLAS's names).
  Status PushExternalId(uint64_t id);
  Status PopExternalId();

 private:
  CuptiCollection() = default;
};

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_CUPTI_ACTIVITY_H_
