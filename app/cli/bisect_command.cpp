// `fusescope bisect RUN.fsdb [--rtol X] [--atol Y] [--seed S] [--inputs DIR]
// [--device interpreter|cpu] [--json] [--progress]`: the first pass whose module computes
// different numbers. The module before the first pass and after every pass run through the
// reference interpreter (or, with --device cpu, compiled for the CPU, the input module
// included as row -1) on the same inputs; each is judged against the input module interpreted
// and against the exact answer, the input module in f64 (runtime/output_bisection.h). Exit
// status 1 when a pass is found, 0 when every pass keeps the outputs within tolerance or
// rounding explains the difference. --progress reports each snapshot as it starts
// running on stderr ("progress: snapshot 7/18 priority-fusion", numbered as the recording's
// snapshots: 0 is the input, K the module after pass K-1); snapshots a pass left unchanged
// are not run again and not reported.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/interpret_support.h"
#include "app/cli/model_loader.h"
#include "ir/json_writer.h"
#include "recording/recording_store.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/output_bisection.h"

namespace fusescope::app {
namespace {

double Finite(double value) { return std::isfinite(value) ? value : 1e308; }

void PrintText(const runtime::BisectionResult& result, const std::string& model,
               const std::string& device) {
  char exact[64];
  std::snprintf(exact, sizeof exact, "%.3f s", result.exact_seconds);
  std::printf(
      "%s: %lld outputs, input module interpreted in %.3f s (in f64: %s); stages run "
      "on the %s\n\n",
      model.c_str(), static_cast<long long>(result.outputs), result.input_seconds,
      result.exact_error.empty() ? exact : result.exact_error.c_str(),
      device == "cpu" ? "CPU, compiled (time includes compiling)" : "interpreter");
  std::printf("%4s  %-24s %-15s %13s %13s %13s %13s %9s  %s\n", "#", "pass", "verdict",
              "max abs err", "max rel err", "to exact", "input to exact", "time(s)", "notes");
  for (const runtime::BisectionRow& row : result.rows) {
    const char* verdict = !row.ran ? "not run"
                          : row.verdict == runtime::OutputVerdict::kMismatch
                              ? "DIFFERS"
                              : OutputVerdictName(row.verdict);
    std::string notes = row.reused ? "unchanged module" : "";
    if (!row.error.empty()) notes += (notes.empty() ? "" : "; ") + row.error;
    std::printf("%4lld  %-24s %-15s %13.3e %13.3e %13.3e %13.3e %9.3f  %s\n",
                static_cast<long long>(row.pass_index), row.pass_name.c_str(), verdict,
                row.max_abs_error, row.max_rel_error, row.to_exact, row.input_to_exact, row.seconds,
                notes.c_str());
  }
  if (result.first_bad) {
    const runtime::BisectionRow& bad = result.rows[*result.first_bad];
    std::printf("\nfirst pass whose outputs differ: #%lld %s\n",
                static_cast<long long>(bad.pass_index), bad.pass_name.c_str());
  } else if (std::any_of(result.rows.begin(), result.rows.end(), [](const auto& row) {
               return row.ran && row.verdict == runtime::OutputVerdict::kIllConditioned;
             })) {
    std::printf(
        "\nno pass is to blame: the input module is ill-conditioned on these inputs (rounding "
        "alone moves its outputs beyond tolerance from the exact answer)\n");
  } else {
    std::printf("\nno pass changes the outputs beyond tolerance\n");
  }
}

void PrintJson(const runtime::BisectionResult& result, const std::string& model,
               const std::string& device, double rtol, double atol) {
  JsonWriter json;
  json.BeginObject();
  json.Key("model").String(model);
  json.Key("device").String(device);
  json.Key("rtol").Double(rtol);
  json.Key("atol").Double(atol);
  json.Key("outputs").Int(result.outputs);
  json.Key("input_seconds").Double(result.input_seconds);
  if (result.exact_error.empty())
    json.Key("exact_seconds").Double(result.exact_seconds);
  else
    json.Key("exact_error").String(result.exact_error);
  json.Key("first_bad_pass");
  if (result.first_bad) {
    const runtime::BisectionRow& bad = result.rows[*result.first_bad];
    json.BeginObject();
    json.Key("index").Int(bad.pass_index);
    json.Key("name").String(bad.pass_name);
    json.EndObject();
  } else {
    json.Null();
  }
  json.Key("passes").BeginArray();
  for (const runtime::BisectionRow& row : result.rows) {
    json.BeginObject();
    json.Key("index").Int(row.pass_index);
    json.Key("name").String(row.pass_name);
    json.Key("ran").Bool(row.ran);
    json.Key("reused").Bool(row.reused);
    json.Key("ok").Bool(row.ok);
    json.Key("verdict").String(runtime::OutputVerdictName(row.verdict));
    json.Key("max_abs_error").Double(Finite(row.max_abs_error));
    json.Key("max_rel_error").Double(Finite(row.max_rel_error));
    json.Key("to_exact").Double(Finite(row.to_exact));
    json.Key("input_to_exact").Double(Finite(row.input_to_exact));
    json.Key("seconds").Double(row.seconds);
    if (!row.error.empty()) json.Key("error").String(row.error);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  std::cout << json.str() << '\n';
}

int RunBisect(const ParsedArgs& args) {
  const std::string device = *args.Value("--device");
  if (device != "interpreter" && device != "cpu")
    return Fail("bisect: --device " + device + " is not available: use interpreter or cpu");
  const std::string& path = args.positional()[0];
  const double rtol = *args.NumberValue("--rtol");
  const double atol = *args.NumberValue("--atol");
  if (!LooksLikeRecording(path))
    return Fail("bisect: " + path + " is not a recording (.fsdb); make one with fusescope compile");
  auto recording = recording::LoadRecording(path);
  if (!recording.ok()) return Fail("bisect: " + recording.message());
  auto input = recording->input().ToModule();
  if (!input.ok()) return Fail("bisect: the input module: " + input.message());
  auto inputs = ChooseInputs(**input, args.Value("--inputs"),
                             static_cast<uint64_t>(*args.IntValue("--seed")));
  if (!inputs.ok()) return Fail("bisect: " + inputs.message());
  std::vector<runtime::BisectionStage> stages;
  const recording::Recording& rec = *recording;
  if (device == "cpu") {
    // The input module compiled: where it already differs, the kernels are at fault, not a pass.
    runtime::BisectionStage stage;
    stage.pass_index = -1;
    stage.pass_name = "(input, compiled)";
    stage.load = [&rec]() { return rec.input().ToModule(); };
    stages.push_back(std::move(stage));
  }
  const size_t stage_count =
      rec.snapshots.empty() ? 0 : std::min(rec.passes.size(), rec.snapshots.size() - 1);
  const auto snapshots = static_cast<int64_t>(stage_count + 1);
  const bool progress = args.Has("--progress");
  for (size_t i = 0; i < stage_count; ++i) {
    runtime::BisectionStage stage;
    stage.pass_index = rec.passes[i].index;
    stage.pass_name = rec.passes[i].name;
    const recording::Snapshot& snapshot = rec.snapshots[i + 1];
    stage.changed = snapshot.fingerprint() != rec.snapshots[i].fingerprint() || snapshot.broken();
    // Loading is the first step of running a stage: the place to say that it starts.
    stage.load = [&snapshot, &rec, i, snapshots,
                  progress]() -> StatusOr<std::unique_ptr<ir::Module>> {
      if (progress)
        PrintProgress("snapshot", static_cast<int64_t>(i) + 1, snapshots, rec.passes[i].name);
      if (snapshot.broken()) return Status::Error("the pass broke the module: " + snapshot.error());
      return snapshot.ToModule();
    };
    stages.push_back(std::move(stage));
  }
  if (progress) PrintProgress("snapshot", 0, snapshots, "input");
  runtime::StageRunner compiled;
  if (device == "cpu") {
    compiled = [](const ir::Module& module,
                  const std::vector<runtime::Literal>& arguments) -> StatusOr<runtime::Literal> {
      auto executable = runtime::CpuExecutable::Compile(module);
      if (!executable.ok()) return Status::Error("compiling for the CPU: " + executable.message());
      return (*executable)->Run(arguments);
    };
  }
  auto result = runtime::BisectOutputs(**input, stages, *inputs, rtol, atol, {}, compiled);
  if (!result.ok()) return Fail("bisect: " + result.message());
  if (args.Has("--json")) {
    PrintJson(*result, rec.model_name, device, rtol, atol);
  } else {
    PrintText(*result, rec.model_name, device);
  }
  return result->first_bad ? kExitFailure : 0;
}

const CommandRegistrar kRegistrar({
    .name = "bisect",
    .summary =
        "the first pass whose module computes different numbers (interpreter or compiled kernels)",
    .positionals = {{"RUN.fsdb", "a recording"}},
    .flags =
        {
            Number("--rtol", "X", "relative tolerance").Default(1e-5).AtLeast(0),
            Number("--atol", "Y", "absolute tolerance").Default(1e-5).AtLeast(0),
            SeedFlag(),
            InputsFlag(),
            Text("--device", "interpreter|cpu",
                 "run each snapshot in the interpreter or compiled for the CPU")
                .Default("interpreter"),
            JsonFlag(),
            ProgressFlag(),
        },
    .run = RunBisect,
});

}  // namespace
}  // namespace fusescope::app
