// `fusescope run MODEL|RUN.fsdb [--pass N] [--inputs DIR] [--seed S] [--save-outputs DIR]
// [--rtol X] [--atol Y] [--device interpreter|cpu|cuda] [--lowering OPTIONS] [--sgemm]
// [--kernels-dir DIR] [--no-exact] [--save-exact DIR] [--json] [--progress]`: runs the module
// through the reference interpreter. For a recording, the original module and the chosen
// snapshot (the final one by default) run on the same inputs and each output of the snapshot
// is judged against the original's and against the exact answer, the original module
// interpreted in f64 (runtime/output_judgement.h: ok, ok (exact), ill-conditioned, MISMATCH;
// --no-exact leaves the f64 run out); for a model file the module just runs. --save-exact
// writes the f64 run's outputs as .npy files.
// With `--device cpu` the snapshot (for a model file: the final snapshot of our CPU pipeline)
// is compiled into CPU kernels (runtime::CpuExecutable) and run, and its outputs are compared
// with the interpreter's run of the original module. `--device cuda` does the same on the GPU
// (runtime::CudaExecutable; a model file runs the final snapshot of our GPU pipeline); without
// a GPU it says so in the driver's one sentence. Exit status 1 when an output differs
// beyond tolerance. --progress reports the instructions done of each module on stderr
// ("progress: instruction 40/120 original module"), for the workbench that runs this command
// as its worker.

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/interpret_support.h"
#include "app/cli/model_loader.h"
#include "app/cli/tuned_configs.h"
#include "ir/json_writer.h"
#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/cuda/cuda_driver.h"
#include "runtime/cuda/cuda_executable.h"
#include "runtime/npy.h"
#include "runtime/output_judgement.h"

