#ifndef FUSESCOPE_PROFILER_MEASURE_H_
#define FUSESCOPE_PROFILER_MEASURE_H_

// Measuring a module: warm-up runs, then `reps` timed runs, each kernel's time per run kept
// (not averaged away), the whole run's latency, and the CPU counters around each run where
// the kernel lets us read them (profiler/cpu_counters.h says why not elsewhere).
//
// The device today is the reference interpreter: its times measure the interpreter, which is
// slow and shaped unlike compiled code, so the profile says so in its device field. What it
// gives is real and exact for what it is: per-instruction wall time of a real run, carried
// to every pass by attribution, the same path compiled kernels' times will take.

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/status.h"
#include "profiler/cpu_counters.h"
#include "profiler/cupti_activity.h"
#include "profiler/profile.h"
#include "recording/kernel_record.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/cuda/cuda_executable.h"
#include "runtime/literal.h"

namespace fusescope::ir {
class Module;
}

namespace fusescope::profiler {

struct MeasureOptions {
  int64_t reps = 10;
  int64_t warmup = 2;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(int64_t done, int64_t total)> progress;  // runs, warm-up included
  // Also time plain runs (no per-kernel clocks, no counters), one beside each timed run in
  // alternating order, so that what profiling costs is measured in the same process.
  // Devices without a plain mode ignore it.
  bool measure_overhead = false;
};

// One GPU kernel of a profiled run as CUPTI recorded it, and the executable's kernel (the
// fusion, dot or instruction) whose launches made it.
struct GpuLaunch {
  GpuKernelActivity activity;
  int64_t kernel = -1;  // index into Measurement::kernels; -1 when no kernel claims it
  // A PTX kernel's launch whose name is an entry of that kernel's launch plan (the name table
  // agreeing with the correlation); false for cuBLAS's own kernels.
  bool named_in_plan = false;
};

struct Measurement {
  Profile profile;  // kernels: the entry computation's instructions that do work
  // Per counter, its value per timed run (counters unavailable here are left out) and the
  // sentence saying which were not available and why ("" when all were).
  std::vector<std::pair<std::string, std::vector<double>>> counters;
  std::string counters_unavailable;
  // Compiled devices: the seconds compiling took and how each kernel was lowered.
  double compile_seconds = 0;
  std::vector<recording::KernelRecord> kernels;
  // The latency of each plain run, microseconds: on the CPU (with
  // MeasureOptions::measure_overhead) runs without kernel clocks or counters, on CUDA (always)
  // runs without a CUPTI collection open.
  std::vector<double> plain_latency_us;
  // CUDA: the GPU kernels of the last timed run, and the launches over all timed runs that no
  // kernel claimed.
  std::vector<GpuLaunch> gpu_launches;
  int64_t unclaimed_launches = 0;
  // What measuring cost: the profile's median latency over the plain runs' median, minus 1
  // (0.03: 3% slower measured); 0 without plain runs.
  double Overhead() const;
};

// `snapshot_index` is stored in the profile (which snapshot's instructions the kernels are).
StatusOr<Measurement> MeasureWithInterpreter(const ir::Module& module,
                                             const std::vector<runtime::Literal>& inputs,
                                             int64_t snapshot_index,
                                             const MeasureOptions& options = {});

// The same on compiled CPU kernels (runtime::CpuExecutable): compiled once, then each kernel's
// wall time per run (a kernel run several times in a run, inside a loop body, counts whole).
StatusOr<Measurement> MeasureOnCpu(const ir::Module& module,
                                   const std::vector<runtime::Literal>& inputs,
                                   int64_t snapshot_index, const MeasureOptions& options = {},
                                   runtime::CpuExecutableOptions cpu_options = {});

// The same on the GPU (runtime::CudaExecutable): compiled once, then two series of runs of
// the same inputs in this process, first without and then with a CUPTI activity collection
// open. With CUPTI each kernel's time per run is the sum of the GPU kernels its launches made
// (CUPTI's device start/end, mapped back by an external correlation id pushed around each
// kernel's launches); kernels that launch nothing on the GPU (host steps, plans of copies only)
// keep their synchronised wall time. Without a GPU: the driver's sentence.
StatusOr<Measurement> MeasureOnCuda(const ir::Module& module,
                                    const std::vector<runtime::Literal>& inputs,
                                    int64_t snapshot_index, const MeasureOptions& options = {},
                                    runtime::CudaExecutableOptions cuda_options = {});

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_MEASURE_H_
