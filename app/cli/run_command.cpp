// `fusescope run MODEL|RUN.fsdb [--pass N] [--inputs DIR] [--seed S] [--save-outputs DIR]
// [--rtol X] [--atol Y] [--json] [--progress]`: runs the module through the reference
// interpreter. For a recording, the original module and the chosen snapshot (the final one by
// default) run on the same inputs and each output of the snapshot is compared with the
// original's; for a model file the module just runs. Exit status 1 when an output differs
// beyond tolerance. --progress reports the instructions done of each module on stderr
// ("progress: instruction 40/120 original module"), for the workbench that runs this command
// as its worker.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli/command.h"
#include "app/cli/interpret_support.h"
#include "app/cli/model_loader.h"
#include "ir/json_writer.h"
#include "runtime/npy.h"

namespace fusescope::app {
namespace {

struct RunReport {
  std::string model;
  std::optional<int64_t> pass;  // the snapshot compared, for recordings
  InterpretedRun snapshot;
  std::optional<InterpretedRun> original;
  std::vector<runtime::LiteralDifference> differences;
};

bool AllMatch(const RunReport& report) {
  for (const runtime::LiteralDifference& d : report.differences) {
    if (!d.ok()) return false;
  }
  return true;
}

void PrintText(const RunReport& report) {
  std::printf("%s: %zu outputs, interpreted in %.3f s", report.model.c_str(),
              report.snapshot.outputs.size(), report.snapshot.seconds);
  if (report.original) std::printf(" (original module %.3f s)", report.original->seconds);
  std::printf("\n");
  for (size_t i = 0; i < report.snapshot.outputs.size(); ++i) {
    const runtime::Literal& output = report.snapshot.outputs[i];
    std::printf("  output %zu  %-24s", i, output.shape().ToString(false).c_str());
    if (report.original && i < report.differences.size()) {
      const runtime::LiteralDifference& d = report.differences[i];
      if (!d.same_shape) {
        std::printf("  MISMATCH: shape differs from the original's");
      } else {
        std::printf("  max abs err %.3e  max rel err %.3e  %s", d.max_abs_error, d.max_rel_error,
                    d.ok() ? "ok" : "MISMATCH");
      }
    }
    std::printf("\n");
  }
  if (report.original) {
    std::printf("%s\n", AllMatch(report) ? "snapshot matches the original module"
                                         : "snapshot DIFFERS from the original module");
  }
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
    if (report.original && i < report.differences.size()) {
      const runtime::LiteralDifference& d = report.differences[i];
      json.Key("same_shape").Bool(d.same_shape);
      json.Key("max_abs_error").Double(std::isfinite(d.max_abs_error) ? d.max_abs_error : 1e308);
      json.Key("max_rel_error").Double(std::isfinite(d.max_rel_error) ? d.max_rel_error : 1e308);
      json.Key("ok").Bool(d.ok());
    }
    json.EndObject();
  }
  json.EndArray();
  if (report.original) json.Key("match").Bool(AllMatch(report));
  json.EndObject();
  std::cout << json.str() << '\n';
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

int RunRun(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(
      raw_args, {"--pass", "--inputs", "--seed", "--save-outputs", "--rtol", "--atol", "--device"},
      {"--json", "--progress"});
  if (!args.ok()) return Fail("run: " + args.message());
  if (args->Has("--device")) {
    return Fail("run: --device is not available yet: only the reference interpreter exists so far");
  }
  if (args->positional().size() != 1) {
    return Fail(
        "usage: fusescope run MODEL|RUN.fsdb [--pass N] [--inputs DIR] [--seed S] [--save-outputs "
        "DIR] [--json] [--progress]");
  }
  auto pass = args->IntValue("--pass");
  auto seed = args->IntValue("--seed");
  if (!pass.ok()) return Fail("run: " + pass.message());
  if (!seed.ok()) return Fail("run: " + seed.message());
  auto rtol = DoubleOption(args->Value("--rtol"), 1e-5, "--rtol");
  auto atol = DoubleOption(args->Value("--atol"), 1e-5, "--atol");
  if (!rtol.ok()) return Fail("run: " + rtol.message());
  if (!atol.ok()) return Fail("run: " + atol.message());
  const std::string& what = args->positional()[0];
  const bool recording = LooksLikeRecording(what);
  if (!recording && *pass) return Fail("run: --pass needs a recording (.fsdb)");
  auto snapshot = LoadModel(what, *pass);
  if (!snapshot.ok()) return Fail("run: " + snapshot.message());
  RunReport report;
  report.model = snapshot->display_name;
  report.pass = *pass;
  std::unique_ptr<ir::Module> original;
  if (recording) {
    auto loaded = LoadModel(what, -1);
    if (!loaded.ok()) return Fail("run: " + loaded.message());
    original = std::move(loaded->module);
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
  const std::string snapshot_name =
      !original ? "module"
                : (*pass ? "snapshot after pass " + std::to_string(**pass) : "final snapshot");
  auto result = Interpret(*snapshot->module, std::move(inputs).value(), options(snapshot_name));
  if (!result.ok())
    return Fail("run: " + std::string(original ? "snapshot: " : "") + result.message());
  report.snapshot = std::move(result).value();
  if (report.original)
    report.differences =
        CompareOutputs(report.snapshot.outputs, report.original->outputs, *rtol, *atol);
  if (std::optional<std::string> dir = args->Value("--save-outputs")) {
    Status saved = SaveOutputs(report.snapshot.outputs, *dir);
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
     "[--rtol X] [--atol Y] [--json] [--progress]",
     "interpret a module (a snapshot against the original) on seeded or given inputs", RunRun});

}  // namespace
}  // namespace fusescope::app