namespace fusescope::app {
namespace {

// The default relative tolerances. cuBLAS's f32 GEMMs accumulate in single precision (the CPU
// path widens them to dgemm): the GPU's allows for that.
constexpr double kCpuRtol = 1e-5;
constexpr double kGpuRtol = 1e-4;

struct RunReport {
  std::string model;
  std::optional<int64_t> pass;  // the snapshot compared, for recordings
  InterpretedRun snapshot;
  std::optional<InterpretedRun> original;
  // The original module interpreted in f64: the exact answer (runtime/output_judgement.h).
  std::optional<InterpretedRun> exact;
  std::string exact_error;  // why it could not run, when it was asked for
  std::vector<runtime::OutputJudgement> judgements;
  // --device cpu or cuda: how the compiled snapshot ran.
  bool on_cpu = false;
  bool on_gpu = false;
  std::string gpu_name;
  double compile_seconds = 0;
  std::string kernel_summary;
  std::vector<recording::KernelRecord> kernels;
  std::vector<runtime::KernelTiming> timings;
};

bool AllMatch(const RunReport& report) {
  return runtime::WorstVerdict(report.judgements) != runtime::OutputVerdict::kMismatch;
}

std::string Summary(const RunReport& report) {
  const bool compiled = report.on_cpu || report.on_gpu;
  const std::string what = compiled ? "compiled snapshot" : "snapshot";
  switch (runtime::WorstVerdict(report.judgements)) {
    case runtime::OutputVerdict::kMatch:
      return what + " matches the original module";
    case runtime::OutputVerdict::kMatchByExactAnswer:
      return what +
             " matches the original module: where it differs from the rounded "
             "reference it is no further from the exact answer";
    case runtime::OutputVerdict::kIllConditioned:
      return "ill-conditioned on these inputs: rounding alone moves the original module's own "
             "outputs beyond tolerance from the exact answer, so the " +
             what +
             " cannot be judged (not a mismatch; try inputs the model was made for: --inputs)";
    case runtime::OutputVerdict::kMismatch:
      return what + " DIFFERS from the original module";
  }
  return "";
}

double Finite(double value) { return std::isfinite(value) ? value : 1e308; }

void PrintText(const RunReport& report) {
  if (report.on_cpu) {
    std::printf("%s: %zu outputs, compiled for the CPU in %.3f s, ran in %.3f s",
                report.model.c_str(), report.snapshot.outputs.size(), report.compile_seconds,
                report.snapshot.seconds);
  } else if (report.on_gpu) {
    std::printf("%s: %zu outputs, compiled for the GPU in %.3f s, ran on %s in %.3f s",
                report.model.c_str(), report.snapshot.outputs.size(), report.compile_seconds,
                report.gpu_name.c_str(), report.snapshot.seconds);
  } else {
    std::printf("%s: %zu outputs, interpreted in %.3f s", report.model.c_str(),
                report.snapshot.outputs.size(), report.snapshot.seconds);
  }
  if (report.original) std::printf(" (original module %.3f s)", report.original->seconds);
  std::printf("\n");
  for (size_t i = 0; i < report.snapshot.outputs.size(); ++i) {
    const runtime::Literal& output = report.snapshot.outputs[i];
    std::printf("  output %zu  %-24s", i, output.shape().ToString(false).c_str());
    if (report.original && i < report.judgements.size()) {
      const runtime::OutputJudgement& j = report.judgements[i];
      if (!j.to_reference.same_shape) {
        std::printf("  MISMATCH: shape differs from the original's");
      } else {
        std::printf("  %-15s vs original %.3e (rel %.3e)", runtime::OutputVerdictName(j.verdict),
                    j.to_reference.max_abs_error, j.to_reference.max_rel_error);
        if (j.has_exact) {
          std::printf("  to exact: this %.3e, original %.3e", j.candidate_to_exact,
                      j.reference_to_exact);
        }
      }
    }
    std::printf("\n");
  }
  if (report.original && !report.exact_error.empty())
    std::printf("no exact answer: %s\n", report.exact_error.c_str());
  const bool compiled = report.on_cpu || report.on_gpu;
  if (compiled) {
    std::printf("%s\n", report.kernel_summary.c_str());
    for (const recording::KernelRecord& kernel : report.kernels) {
      if (kernel.backend == "host" || !kernel.failed_stage.empty())
        std::printf("  %-32s %s: %s\n", kernel.kernel.c_str(), kernel.backend.c_str(),
                    kernel.note.c_str());
    }
  }
  if (report.original) std::printf("%s\n", Summary(report).c_str());
}

void PrintJson(const RunReport& report) {
  JsonWriter json;
  json.BeginObject();
  json.Key("model").String(report.model);
  if (report.pass) json.Key("pass").Int(*report.pass);
  json.Key("seconds").Double(report.snapshot.seconds);
  if (report.original) json.Key("original_seconds").Double(report.original->seconds);
  json.Key("outputs").BeginArray();
  for (size_t i = 0; i < report.snapshot.outputs.size(); ++i) {
    json.BeginObject();
    json.Key("index").Int(static_cast<int64_t>(i));
    json.Key("shape").String(report.snapshot.outputs[i].shape().ToString(false));
    if (report.original && i < report.judgements.size()) {
      const runtime::OutputJudgement& j = report.judgements[i];
      json.Key("same_shape").Bool(j.to_reference.same_shape);
      json.Key("max_abs_error").Double(Finite(j.to_reference.max_abs_error));
      json.Key("max_rel_error").Double(Finite(j.to_reference.max_rel_error));
      json.Key("verdict").String(runtime::OutputVerdictName(j.verdict));
      json.Key("rtol").Double(j.rtol);
      if (j.has_exact) {
        json.Key("to_exact").Double(Finite(j.candidate_to_exact));
        json.Key("original_to_exact").Double(Finite(j.reference_to_exact));
      }
      json.Key("ok").Bool(j.ok());
    }
    json.EndObject();
  }
  json.EndArray();
  if (report.original) {
    json.Key("match").Bool(AllMatch(report));
    json.Key("verdict").String(
        runtime::OutputVerdictName(runtime::WorstVerdict(report.judgements)));
    if (report.exact) json.Key("exact_seconds").Double(report.exact->seconds);
    if (!report.exact_error.empty()) json.Key("exact_error").String(report.exact_error);
  }
  if (report.on_cpu || report.on_gpu) {
    json.Key("device").String(report.on_cpu ? "cpu" : "cuda");
    if (report.on_gpu) json.Key("gpu").String(report.gpu_name);
    json.Key("compile_seconds").Double(report.compile_seconds);
    json.Key("kernel_summary").String(report.kernel_summary);
    std::vector<double> seconds(report.kernels.size(), 0);
    std::vector<int64_t> executions(report.kernels.size(), 0);
    for (const runtime::KernelTiming& timing : report.timings) {
      seconds[timing.kernel] += timing.seconds;
      executions[timing.kernel] += timing.executions;
    }
    json.Key("kernels").BeginArray();
    for (size_t i = 0; i < report.kernels.size(); ++i) {
      const recording::KernelRecord& kernel = report.kernels[i];
      json.BeginObject();
      json.Key("kernel").String(kernel.kernel);
      json.Key("backend").String(kernel.backend);
      json.Key("options").String(kernel.options);
      json.Key("stages").Int(static_cast<int64_t>(kernel.stages.size()));
      if (!kernel.failed_stage.empty()) {
        json.Key("failed_stage").String(kernel.failed_stage);
        json.Key("error").String(kernel.error);
      }
      json.Key("note").String(kernel.note);
      json.Key("compile_seconds").Double(kernel.compile_seconds);
      json.Key("run_seconds").Double(seconds[i]);
      json.Key("executions").Int(executions[i]);
      json.EndObject();
    }
    json.EndArray();
  }
  json.EndObject();
  std::cout << json.str() << '\n';
}

// DIR/NNN_KERNEL/MM_STAGE.txt: every stage of every kernel's lowering, and error.txt where
// one failed.
Status SaveKernels(const std::vector<recording::KernelRecord>& kernels, const std::string& dir) {
  for (size_t i = 0; i < kernels.size(); ++i) {
    const recording::KernelRecord& kernel = kernels[i];
    if (kernel.stages.empty()) continue;
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%03zu_", i);
    std::string name = prefix + kernel.kernel;
    for (char& c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') c = '_';
    }
    const std::filesystem::path folder = std::filesystem::path(dir) / name;
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) return Status::Error("cannot create " + folder.string() + ": " + error.message());
    auto write = [&](const std::string& file, const std::string& text) -> Status {
      std::FILE* out = std::fopen((folder / file).c_str(), "wb");
      if (out == nullptr) return Status::Error("cannot write " + (folder / file).string());
      const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
      const bool closed = std::fclose(out) == 0;
      if (!written || !closed) return Status::Error("cannot write " + (folder / file).string());
      return Status::Ok();
    };
    for (size_t s = 0; s < kernel.stages.size(); ++s) {
      char file[128];
      std::snprintf(file, sizeof file, "%02zu_%s.txt", s, kernel.stages[s].name.c_str());
      Status saved = write(file, kernel.stages[s].text);
      if (!saved.ok()) return saved;
    }
    if (!kernel.failed_stage.empty()) {
      Status saved = write("error.txt", kernel.failed_stage + ": " + kernel.error + "\n");
      if (!saved.ok()) return saved;
    }
  }
  return Status::Ok();
}

Status SaveOutputs(const std::vector<runtime::Literal>& outputs, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return Status::Error("cannot create " + dir + ": " + error.message());
  for (size_t i = 0; i < outputs.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "out_%03zu.npy", i);
    Status written =
        runtime::WriteNpyFile((std::filesystem::path(dir) / name).string(), outputs[i]);
    if (!written.ok())
      return Status::Error("output " + std::to_string(i) + ": " + written.message());
  }
  return Status::Ok();
}

