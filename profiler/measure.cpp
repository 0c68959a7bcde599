#include "profiler/measure.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>

#include "ir/module.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/cuda/cuda_driver.h"
#include "runtime/interpreter/interpreter.h"

namespace fusescope::profiler {
namespace {

bool DoesNoWork(ir::Opcode opcode) {
  switch (opcode) {
    case ir::Opcode::kParameter:
    case ir::Opcode::kConstant:
    case ir::Opcode::kTuple:
    case ir::Opcode::kGetTupleElement:
      return true;
    default:
      return false;
  }
}


// One timed unit of a run: the kernel's instruction id and name, and its seconds.
struct UnitTime {
  int64_t instruction_id;
  std::string name;
  double seconds;
};
using RunOnce = std::function<Status(std::vector<UnitTime>&)>;
using RunPlain = std::function<Status()>;

// Warm-up, then timed runs of `run_once`: latency per run, each unit's time per run, counters.
// With `run_plain` and options.measure_overhead, a plain run beside each timed one (before it
// on even runs, after it on odd ones, so that drift in the machine's load falls on both).
StatusOr<Measurement> MeasureRuns(const RunOnce& run_once, const MeasureOptions& options,
                                  const RunPlain& run_plain = nullptr) {
  if (options.reps < 1 || options.reps > 100000) {
    return Status::Error("repetitions must be between 1 and 100000");
  }
  if (options.warmup < 0 || options.warmup > 100000) {
    return Status::Error("warm-up runs must be between 0 and 100000");
  }
  Measurement measurement;
  Profile& profile = measurement.profile;
  std::map<std::pair<int64_t, std::string>, std::vector<double>> samples;
  CpuCounters counters;
  std::map<std::string, std::vector<double>> counter_values;
  const int64_t total_runs = options.warmup + options.reps;
  std::vector<UnitTime> this_run;
  const bool plain_runs = options.measure_overhead && run_plain;
  auto time_plain = [&](int64_t run) -> Status {
    const auto started = std::chrono::steady_clock::now();
    Status result = run_plain();
    if (!result.ok()) return Status::Error("plain run " + std::to_string(run + 1) + ": " + result.message());
    measurement.plain_latency_us.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() * 1e6);
    return Status::Ok();
  };
  for (int64_t run = 0; run < total_runs; ++run) {
    if (options.cancel && options.cancel->load()) return Status::Error("canceled");
    this_run.clear();
    const bool timed = run >= options.warmup;
    if (timed && plain_runs && run % 2 == 0) {
      if (Status plain = time_plain(run); !plain.ok()) return plain;
    }
    if (timed) counters.Start();
    const auto started = std::chrono::steady_clock::now();
    Status result = run_once(this_run);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (timed) counters.Stop();
    if (!result.ok()) return Status::Error("run " + std::to_string(run + 1) + ": " + result.message());
    if (timed && plain_runs && run % 2 == 1) {
      if (Status plain = time_plain(run); !plain.ok()) return plain;
    }
    if (timed) {
      profile.run_latency_us.push_back(seconds * 1e6);
      std::map<std::pair<int64_t, std::string>, double> per_unit;
      for (const UnitTime& unit : this_run) per_unit[{unit.instruction_id, unit.name}] += unit.seconds;
      for (const auto& [key, unit_seconds] : per_unit) samples[key].push_back(unit_seconds * 1e6);
      for (const CounterReading& reading : counters.Read()) {
        if (reading.available) counter_values[reading.name].push_back(static_cast<double>(reading.value));
      }
    }
    if (options.progress) options.progress(run + 1, total_runs);
  }
  double total_us = 0;
  for (double latency : profile.run_latency_us) total_us += latency;
  for (auto& [key, micros] : samples) {
    KernelTime kernel;
    kernel.instruction_id = key.first;
    kernel.name = key.second;
    kernel.samples_us = std::move(micros);
    for (double value : kernel.samples_us) kernel.total_us += value;
    kernel.share = total_us > 0 ? kernel.total_us / total_us : 0;
    profile.kernels.push_back(std::move(kernel));
  }
  std::sort(profile.kernels.begin(), profile.kernels.end(),
            [](const KernelTime& a, const KernelTime& b) { return a.total_us > b.total_us; });
  for (auto& [name, values] : counter_values) measurement.counters.emplace_back(name, std::move(values));
  measurement.counters_unavailable = counters.UnavailableSummary();
  profile.source = "measured";
  profile.settings = "reps=" + std::to_string(options.reps) + " warmup=" +
                     std::to_string(options.warmup);
  if (!measurement.counters_unavailable.empty()) {
    profile.settings += "; " + measurement.counters_unavailable;
  }
  profile.created_at = UtcNow();
  return measurement;
}

}  // namespace

