// `fusescope machine [--recalibrate] [--probe-seconds S] [--json]`: this machine's measured
// limits (peak FP32 FLOP/s on one core and all, memory bandwidth), the figures rooflines and
// "fraction of peak" divide by; measured once and cached per machine. Also which hardware
// counters profiling can read here, and why not where it cannot, the GPU, and the cache of
// compiled kernels.

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "ir/json_writer.h"
#include "profiler/cpu_counters.h"
#include "profiler/machine.h"
#include "runtime/cpu/gemm.h"
#include "runtime/cpu/kernel_disk_cache.h"
#include "runtime/cuda/cuda_driver.h"

namespace fusescope::app {
namespace {

int RunMachine(const ParsedArgs& args) {
  profiler::CalibrationOptions options;
  options.seconds_per_probe = *args.NumberValue("--probe-seconds");
  const std::string directory =
      args.Value("--cache-dir").value_or(profiler::DefaultCacheDirectory());
  std::string note;
  StatusOr<profiler::MachineInfo> machine =
      args.Has("--recalibrate") ? profiler::Calibrate(options)
                                : profiler::LoadOrCalibrate(directory, options, &note);
  if (!machine.ok()) return Fail("machine: " + machine.message());
  if (args.Has("--recalibrate")) {
    if (machine->cpu_share < profiler::kTrustedCpuShare) note = profiler::BusyNote(*machine);
    if (Status saved = profiler::SaveMachine(*machine, directory); !saved.ok())
      note += (note.empty() ? "" : "; ") + ("not cached: " + saved.message());
  }
  profiler::CpuCounters counters;
  const std::vector<profiler::CounterReading> readings = counters.Read();
  StatusOr<runtime::CudaDriver*> gpu = runtime::CudaDriver::Get();
  runtime::KernelDiskCache* kernel_cache = runtime::KernelDiskCache::Default();
  const int64_t cached_kernels = kernel_cache ? kernel_cache->kernel_count() : -1;
  const int64_t cached_bytes = kernel_cache ? kernel_cache->total_bytes() : -1;

  if (args.Has("--json")) {
    JsonWriter json;
    json.BeginObject();
    json.Key("cpu_model").String(machine->cpu_model);
    json.Key("logical_cores").Int(machine->logical_cores);
    json.Key("vector_isa").String(machine->vector_isa);
    json.Key("peak_fp32_flops_one_core").Double(machine->peak_flops_one_core);
    json.Key("peak_fp32_flops").Double(machine->peak_flops);
    json.Key("memory_bandwidth_bytes_per_second").Double(machine->memory_bandwidth);
    json.Key("measured_at").String(machine->measured_at);
    json.Key("probe_seconds").Double(machine->probe_seconds);
    json.Key("from_cache").Bool(machine->from_cache);
    json.Key("cpu_share").Double(machine->cpu_share);
    if (!note.empty()) json.Key("note").String(note);
    json.Key("openblas_core").String(runtime::OpenBlasCore());
    if (const char* took = std::getenv("FUSESCOPE_OPENBLAS_TOOK"))
      json.Key("openblas_core_taken_at_load").String(took);
    json.Key("counters").BeginArray();
    for (const profiler::CounterReading& reading : readings) {
      json.BeginObject();
      json.Key("name").String(reading.name);
      json.Key("available").Bool(reading.available);
      if (!reading.available) json.Key("reason").String(reading.unavailable_reason);
      json.EndObject();
    }
    json.EndArray();
    json.Key("gpu").BeginObject();
    json.Key("available").Bool(gpu.ok());
    if (gpu.ok()) {
      const runtime::CudaDevice& device = (*gpu)->device();
      json.Key("name").String(device.name);
      json.Key("compute_capability").String(std::to_string(device.compute_major) + "." +
                                            std::to_string(device.compute_minor));
      json.Key("memory_bytes").Int(device.memory_bytes);
      json.Key("driver_version").Int(device.driver_version);
    } else {
      json.Key("reason").String(gpu.message());
    }
    json.EndObject();
    json.Key("kernel_cache").BeginObject();
    json.Key("on").Bool(kernel_cache != nullptr);
    if (kernel_cache != nullptr) {
      json.Key("path").String(kernel_cache->path());
      json.Key("kernels").Int(cached_kernels);
      json.Key("bytes").Int(cached_bytes);
      json.Key("limit_bytes").Int(kernel_cache->limit_bytes());
      if (!kernel_cache->problem().empty()) json.Key("problem").String(kernel_cache->problem());
    }
    json.EndObject();
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  if (!note.empty()) std::fprintf(stderr, "note: %s\n", note.c_str());
  std::printf("%s, %lld logical cores, %s\n", machine->cpu_model.c_str(),
              static_cast<long long>(machine->logical_cores), machine->vector_isa.c_str());
  std::printf("  peak FP32, one core:   %8.1f GFLOP/s\n", machine->peak_flops_one_core / 1e9);
  std::printf("  peak FP32, all cores:  %8.1f GFLOP/s\n", machine->peak_flops / 1e9);
  std::printf("  memory bandwidth:      %8.1f GB/s (triad)\n", machine->memory_bandwidth / 1e9);
  std::printf("  ridge point:           %8.2f FLOP/byte\n",
              machine->memory_bandwidth > 0 ? machine->peak_flops / machine->memory_bandwidth : 0);
  std::printf("  measured %s in %.2f s%s, the probes on %.0f%% of their cores\n",
              machine->measured_at.c_str(), machine->probe_seconds,
              machine->from_cache ? " (cached)" : "", 100 * machine->cpu_share);
  if (const std::string core = runtime::OpenBlasCore(); !core.empty()) {
    const char* took = std::getenv("FUSESCOPE_OPENBLAS_TOOK");
    std::printf("  OpenBLAS kernels:      %s%s\n", core.c_str(),
                took ? (std::string(" (it took ") + took +
                        ", older than this CPU runs: set through OPENBLAS_CORETYPE)")
                           .c_str()
                     : "");
  }
  std::printf("counters:\n");
  for (const profiler::CounterReading& reading : readings) {
    std::printf("  %-13s %s\n", reading.name.c_str(),
                reading.available ? "available" : reading.unavailable_reason.c_str());
  }
  if (gpu.ok()) {
    const runtime::CudaDevice& device = (*gpu)->device();
    std::printf("gpu: %s, compute capability %d.%d, %.1f GiB, driver %d\n", device.name.c_str(),
                device.compute_major, device.compute_minor,
                static_cast<double>(device.memory_bytes) / (1 << 30), device.driver_version);
  } else {
    std::printf("gpu: %s\n", gpu.message().c_str());
  }
  if (kernel_cache == nullptr) {
    std::printf("kernel cache: off (FUSESCOPE_KERNEL_CACHE=off, or no home folder)\n");
  } else if (!kernel_cache->problem().empty()) {
    std::printf("kernel cache: %s, not used: %s\n", kernel_cache->path().c_str(),
                kernel_cache->problem().c_str());
  } else {
    std::printf(
        "kernel cache: %s, %lld kernels, %.2f of %.0f MiB (FUSESCOPE_KERNEL_CACHE=off "
        "turns it off; deleting the file empties it)\n",
        kernel_cache->path().c_str(), static_cast<long long>(cached_kernels),
        static_cast<double>(cached_bytes) / (1 << 20),
        static_cast<double>(kernel_cache->limit_bytes()) / (1 << 20));
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "machine",
    .summary =
        "this machine's peak FLOP/s and memory bandwidth (measured once, cached), counters and GPU",
    .flags =
        {
            Switch("--recalibrate", "measure again and replace the cached figures"),
            Number("--probe-seconds", "S", "how long each probe runs")
                .Default(profiler::CalibrationOptions{}.seconds_per_probe)
                .AtLeast(0),
            Text("--cache-dir", "DIR",
                 "where the figures are cached (default: $XDG_CACHE_HOME/fusescope, else "
                 "~/.cache/fusescope)"),
            JsonFlag(),
        },
    .run = RunMachine,
});

}  // namespace
}  // namespace fusescope::app