// Runs a compiled executable (CPU or GPU) once on `inputs` and fills the snapshot's outputs,
// wall time and the kernels' records and timings; `where` names the device in errors.
template <typename Executable>
Status RunCompiled(Executable& executable, const std::vector<runtime::Literal>& inputs,
                   const std::string& where, RunReport& report) {
  const auto started = std::chrono::steady_clock::now();
  auto result = executable.Run(inputs);
  if (!result.ok()) return Status::Error("run: on the " + where + ": " + result.message());
  report.snapshot.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (result->is_tuple())
    report.snapshot.outputs = std::move(result->elements());
  else
    report.snapshot.outputs.push_back(std::move(result).value());
  report.compile_seconds = executable.compile_seconds();
  report.kernel_summary = executable.KernelSummary();
  if constexpr (std::is_same_v<Executable, runtime::CpuExecutable>) {
    if (const std::string loops = executable.LoopSummary(); !loops.empty())
      report.kernel_summary += "; " + loops;
  }
  report.kernels = executable.kernels();
  report.timings = executable.last_timings();
  return Status::Ok();
}

// What `run` is asked to do, read from its command line and checked before any work.
struct RunRequest {
  std::string what;  // MODEL|RUN.fsdb
  bool recording = false;
  std::optional<int64_t> pass;
  bool on_cpu = false;
  bool on_gpu = false;
  runtime::CudaDriver* gpu = nullptr;  // with --device cuda
  runtime::LoweringOptions lowering;
  bool sgemm = false;
  bool tuned = false;  // the recording's best configuration per kernel (fusescope tune)
  double rtol = 0;
  double atol = 0;
  std::optional<std::string> inputs;
  uint64_t seed = 0;
  bool progress = false;
  bool exact = true;  // the original module's f64 run (not --no-exact)
  std::optional<std::string> kernels_dir;
  std::optional<std::string> save_outputs;
  std::optional<std::string> save_exact;
};

