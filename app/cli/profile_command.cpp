// `fusescope profile MODEL|RUN.fsdb [--pass N] [--reps N] [--warmup W] [--inputs DIR]
// [--seed S] [--save] [--trace OUT.json] [--json] [--progress]`: runs a module repeatedly and
// reports whole-run latency p50/p95/p99 and throughput, each kernel's median/p95/p99 and share with
// its outliers counted, and the CPU counters this machine lets us read (or why not). The
// device is the reference interpreter until compiled kernels exist: the output says so on
// its first line. For a recording, the final snapshot (or the one after pass N) runs, and
// --save stores the profile in the recording for `fusescope hot` and the workbench, in one
// transaction: a profile killed before it commits leaves the recording as it was. --progress
// reports each run as it ends on stderr ("progress: rep 3/12 timed": 3 of 12 done, warm-up
// included, the next one timed), then
// "progress: save 0/1 profile", for the workbench that runs this command as its worker.
// `--device cuda` runs the snapshot compiled for the GPU (a model file: the final snapshot of
// our GPU pipeline) and takes each kernel's time from CUPTI's activity records; the same runs
// are first timed without CUPTI, and the collection's overhead is reported. Without a GPU the
// driver's one sentence is the answer.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/interpret_support.h"
#include "app/cli/model_loader.h"
#include "app/cli/tuned_configs.h"
#include "ir/json_writer.h"
#include "ir/module.h"
#include "passes/cost_analysis.h"
#include "passes/pipeline_options.h"
#include "profiler/measure.h"
#include "profiler/profile_export.h"
#include "profiler/profile_store.h"
#include "recording/compile_and_record.h"
#include "recording/kernel_store.h"
#include "runtime/cuda/cuda_driver.h"