StatusOr<Measurement> MeasureWithInterpreter(const ir::Module& module,
                                             const std::vector<runtime::Literal>& inputs,
                                             int64_t snapshot_index,
                                             const MeasureOptions& options) {
  std::vector<UnitTime>* current = nullptr;
  runtime::InterpreterOptions interpreter_options;
  interpreter_options.cancel = options.cancel;
  interpreter_options.entry_instruction_time = [&](const ir::Instruction& instruction,
                                                   double seconds) {
    if (current && !DoesNoWork(instruction.opcode())) {
      current->push_back({instruction.id(), instruction.name(), seconds});
    }
  };
  runtime::Interpreter interpreter(interpreter_options);
  auto measured = MeasureRuns(
      [&](std::vector<UnitTime>& units) -> Status {
        current = &units;
        StatusOr<runtime::Literal> result = interpreter.Run(module, inputs);
        current = nullptr;
        return result.ok() ? Status::Ok() : Status::Error(result.message());
      },
      options);
  if (!measured.ok()) return measured;
  measured->profile.device = "reference interpreter (times measure the interpreter, not compiled kernels)";
  measured->profile.snapshot_index = snapshot_index;
  measured->profile.label = module.name() + " on the interpreter";
  return measured;
}

StatusOr<Measurement> MeasureOnCpu(const ir::Module& module,
                                   const std::vector<runtime::Literal>& inputs,
                                   int64_t snapshot_index, const MeasureOptions& options,
                                   runtime::CpuExecutableOptions cpu_options) {
  cpu_options.snapshot = static_cast<int>(snapshot_index);
  auto executable = runtime::CpuExecutable::Compile(module, cpu_options);
  if (!executable.ok()) return Status::Error("compiling for the CPU: " + executable.message());
  runtime::CpuExecutable& compiled = **executable;
  const auto& kernels = compiled.kernels();
  auto measured = MeasureRuns(
      [&](std::vector<UnitTime>& units) -> Status {
        compiled.set_kernel_timing(true);
        StatusOr<runtime::Literal> result = compiled.Run(inputs);
        if (!result.ok()) return Status::Error(result.message());
        for (const runtime::KernelTiming& timing : compiled.last_timings()) {
          if (timing.executions == 0 || timing.kernel >= kernels.size()) continue;
          const recording::KernelRecord& record = kernels[timing.kernel];
          units.push_back({record.instruction_id, record.kernel, timing.seconds});
        }
        return Status::Ok();
      },
      options,
      [&]() -> Status {
        compiled.set_kernel_timing(false);
        StatusOr<runtime::Literal> result = compiled.Run(inputs);
        compiled.set_kernel_timing(true);
        return result.ok() ? Status::Ok() : Status::Error(result.message());
      });
  if (!measured.ok()) return measured;
  measured->profile.device = "cpu: compiled kernels (" + compiled.KernelSummary() + ")";
  if (const std::string loops = compiled.LoopSummary(); !loops.empty())
    measured->profile.device += "; " + loops;
  measured->profile.settings += "; lowering " + cpu_options.lowering.ToString() +
                                (cpu_options.f32_dot_precision == runtime::BlasPrecision::kNative
                                     ? "; f32 dots sgemm" : "; f32 dots widened to dgemm");
  if (!cpu_options.kernel_configs.empty()) {
    measured->profile.settings +=
        "; tuned: " + std::to_string(cpu_options.kernel_configs.size()) + " kernels";
    for (const auto& [kernel, config] : cpu_options.kernel_configs)
      measured->profile.settings += (kernel == cpu_options.kernel_configs.begin()->first ? " (" : ", ") +
                                    kernel + " " + config.ToString();
    measured->profile.settings += ")";
  }
  measured->profile.snapshot_index = snapshot_index;
  measured->profile.label = module.name() + " on the CPU" +
                            (cpu_options.kernel_configs.empty() ? "" : ", tuned");
  measured->compile_seconds = compiled.compile_seconds();
  measured->kernels = compiled.kernels();
  return measured;
}

double Measurement::Overhead() const {
  const double without = Summarize(plain_latency_us).median;
  const double with = Summarize(profile.run_latency_us).median;
  return without > 0 ? with / without - 1 : 0;
}

