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
#include "app/cli/interpret_support.h"
#include "app/cli/model_loader.h"
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
  report.kernels = executable.kernels();
  report.timings = executable.last_timings();
  return Status::Ok();
}

int RunRun(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args,
                        {"--pass", "--inputs", "--seed", "--save-outputs", "--rtol", "--atol",
                         "--device", "--lowering", "--kernels-dir", "--save-exact"},
                        {"--json", "--sgemm", "--progress", "--no-exact"});
  if (!args.ok()) return Fail("run: " + args.message());
  const std::string device = args->Value("--device").value_or("interpreter");
  if (device != "interpreter" && device != "cpu" && device != "cuda")
    return Fail("run: --device " + device + " is not available: use interpreter, cpu or cuda");
  const bool on_cpu = device == "cpu";
  const bool on_gpu = device == "cuda";
  if (!on_cpu && !on_gpu && args->Has("--kernels-dir"))
    return Fail("run: --kernels-dir needs --device cpu or cuda");
  if (on_gpu && args->Has("--sgemm")) return Fail("run: --sgemm needs --device cpu");
  runtime::CudaDriver* gpu = nullptr;
  if (on_gpu) {
    // First, before any work: without a GPU the driver's one sentence is the answer.
    StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
    if (!driver.ok()) return Fail(driver.message());
    gpu = *driver;
  }
  runtime::LoweringOptions lowering;
  if (std::optional<std::string> text = args->Value("--lowering")) {
    if (!on_cpu) return Fail("run: --lowering needs --device cpu");
    auto parsed = runtime::LoweringOptions::Parse(*text);
    if (!parsed.ok()) return Fail("run: " + parsed.message());
    lowering = *parsed;
  }
  if (args->positional().size() != 1) {
    return Fail(
        "usage: fusescope run MODEL|RUN.fsdb [--pass N] [--inputs DIR] [--seed S] [--save-outputs "
        "DIR] [--no-exact] [--save-exact DIR] [--json] [--progress]");
  }
  auto pass = args->IntValue("--pass");
  auto seed = args->IntValue("--seed");
  if (!pass.ok()) return Fail("run: " + pass.message());
  if (!seed.ok()) return Fail("run: " + seed.message());
  // cuBLAS's f32 GEMMs accumulate in single precision (the CPU path widens them to dgemm): the
  // GPU's default relative tolerance allows for that.
  auto rtol = DoubleOption(args->Value("--rtol"), on_gpu ? 1e-4 : 1e-5, "--rtol");
  auto atol = DoubleOption(args->Value("--atol"), 1e-5, "--atol");
  if (!rtol.ok()) return Fail("run: " + rtol.message());
  if (!atol.ok()) return Fail("run: " + atol.message());
  const std::string& what = args->positional()[0];
  const bool recording = LooksLikeRecording(what);
  if (!recording && *pass) return Fail("run: --pass needs a recording (.fsdb)");
  // A recording's snapshot and original come from one load, sharing their weights.
  std::unique_ptr<ir::Module> original;
  StatusOr<LoadedModel> snapshot = Status::Error("");
  if (recording) {
    auto both = LoadSnapshots(what, {*pass, -1});
    if (!both.ok()) return Fail("run: " + both.message());
    snapshot = std::move((*both)[0]);
    original = std::move((*both)[1].module);
  } else {
    snapshot = LoadModel(what, *pass);
  }
  if (!snapshot.ok()) return Fail("run: " + snapshot.message());
  RunReport report;
  report.model = snapshot->display_name;
  report.pass = *pass;
  if (!recording && (on_cpu || on_gpu)) {
    // A model file: what runs is the final snapshot of our CPU (GPU) pipeline.
    passes::PipelineOptions pipeline;
    pipeline.target = on_cpu ? "cpu" : "gpu";
    auto compiled = recording::CompileAndRecord(*snapshot->module, pipeline);
    if (!compiled.ok()) return Fail("run: " + compiled.message());
    if (compiled->snapshots.empty() || compiled->snapshots.back().broken())
      return Fail("run: the " + pipeline.target + " pipeline did not produce a usable module");
    auto final_module = compiled->snapshots.back().ToModule();
    if (!final_module.ok()) return Fail("run: " + final_module.message());
    original = std::move(snapshot->module);
    snapshot->module = std::move(final_module).value();
    snapshot->snapshot_index = static_cast<int64_t>(compiled->snapshots.size()) - 1;
  }
  // Inputs follow the original module's parameters: passes keep the entry signature.
  const ir::Module& input_module = original ? *original : *snapshot->module;
  auto inputs =
      ChooseInputs(input_module, args->Value("--inputs"), static_cast<uint64_t>(seed->value_or(0)));
  if (!inputs.ok()) return Fail("run: " + inputs.message());
  const bool progress = args->Has("--progress");
  const auto options = [progress](std::string name) {
    runtime::InterpreterOptions interpreter;
    if (progress) interpreter.progress = InstructionProgress(std::move(name));
    return interpreter;
  };
  if (original) {
    auto reference = Interpret(*original, *inputs, options("original module"));
    if (!reference.ok()) return Fail("run: original module: " + reference.message());
    report.original = std::move(reference).value();
  }
  // The exact answer: what the snapshot is judged by where it differs from the rounded
  // reference, and what --save-exact writes for other tools to judge by.
  const std::optional<std::string> save_exact = args->Value("--save-exact");
  if ((original && !args->Has("--no-exact")) || save_exact) {
    runtime::InterpreterOptions wide = options("original module in f64");
    wide.widen_floats_to_f64 = true;
    auto exact = Interpret(input_module, *inputs, wide);
    if (exact.ok()) {
      report.exact = std::move(exact).value();
    } else {
      report.exact_error = exact.message();
      if (save_exact) return Fail("run: the module in f64: " + exact.message());
    }
  }
  if (on_cpu) {
    runtime::CpuExecutableOptions cpu_options;
    cpu_options.lowering = lowering;
    if (args->Has("--sgemm")) cpu_options.f32_dot_precision = runtime::BlasPrecision::kNative;
    cpu_options.snapshot = static_cast<int>(snapshot->snapshot_index);
    // The lowering stages' texts are printed only for --kernels-dir, which writes them.
    cpu_options.keep_lowering_stages = args->Has("--kernels-dir");
    auto executable = runtime::CpuExecutable::Compile(*snapshot->module, cpu_options);
    if (!executable.ok()) return Fail("run: compiling for the CPU: " + executable.message());
    Status ran = RunCompiled(**executable, *inputs, "CPU", report);
    if (!ran.ok()) return Fail(ran.message());
    report.on_cpu = true;
    if (std::optional<std::string> dir = args->Value("--kernels-dir")) {
      Status saved = SaveKernels(report.kernels, *dir);
      if (!saved.ok()) return Fail("run: " + saved.message());
    }
  } else if (on_gpu) {
    runtime::CudaExecutableOptions gpu_options;
    gpu_options.snapshot = static_cast<int>(snapshot->snapshot_index);
    auto executable = runtime::CudaExecutable::Compile(*snapshot->module, gpu_options);
    if (!executable.ok()) return Fail("run: compiling for the GPU: " + executable.message());
    Status ran = RunCompiled(**executable, *inputs, "GPU", report);
    if (!ran.ok()) return Fail(ran.message());
    report.on_gpu = true;
    report.gpu_name = gpu->device().name;
    if (std::optional<std::string> dir = args->Value("--kernels-dir")) {
      Status saved = SaveKernels(report.kernels, *dir);
      if (!saved.ok()) return Fail("run: " + saved.message());
    }
  } else {
    const std::string snapshot_name =
        !original ? "module"
                  : (*pass ? "snapshot after pass " + std::to_string(**pass) : "final snapshot");
    auto result = Interpret(*snapshot->module, std::move(inputs).value(), options(snapshot_name));
    if (!result.ok())
      return Fail("run: " + std::string(original ? "snapshot: " : "") + result.message());
    report.snapshot = std::move(result).value();
  }
  if (report.original)
    report.judgements = runtime::JudgeOutputs(
        report.snapshot.outputs, report.original->outputs,
        report.exact ? report.exact->outputs : std::vector<runtime::Literal>{}, *rtol, *atol);
  if (std::optional<std::string> dir = args->Value("--save-outputs")) {
    Status saved = SaveOutputs(report.snapshot.outputs, *dir);
    if (!saved.ok()) return Fail("run: " + saved.message());
  }
  if (save_exact) {
    Status saved = SaveOutputs(report.exact->outputs, *save_exact);
    if (!saved.ok()) return Fail("run: " + saved.message());
  }
  if (args->Has("--json")) {
    PrintJson(report);
  } else {
    PrintText(report);
  }
  return AllMatch(report) ? 0 : kExitFailure;
}

const CommandRegistrar kRegistrar(
    {"run",
     "run MODEL|RUN.fsdb [--pass N] [--inputs DIR] [--seed S] [--save-outputs DIR] "
     "[--rtol X] [--atol Y] [--device interpreter|cpu|cuda] [--lowering \"tile=0 vector=8\"] "
     "[--sgemm] [--kernels-dir DIR] [--no-exact] [--save-exact DIR] [--json] [--progress]",
     "interpret a module, or run it compiled for the CPU or GPU, (a snapshot against the original) "
     "on "
     "seeded or given inputs",
     RunRun});

}  // namespace
}  // namespace fusescope::app