StatusOr<RunRequest> ReadRunRequest(const ParsedArgs& args) {
  RunRequest request;
  const std::string device = *args.Value("--device");
  if (device != "interpreter" && device != "cpu" && device != "cuda")
    return Status::Error("run: --device " + device +
                         " is not available: use interpreter, cpu or cuda");
  request.on_cpu = device == "cpu";
  request.on_gpu = device == "cuda";
  request.kernels_dir = args.Value("--kernels-dir");
  if (!request.on_cpu && !request.on_gpu && request.kernels_dir)
    return Status::Error("run: --kernels-dir needs --device cpu or cuda");
  request.sgemm = args.Has("--sgemm");
  request.tuned = args.Has("--tuned");
  if (request.tuned && !request.on_cpu) return Status::Error("run: --tuned needs --device cpu");
  if (request.on_gpu && request.sgemm) return Status::Error("run: --sgemm needs --device cpu");
  if (request.on_gpu) {
    // First, before any work: without a GPU the driver's one sentence is the answer.
    StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
    if (!driver.ok()) return driver.status();
    request.gpu = *driver;
  }
  if (std::optional<std::string> text = args.Value("--lowering")) {
    if (!request.on_cpu) return Status::Error("run: --lowering needs --device cpu");
    auto parsed = runtime::LoweringOptions::Parse(*text);
    if (!parsed.ok()) return Status::Error("run: " + parsed.message());
    request.lowering = *parsed;
  }
  request.pass = args.IntValue("--pass");
  request.rtol = args.NumberValue("--rtol").value_or(request.on_gpu ? kGpuRtol : kCpuRtol);
  request.atol = *args.NumberValue("--atol");
  request.what = args.positional()[0];
  request.recording = LooksLikeRecording(request.what);
  if (!request.recording && request.pass)
    return Status::Error("run: --pass needs a recording (.fsdb)");
  // Before any compile or reference run: --tuned reads the recording's tuning runs.
  if (request.tuned && !request.recording)
    return Status::Error("run: --tuned needs a recording with tuning runs");
  request.inputs = args.Value("--inputs");
  request.seed = static_cast<uint64_t>(*args.IntValue("--seed"));
  request.progress = args.Has("--progress");
  request.exact = !args.Has("--no-exact");
  request.save_outputs = args.Value("--save-outputs");
  request.save_exact = args.Value("--save-exact");
  return request;
}

// The module that runs (a recording's snapshot, a model file itself, or the final snapshot of
// our pipeline for a device) and the original it is judged against: none for a model file
// interpreted as it is.
struct RunModules {
  LoadedModel snapshot;
  std::unique_ptr<ir::Module> original;
};

StatusOr<RunModules> LoadRunModules(const RunRequest& request) {
  RunModules modules;
  if (request.recording) {
    // A recording's snapshot and original come from one load, sharing their weights.
    auto both = LoadSnapshots(request.what, {request.pass, -1});
    if (!both.ok()) return Status::Error("run: " + both.message());
    modules.snapshot = std::move((*both)[0]);
    modules.original = std::move((*both)[1].module);
    return modules;
  }
  auto model = LoadModel(request.what, request.pass);
  if (!model.ok()) return Status::Error("run: " + model.message());
  modules.snapshot = std::move(model).value();
  if (!request.on_cpu && !request.on_gpu) return modules;
  // A model file: what runs is the final snapshot of our CPU (GPU) pipeline.
  passes::PipelineOptions pipeline;
  pipeline.target = request.on_cpu ? "cpu" : "gpu";
  auto compiled = recording::CompileAndRecord(*modules.snapshot.module, pipeline);
  if (!compiled.ok()) return Status::Error("run: " + compiled.message());
  if (compiled->snapshots.empty() || compiled->snapshots.back().broken())
    return Status::Error("run: the " + pipeline.target +
                         " pipeline did not produce a usable module");
  auto final_module = compiled->snapshots.back().ToModule();
  if (!final_module.ok()) return Status::Error("run: " + final_module.message());
  modules.original = std::move(modules.snapshot.module);
  modules.snapshot.module = std::move(final_module).value();
  modules.snapshot.snapshot_index = static_cast<int64_t>(compiled->snapshots.size()) - 1;
  return modules;
}