StatusOr<Measurement> MeasureOnCuda(const ir::Module& module,
                                    const std::vector<runtime::Literal>& inputs,
                                    int64_t snapshot_index, const MeasureOptions& options,
                                    runtime::CudaExecutableOptions cuda_options) {
  StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
  if (!driver.ok()) return driver.status();
  cuda_options.snapshot = static_cast<int>(snapshot_index);
  const std::string chip = cuda_options.ptx.chip;
  // Open during the second series: each kernel's launches are tagged with its index + 1.
  CuptiCollection* collection = nullptr;
  Status tagging = Status::Ok();
  cuda_options.before_kernel = [&](size_t kernel) {
    if (collection && tagging.ok()) tagging = collection->PushExternalId(kernel + 1);
  };
  cuda_options.after_kernel = [&](size_t) {
    if (collection && tagging.ok()) tagging = collection->PopExternalId();
  };
  auto executable = runtime::CudaExecutable::Compile(module, std::move(cuda_options));
  if (!executable.ok()) return Status::Error("compiling for the GPU: " + executable.message());
  runtime::CudaExecutable& compiled = **executable;
  const auto& kernels = compiled.kernels();
  // The run alone is timed in both series (not the units' bookkeeping, not CUPTI's flush).
  std::vector<double> run_us;
  auto timed_run = [&]() -> Status {
    const auto started = std::chrono::steady_clock::now();
    StatusOr<runtime::Literal> result = compiled.Run(inputs);
    run_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started)
            .count());
    return result.ok() ? Status::Ok() : Status::Error(result.message());
  };
  auto wall_units = [&](std::vector<UnitTime>& units) -> Status {
    if (Status ran = timed_run(); !ran.ok()) return ran;
    for (const runtime::KernelTiming& timing : compiled.last_timings()) {
      if (timing.executions == 0 || timing.kernel >= kernels.size()) continue;
      const recording::KernelRecord& record = kernels[timing.kernel];
      units.push_back({record.instruction_id, record.kernel, timing.seconds});
    }
    return Status::Ok();
  };
  auto plain = MeasureRuns(wall_units, options);
  if (!plain.ok()) return plain;
  const std::vector<double> without(run_us.end() - options.reps, run_us.end());
  run_us.clear();

  StatusOr<std::unique_ptr<CuptiCollection>> opened = CuptiCollection::Start();
  if (!opened.ok()) return Status::Error("CUPTI: " + opened.message());
  collection = opened->get();
  std::vector<GpuLaunch> last_run;
  int64_t unclaimed = 0;
  int64_t run_index = 0;
  auto cupti_units = [&](std::vector<UnitTime>& units) -> Status {
    if (Status ran = timed_run(); !ran.ok()) return ran;
    if (!tagging.ok()) return Status::Error("CUPTI: " + tagging.message());
    StatusOr<std::vector<GpuKernelActivity>> taken = collection->Take();
    if (!taken.ok()) return Status::Error("CUPTI: " + taken.message());
    std::vector<double> gpu_seconds(kernels.size(), 0);
    std::vector<bool> launched(kernels.size(), false);
    last_run.clear();
    for (GpuKernelActivity& activity : *taken) {
      GpuLaunch launch;
      if (activity.external_id >= 1 && activity.external_id <= kernels.size()) {
        launch.kernel = static_cast<int64_t>(activity.external_id - 1);
        const size_t k = static_cast<size_t>(launch.kernel);
        gpu_seconds[k] += static_cast<double>(activity.end_ns - activity.start_ns) * 1e-9;
        launched[k] = true;
        for (const std::string& name : compiled.LaunchNames(k))
          launch.named_in_plan = launch.named_in_plan || name == activity.name;
      } else if (run_index >= options.warmup) {
        ++unclaimed;
      }
      launch.activity = std::move(activity);
      last_run.push_back(std::move(launch));
    }
    for (const runtime::KernelTiming& timing : compiled.last_timings()) {
      if (timing.executions == 0 || timing.kernel >= kernels.size()) continue;
      const recording::KernelRecord& record = kernels[timing.kernel];
      units.push_back({record.instruction_id, record.kernel,
                       launched[timing.kernel] ? gpu_seconds[timing.kernel] : timing.seconds});
    }
    ++run_index;
    return Status::Ok();
  };
  auto measured = MeasureRuns(cupti_units, options);
  collection = nullptr;
  if (!measured.ok()) return measured;
  measured->profile.run_latency_us.assign(run_us.end() - options.reps, run_us.end());
  measured->plain_latency_us = without;
  measured->gpu_launches = std::move(last_run);
  measured->unclaimed_launches = unclaimed;
  const runtime::CudaDevice& device = (*driver)->device();
  measured->profile.device =
      "cuda: " + device.name + ", kernel times from CUPTI (" + compiled.KernelSummary() + ")";
  char overhead[96];
  std::snprintf(overhead, sizeof overhead, "; CUPTI overhead %+.1f%% of the run's wall time",
                100 * measured->Overhead());
  measured->profile.settings += "; PTX for " + chip + overhead;
  measured->profile.snapshot_index = snapshot_index;
  measured->profile.label = module.name() + " on the GPU";
  measured->compile_seconds = compiled.compile_seconds();
  measured->kernels = compiled.kernels();
  return measured;
}

}  // namespace fusescope::profiler
