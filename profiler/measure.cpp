#include "profiler/measure.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>

#include "ir/module.h"
#include "runtime/interpreter.h"

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


}  // namespace

StatusOr<Measurement> MeasureWithInterpreter(const ir::Module& module,
                                             const std::vector<runtime::Literal>& inputs,
                                             int64_t snapshot_index,
                                             const MeasureOptions& options) {
  if (options.reps < 1 || options.reps > 100000) {
    return Status::Error("repetitions must be between 1 and 100000");
  }
  if (options.warmup < 0 || options.warmup > 100000) {
    return Status::Error("warm-up runs must be between 0 and 100000");
  }
  // Per instruction, its seconds in the current run (an instruction may not run at all in
  // a run that fails; every run here succeeds or the measurement stops).
  std::unordered_map<const ir::Instruction*, double> this_run;
  runtime::InterpreterOptions interpreter_options;
  interpreter_options.cancel = options.cancel;
  interpreter_options.entry_instruction_time = [&](const ir::Instruction& instruction,
                                                   double seconds) {
    this_run[&instruction] += seconds;
  };
  runtime::Interpreter interpreter(interpreter_options);

  Measurement measurement;
  Profile& profile = measurement.profile;
  std::map<const ir::Instruction*, std::vector<double>> samples;
  CpuCounters counters;
  std::map<std::string, std::vector<double>> counter_values;
  const int64_t total_runs = options.warmup + options.reps;
  for (int64_t run = 0; run < total_runs; ++run) {
    this_run.clear();
    const bool timed = run >= options.warmup;
    if (timed) counters.Start();
    const auto started = std::chrono::steady_clock::now();
    StatusOr<runtime::Literal> result = interpreter.Run(module, inputs);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (timed) counters.Stop();
    if (!result.ok()) return Status::Error("run " + std::to_string(run + 1) + ": " + result.message());
    if (timed) {
      profile.run_latency_us.push_back(seconds * 1e6);
      for (const auto& [instruction, instruction_seconds] : this_run) {
        if (!DoesNoWork(instruction->opcode())) samples[instruction].push_back(instruction_seconds * 1e6);
      }
      for (const CounterReading& reading : counters.Read()) {
        if (reading.available) counter_values[reading.name].push_back(static_cast<double>(reading.value));
      }
    }
    if (options.progress) options.progress(run + 1, total_runs);
  }
  double total_us = 0;
  for (double latency : profile.run_latency_us) total_us += latency;
  for (auto& [instruction, micros] : samples) {
    KernelTime kernel;
    kernel.instruction_id = instruction->id();
    kernel.name = instruction->name();
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
  profile.device = "reference interpreter (times measure the interpreter, not compiled kernels)";
  profile.settings = "reps=" + std::to_string(options.reps) + " warmup=" +
                     std::to_string(options.warmup);
  if (!measurement.counters_unavailable.empty()) {
    profile.settings += "; " + measurement.counters_unavailable;
  }
  profile.created_at = UtcNow();
  profile.snapshot_index = snapshot_index;
  profile.label = module.name() + " on the interpreter";
  return measurement;
}

}  // namespace fusescope::profiler