namespace fusescope::app {
namespace {

void SummaryJson(JsonWriter& json, const profiler::SampleSummary& s) {
  json.BeginObject();
  json.Key("count").Int(s.count);
  json.Key("min").Double(s.min);
  json.Key("p50").Double(s.median);
  json.Key("p95").Double(s.p95);
  json.Key("p99").Double(s.p99);
  json.Key("max").Double(s.max);
  json.Key("mean").Double(s.mean);
  json.Key("outliers_high").Int(s.outliers_high);
  json.EndObject();
}

const ir::Instruction* FindById(const ir::Module& module, int64_t id) {
  for (const auto& instruction : module.entry()->instructions()) {
    if (instruction->id() == id) return instruction.get();
  }
  return nullptr;
}

// What bounds a kernel, as the bench reads it: "dot" (a dot or convolution, alone or as a
// fusion's hero), "reduction", "elementwise" (a loop fusion or elementwise op without either)
// or "other" (data movement, control flow, library calls).
std::string KernelKind(const ir::Instruction& instruction) {
  auto kind_of = [](ir::Opcode opcode) -> std::string {
    if (opcode == ir::Opcode::kDot || opcode == ir::Opcode::kConvolution) return "dot";
    if (opcode == ir::Opcode::kReduce || opcode == ir::Opcode::kReduceWindow) return "reduction";
    if (ir::IsElementwiseOpcode(opcode)) return "elementwise";
    return "";
  };
  if (const ir::Computation* fused = instruction.fused_computation()) {
    std::string kind = "elementwise";
    for (const auto& member : fused->instructions()) {
      const std::string member_kind = kind_of(member->opcode());
      if (member_kind == "dot") return "dot";
      if (member_kind == "reduction") kind = "reduction";
    }
    return kind;
  }
  const std::string kind = kind_of(instruction.opcode());
  return kind.empty() ? "other" : kind;
}

// The options a saved kernel set is keyed by: the CPU lowering, or the PTX lowering.
std::string KernelSetOptions(const std::string& device,
                             const runtime::CpuExecutableOptions& cpu_options,
                             const profiler::Measurement& measured) {
  if (device != "cuda") return cpu_options.lowering.ToString();
  for (const recording::KernelRecord& kernel : measured.kernels) {
    if (!kernel.options.empty()) return kernel.options;
  }
  return "cuda";
}

std::string LaunchedBy(const profiler::Measurement& measured, const profiler::GpuLaunch& launch) {
  if (launch.kernel < 0) return "(unclaimed)";
  return measured.kernels[static_cast<size_t>(launch.kernel)].kernel;
}

void GpuJson(JsonWriter& json, const profiler::Measurement& measured) {
  json.Key("cupti_overhead").BeginObject();
  json.Key("without_us");
  SummaryJson(json, profiler::Summarize(measured.plain_latency_us));
  json.Key("with_us");
  SummaryJson(json, profiler::Summarize(measured.profile.run_latency_us));
  json.Key("fraction").Double(measured.Overhead());
  json.EndObject();
  json.Key("unclaimed_launches").Int(measured.unclaimed_launches);
  json.Key("gpu_kernels").BeginArray();
  for (const profiler::GpuLaunch& launch : measured.gpu_launches) {
    const profiler::GpuKernelActivity& a = launch.activity;
    json.BeginObject();
    json.Key("name").String(a.name);
    json.Key("kernel").String(LaunchedBy(measured, launch));
    json.Key("named_in_plan").Bool(launch.named_in_plan);
    json.Key("correlation_id").Int(a.correlation_id);
    json.Key("duration_us").Double(a.microseconds());
    json.Key("grid").BeginArray();
    for (int32_t g : a.grid) json.Int(g);
    json.EndArray();
    json.Key("block").BeginArray();
    for (int32_t b : a.block) json.Int(b);
    json.EndArray();
    json.Key("registers_per_thread").Int(a.registers_per_thread);
    json.Key("shared_bytes").Int(a.static_shared_bytes + a.dynamic_shared_bytes);
    json.EndObject();
  }
  json.EndArray();
}

// The CUPTI overhead and the last run's GPU kernels, each with the kernel that launched it.
void PrintGpu(const profiler::Measurement& measured, size_t limit) {
  const double without = profiler::Summarize(measured.plain_latency_us).median;
  const double with = profiler::Summarize(measured.profile.run_latency_us).median;
  std::printf(
      "  CUPTI overhead: median run %.1f us without the collection, %.1f us with it "
      "(%+.1f%%), same process and inputs\n",
      without, with, 100 * measured.Overhead());
  if (measured.unclaimed_launches > 0) {
    std::printf("  %lld GPU kernel(s) no kernel of the module claimed\n",
                static_cast<long long>(measured.unclaimed_launches));
  }
  std::printf("\n%-34s %-40s %16s %12s %5s %7s %9s\n", "launched by", "GPU kernel (last run)",
              "grid", "block", "regs", "smem", "us");
  for (size_t i = 0; i < measured.gpu_launches.size() && i < 4 * limit; ++i) {
    const profiler::GpuLaunch& launch = measured.gpu_launches[i];
    const profiler::GpuKernelActivity& a = launch.activity;
    const std::string name = a.name.size() > 40 ? a.name.substr(0, 37) + "..." : a.name;
    const std::string grid = std::to_string(a.grid[0]) + "x" + std::to_string(a.grid[1]) + "x" +
                             std::to_string(a.grid[2]);
    const std::string block = std::to_string(a.block[0]) + "x" + std::to_string(a.block[1]) + "x" +
                              std::to_string(a.block[2]);
    std::printf("%-34s %-40s %16s %12s %5d %7d %9.2f\n", LaunchedBy(measured, launch).c_str(),
                name.c_str(), grid.c_str(), block.c_str(), a.registers_per_thread,
                a.static_shared_bytes + a.dynamic_shared_bytes, a.microseconds());
  }
}

// What one `profile` run measured, for the printers below.
struct ProfileOutcome {
  std::string device;
  const LoadedModel* loaded = nullptr;
  int64_t snapshot = 0;
  const profiler::MeasureOptions* options = nullptr;
  const profiler::Measurement* measured = nullptr;
  profiler::SampleSummary latency;
  profiler::SampleSummary plain;  // the plain (uninstrumented) runs, on the CPU
  double overhead = 0;
};

void PrintProfileJson(const ProfileOutcome& outcome) {
  const std::string& device = outcome.device;
  const LoadedModel* loaded = outcome.loaded;
  const int64_t snapshot = outcome.snapshot;
  const profiler::Measurement* measured = outcome.measured;
  const profiler::Profile& profile = measured->profile;
  const profiler::SampleSummary& latency = outcome.latency;
  const profiler::SampleSummary& plain = outcome.plain;
  const double overhead = outcome.overhead;
  JsonWriter json;
  json.BeginObject();
  json.Key("module").String(loaded->display_name);
  json.Key("device").String(profile.device);
  json.Key("snapshot").Int(snapshot);
  json.Key("compile_seconds").Double(measured->compile_seconds);
  json.Key("latency_us");
  SummaryJson(json, latency);
  json.Key("runs_per_second").Double(latency.mean > 0 ? 1e6 / latency.mean : 0);
  if (device == "cpu" && !measured->plain_latency_us.empty()) {
    json.Key("plain_latency_us");
    SummaryJson(json, plain);
    json.Key("profiling_overhead").Double(overhead);
  }
  json.Key("kernels").BeginArray();
  for (const profiler::KernelTime& kernel : profile.kernels) {
    json.BeginObject();
    json.Key("name").String(kernel.name);
    json.Key("instruction_id").Int(kernel.instruction_id);
    json.Key("share").Double(kernel.share);
    // The work the IR says this kernel does, for rates against the machine's limits.
    if (const ir::Instruction* instruction = FindById(*loaded->module, kernel.instruction_id)) {
      json.Key("kind").String(KernelKind(*instruction));
      json.Key("flops").Double(passes::KernelFlops(*instruction));
      json.Key("bytes").Double(passes::KernelBytes(*instruction));
    }
    json.Key("time_us");
    SummaryJson(json, kernel.Summary());
    json.EndObject();
  }
  json.EndArray();
  json.Key("counters").BeginObject();
  for (const auto& [name, values] : measured->counters) {
    json.Key(name);
    SummaryJson(json, profiler::Summarize(values));
  }
  json.EndObject();
  json.Key("counters_unavailable").String(measured->counters_unavailable);
  if (device == "cuda") GpuJson(json, *measured);
  json.EndObject();
  std::cout << json.str() << '\n';
}

void PrintProfileText(const ProfileOutcome& outcome, size_t limit) {
  const std::string& device = outcome.device;
  const LoadedModel* loaded = outcome.loaded;
  const profiler::MeasureOptions& options = *outcome.options;
  const profiler::Measurement* measured = outcome.measured;
  const profiler::Profile& profile = measured->profile;
  const profiler::SampleSummary& latency = outcome.latency;
  const profiler::SampleSummary& plain = outcome.plain;
  const double overhead = outcome.overhead;
  std::printf("device: %s\n", profile.device.c_str());
  std::printf("%s: %lld runs after %lld warm-up: latency p50 %.1f us, p95 %.1f us, p99 %.1f us "
              "(min %.1f, max %.1f, %lld slow outlier(s)); %.1f runs/s\n",
              loaded->display_name.c_str(), static_cast<long long>(options.reps),
              static_cast<long long>(options.warmup), latency.median, latency.p95, latency.p99,
              latency.min, latency.max, static_cast<long long>(latency.outliers_high),
              latency.mean > 0 ? 1e6 / latency.mean : 0.0);
  if (device == "cpu" && !measured->plain_latency_us.empty()) {
    std::printf("  profiling overhead: %+.1f%% (plain runs without kernel clocks or counters, "
                "interleaved: p50 %.1f us, p95 %.1f us)\n",
                100 * overhead, plain.median, plain.p95);
  }
  for (const auto& [name, values] : measured->counters) {
    const double median = profiler::Summarize(values).median;
    if (name == "task-clock") {  // nanoseconds of CPU time
      std::printf("  task-clock per run: median %.2f ms of CPU time\n", median / 1e6);
    } else {
      std::printf("  %s per run: median %.0f\n", name.c_str(), median);
    }
  }
  if (!measured->counters_unavailable.empty()) {
    std::printf("  %s\n", measured->counters_unavailable.c_str());
  }
  if (device == "cuda") PrintGpu(*measured, limit);
  std::printf("\n%-34s %10s %10s %10s %7s %8s\n", "kernel", "median us", "p95 us", "p99 us",
              "share", "outliers");
  for (size_t i = 0; i < profile.kernels.size() && i < limit; ++i) {
    const profiler::KernelTime& kernel = profile.kernels[i];
    const profiler::SampleSummary s = kernel.Summary();
    std::printf("%-34s %10.2f %10.2f %10.2f %6.1f%% %8lld\n", kernel.name.c_str(), s.median,
                s.p95, s.p99, 100 * kernel.share, static_cast<long long>(s.outliers_high));
  }
}

// --save: the profile and the kernels' lowering stages into the recording; --trace: a Chrome
// trace of the runs.
int SaveProfileOutputs(const ParsedArgs& args, const std::string& what,
                       const ProfileOutcome& outcome,
                       const runtime::CpuExecutableOptions& cpu_options, bool progress) {
  const profiler::Measurement& measured = *outcome.measured;
  const int64_t snapshot = outcome.snapshot;
  if (args.Has("--save")) {
    if (progress) PrintProgress("save", 0, 1, "profile");
    auto id = profiler::AddProfile(what, measured.profile);
    if (!id.ok()) return Fail(id.message());
    std::fprintf(stderr, "saved as profile %lld of %s\n", static_cast<long long>(*id),
                 what.c_str());
    if (!measured.kernels.empty()) {
      // How each kernel was lowered, for `fusescope kernel` and the Kernel view.
      Status kernels = recording::AddKernels(what, static_cast<int>(snapshot),
                                             KernelSetOptions(outcome.device, cpu_options, measured),
                                             measured.kernels);
      if (!kernels.ok()) return Fail("profile: kernels: " + kernels.message());
      std::fprintf(stderr, "saved %zu kernels of snapshot %lld\n", measured.kernels.size(),
                   static_cast<long long>(snapshot));
    }
  }
  if (auto out = args.Value("--trace")) {
    std::vector<std::string> order;
    for (const auto& instruction : outcome.loaded->module->entry()->instructions()) {
      order.push_back(instruction->name());
    }
    std::ostringstream text;
    profiler::WriteChromeTrace(measured.profile, order, text);
    std::ofstream file(*out);
    if (!(file << text.str()) || !file.flush()) return Fail("cannot write " + *out);
  }
  return 0;
}

int RunProfile(const ParsedArgs& args) {
  const std::string device = *args.Value("--device");
  if (device != "interpreter" && device != "cpu" && device != "cuda") {
    return Fail("profile: --device " + device +
                " is not available: use cpu (compiled kernels), cuda or interpreter");
  }
  if (device == "cuda") {
    // First, before any work: without a GPU the driver's one sentence is the answer.
    StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
    if (!driver.ok()) return Fail(driver.message());
    if (args.Has("--sgemm") || args.Has("--dgemm"))
      return Fail("profile: --sgemm and --dgemm need --device cpu");
  }
  runtime::CpuExecutableOptions cpu_options;
  // A profile measures speed: f32 GEMMs run in single precision unless --dgemm asks for
  // `run`'s widened ones (--sgemm, the default, is accepted for symmetry with `run`).
  if (args.Has("--sgemm") && args.Has("--dgemm"))
    return Fail("profile: --sgemm and --dgemm exclude each other");
  cpu_options.f32_dot_precision =
      args.Has("--dgemm") ? runtime::BlasPrecision::kWidened : runtime::BlasPrecision::kNative;
  // The lowering stages' texts are printed only for --save, which stores them with the kernels.
  cpu_options.keep_lowering_stages = args.Has("--save");
  if (std::optional<std::string> text = args.Value("--lowering")) {
    if (device != "cpu") return Fail("profile: --lowering needs --device cpu");
    auto parsed = runtime::LoweringOptions::Parse(*text);
    if (!parsed.ok()) return Fail("profile: " + parsed.message());
    cpu_options.lowering = *parsed;
  }
  const std::optional<int64_t> pass = args.IntValue("--pass");
  const std::string& what = args.positional()[0];
  const bool is_recording = LooksLikeRecording(what);
  if (!is_recording && (pass || args.Has("--save"))) {
    return Fail("profile: --pass and --save need a recording (.fsdb)");
  }
  // Before anything is read or compiled.
  if (args.Has("--tuned") && (device != "cpu" || !is_recording))
    return Fail("profile: --tuned needs --device cpu and a recording with tuning runs");
  auto loaded = LoadModel(what, pass);
  if (!loaded.ok()) return Fail("profile: " + loaded.message());
  if (device == "cuda" && !is_recording) {
    // A model file: what runs on the GPU is the final snapshot of our GPU pipeline.
    passes::PipelineOptions pipeline;
    pipeline.target = "gpu";
    auto compiled = recording::CompileAndRecord(*loaded->module, pipeline);
    if (!compiled.ok()) return Fail("profile: " + compiled.message());
    if (compiled->snapshots.empty() || compiled->snapshots.back().broken())
      return Fail("profile: the gpu pipeline did not produce a usable module");
    auto final_module = compiled->snapshots.back().ToModule();
    if (!final_module.ok()) return Fail("profile: " + final_module.message());
    loaded->module = std::move(final_module).value();
    loaded->snapshot_index = static_cast<int64_t>(compiled->snapshots.size()) - 1;
  }
  const int64_t snapshot = std::max<int64_t>(0, loaded->snapshot_index);
  if (args.Has("--tuned")) {
    auto applied = ApplyTunedConfigs(what, snapshot, cpu_options);
    if (!applied.ok()) return Fail("profile: " + applied.message());
    if (!args.Has("--json")) std::fprintf(stderr, "%s\n", applied->c_str());
  }
  auto inputs = ChooseInputs(*loaded->module, args.Value("--inputs"),
                             static_cast<uint64_t>(*args.IntValue("--seed")));
  if (!inputs.ok()) return Fail("profile: " + inputs.message());
  profiler::MeasureOptions options;
  options.reps = *args.IntValue("--reps");
  options.warmup = *args.IntValue("--warmup");
  options.measure_overhead = args.Has("--overhead");
  if (options.measure_overhead && device != "cpu")
    return Fail("profile: --overhead needs --device cpu (cuda always reports CUPTI's overhead; the "
                "interpreter has no plain mode)");
  const bool progress = args.Has("--progress");
  if (progress) {
    options.progress = [warmup = options.warmup](int64_t done, int64_t total) {
      // Named after the run that comes next: warm-up or timed.
      PrintProgress("rep", done, total, done < warmup ? "warm-up" : "timed");
    };
  }
  auto measured =
      device == "cpu"
          ? profiler::MeasureOnCpu(*loaded->module, *inputs, snapshot, options, cpu_options)
      : device == "cuda"
          ? profiler::MeasureOnCuda(*loaded->module, *inputs, snapshot, options)
          : profiler::MeasureWithInterpreter(*loaded->module, *inputs, snapshot, options);
  if (!measured.ok()) return Fail("profile: " + measured.message());
  const profiler::Profile& profile = measured->profile;
  const profiler::SampleSummary latency = profiler::Summarize(profile.run_latency_us);
  // What profiling costs: the instrumented runs' median against the plain runs' median.
  const profiler::SampleSummary plain = profiler::Summarize(measured->plain_latency_us);
  const double overhead = measured->Overhead();

  ProfileOutcome outcome;
  outcome.device = device;
  outcome.loaded = &*loaded;
  outcome.snapshot = snapshot;
  outcome.options = &options;
  outcome.measured = &*measured;
  outcome.latency = latency;
  outcome.plain = plain;
  outcome.overhead = overhead;
  if (int code = SaveProfileOutputs(args, what, outcome, cpu_options, progress); code != 0) {
    return code;
  }
  const size_t limit = static_cast<size_t>(std::max<int64_t>(0, *args.IntValue("--top")));
  if (args.Has("--json")) {
    PrintProfileJson(outcome);
  } else {
    PrintProfileText(outcome, limit);
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "profile",
    .summary = "run a module repeatedly (interpreter, compiled CPU kernels, or the GPU with "
               "CUPTI): latency percentiles, per-kernel times, CPU counters",
    .positionals = {{"MODEL|RUN.fsdb",
                     "a model, or a recording (its final snapshot, or the one after --pass)"}},
    .flags =
        {
            PassFlag(),
            Integer("--reps", "N", "timed runs")
                .Default(std::to_string(profiler::MeasureOptions{}.reps)),
            Integer("--warmup", "W", "untimed runs first")
                .Default(std::to_string(profiler::MeasureOptions{}.warmup)),
            InputsFlag(),
            SeedFlag(),
            Text("--device", "interpreter|cpu|cuda",
                 "the reference interpreter, compiled CPU kernels, or the GPU (CUPTI's kernel "
                 "times)")
                .Default("interpreter"),
            Text("--lowering", "OPTIONS",
                 "with --device cpu: the kernels' lowering options, e.g. \"tile=0 vector=8\""),
            Switch("--sgemm", "with --device cpu: f32 GEMMs in single precision (the default)"),
            Switch("--dgemm", "with --device cpu: f32 GEMMs widened to f64, as run does"),
            Switch("--tuned",
                   "with --device cpu: build each kernel as the recording's tuning runs found "
                   "best (fusescope tune)"),
            Switch("--overhead",
                   "with --device cpu: also time plain runs, and report what profiling costs"),
            Switch("--save",
                   "store the profile (and the kernels' lowering stages) in the recording"),
            Text("--trace", "OUT.json", "write the runs as a Chrome trace"),
            Integer("--top", "K", "how many kernels to list").Default("15"),
            JsonFlag(),
            ProgressFlag(),
        },
    .run = RunProfile,
});

}  // namespace
}  // namespace fusescope::app