// The interpreter's options for one module's run: with --progress, lines named after it.
runtime::InterpreterOptions InterpreterFor(const RunRequest& request, std::string name) {
  runtime::InterpreterOptions interpreter;
  if (request.progress) interpreter.progress = InstructionProgress(std::move(name));
  return interpreter;
}

// The snapshot compiled for the CPU or the GPU and run once; --kernels-dir gets its kernels.
Status RunOnDevice(const RunRequest& request, const LoadedModel& snapshot,
                   const std::vector<runtime::Literal>& inputs, RunReport& report) {
  const int index = static_cast<int>(snapshot.snapshot_index);
  if (request.on_cpu) {
    runtime::CpuExecutableOptions cpu_options;
    cpu_options.lowering = request.lowering;
    if (request.sgemm) cpu_options.f32_dot_precision = runtime::BlasPrecision::kNative;
    cpu_options.snapshot = index;
    // The lowering stages' texts are printed only for --kernels-dir, which writes them.
    cpu_options.keep_lowering_stages = request.kernels_dir.has_value();
    if (request.tuned) {
      auto applied = ApplyTunedConfigs(request.what, index, cpu_options);
      if (!applied.ok()) return Status::Error("run: " + applied.message());
      std::fprintf(stderr, "%s\n", applied->c_str());
    }
    auto executable = runtime::CpuExecutable::Compile(*snapshot.module, cpu_options);
    if (!executable.ok())
      return Status::Error("run: compiling for the CPU: " + executable.message());
    FS_RETURN_IF_ERROR(RunCompiled(**executable, inputs, "CPU", report));
    report.on_cpu = true;
  } else {
    runtime::CudaExecutableOptions gpu_options;
    gpu_options.snapshot = index;
    auto executable = runtime::CudaExecutable::Compile(*snapshot.module, gpu_options);
    if (!executable.ok())
      return Status::Error("run: compiling for the GPU: " + executable.message());
    FS_RETURN_IF_ERROR(RunCompiled(**executable, inputs, "GPU", report));
    report.on_gpu = true;
    report.gpu_name = request.gpu->device().name;
  }
  if (request.kernels_dir) {
    Status saved = SaveKernels(report.kernels, *request.kernels_dir);
    if (!saved.ok()) return Status::Error("run: " + saved.message());
  }
  return Status::Ok();
}

// Runs the original module (rounded, and in f64 for the exact answer) and the snapshot on the
// same inputs, and judges each of the snapshot's outputs.
StatusOr<RunReport> RunAndJudge(const RunRequest& request, RunModules& modules) {
  LoadedModel& snapshot = modules.snapshot;
  const ir::Module* original = modules.original.get();
  RunReport report;
  report.model = snapshot.display_name;
  report.pass = request.pass;
  // Inputs follow the original module's parameters: passes keep the entry signature.
  const ir::Module& input_module = original ? *original : *snapshot.module;
  auto inputs = ChooseInputs(input_module, request.inputs, request.seed);
  if (!inputs.ok()) return Status::Error("run: " + inputs.message());
  if (original) {
    auto reference = Interpret(*original, *inputs, InterpreterFor(request, "original module"));
    if (!reference.ok()) return Status::Error("run: original module: " + reference.message());
    report.original = std::move(reference).value();
  }
  // The exact answer: what the snapshot is judged by where it differs from the rounded
  // reference, and what --save-exact writes for other tools to judge by.
  if ((original && request.exact) || request.save_exact) {
    runtime::InterpreterOptions wide = InterpreterFor(request, "original module in f64");
    wide.widen_floats_to_f64 = true;
    auto exact = Interpret(input_module, *inputs, wide);
    if (exact.ok()) {
      report.exact = std::move(exact).value();
    } else {
      report.exact_error = exact.message();
      if (request.save_exact) return Status::Error("run: the module in f64: " + exact.message());
    }
  }
  if (request.on_cpu || request.on_gpu) {
    FS_RETURN_IF_ERROR(RunOnDevice(request, snapshot, *inputs, report));
  } else {
    const std::string snapshot_name =
        !original ? "module"
                  : (request.pass ? "snapshot after pass " + std::to_string(*request.pass)
                                  : "final snapshot");
    auto result = Interpret(*snapshot.module, std::move(inputs).value(),
                            InterpreterFor(request, snapshot_name));
    if (!result.ok())
      return Status::Error("run: " + std::string(original ? "snapshot: " : "") + result.message());
    report.snapshot = std::move(result).value();
  }
  if (report.original)
    report.judgements = runtime::JudgeOutputs(
        report.snapshot.outputs, report.original->outputs,
        report.exact ? report.exact->outputs : std::vector<runtime::Literal>{}, request.rtol,
        request.atol);
  return report;
}

// --save-outputs and --save-exact: the snapshot's outputs and the exact answer as .npy files.
Status SaveRunOutputs(const RunRequest& request, const RunReport& report) {
  if (request.save_outputs) {
    Status saved = SaveOutputs(report.snapshot.outputs, *request.save_outputs);
    if (!saved.ok()) return Status::Error("run: " + saved.message());
  }
  if (request.save_exact) {
    Status saved = SaveOutputs(report.exact->outputs, *request.save_exact);
    if (!saved.ok()) return Status::Error("run: " + saved.message());
  }
  return Status::Ok();
}

int RunRun(const ParsedArgs& args) {
  auto request = ReadRunRequest(args);
  if (!request.ok()) return Fail(request.message());
  auto modules = LoadRunModules(*request);
  if (!modules.ok()) return Fail(modules.message());
  auto report = RunAndJudge(*request, *modules);
  if (!report.ok()) return Fail(report.message());
  if (Status saved = SaveRunOutputs(*request, *report); !saved.ok()) return Fail(saved.message());
  if (args.Has("--json")) {
    PrintJson(*report);
  } else {
    PrintText(*report);
  }
  return AllMatch(*report) ? 0 : kExitFailure;
}

const CommandRegistrar kRegistrar({
    .name = "run",
    .summary = "interpret a module, or run it compiled for the CPU or GPU, (a snapshot against the "
               "original) on seeded or given inputs",
    .positionals = {{"MODEL|RUN.fsdb",
                     "a model (run as it is, or our pipeline's final snapshot on a device), or a "
                     "recording (a snapshot judged against the original module)"}},
    .flags =
        {
            PassFlag(),
            InputsFlag(),
            SeedFlag(),
            Text("--save-outputs", "DIR", "write the outputs as out_NNN.npy"),
            Number("--rtol", "X",
                   "relative tolerance (default: " + FormatNumber(kCpuRtol) + "; " +
                       FormatNumber(kGpuRtol) + " with --device cuda)")
                .AtLeast(0),
            Number("--atol", "Y", "absolute tolerance").Default(1e-5).AtLeast(0),
            Text("--device", "interpreter|cpu|cuda",
                 "where the module runs: the reference interpreter, compiled CPU kernels, or "
                 "the GPU")
                .Default("interpreter"),
            Text("--lowering", "OPTIONS",
                 "with --device cpu: the kernels' lowering options, e.g. \"tile=0 vector=8\""),
            Switch("--sgemm", "with --device cpu: f32 GEMMs in single precision"),
            Switch("--tuned",
                   "with --device cpu: build each kernel as the recording's tuning runs found "
                   "best (fusescope tune)"),
            Text("--kernels-dir", "DIR",
                 "with --device cpu or cuda: every kernel's lowering stages as text files"),
            Switch("--no-exact", "leave out the original module's f64 run (the exact answer)"),
            Text("--save-exact", "DIR", "write the f64 run's outputs as .npy files"),
            JsonFlag(),
            ProgressFlag(),
        },
    .run = RunRun,
});

}  // namespace
}  // namespace fusescope::app
