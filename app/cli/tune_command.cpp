// `fusescope tune RUN.fsdb`: measured search over how each hot kernel of a recording's
// compiled snapshot is built (tuning/). For each chosen kernel (default: the hottest that
// cover 90 % of the kernels' time in a first measurement of the default build), each
// configuration of the search space is compiled, run on the same inputs, judged against the
// interpreter and timed in place; every trial is kept, failed ones with their error, and the
// run is stored in the recording (one transaction) for `run --tuned`, `profile --tuned`,
// `hot --compare` and the Tuning view. SIGINT/SIGTERM stop the search after the current
// trial and store the trials so far.
//
// Also: --list (the stored runs and the best configuration per kernel), --plan (the trials a
// grid or random search would run, as JSON, for executors elsewhere), --trial (one
// configuration of one kernel, as JSON: what each Ray task runs), --merge FILE (store a run
// made elsewhere), --executor ray (the sweep as Ray tasks through scripts/ray_tune.py).

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/interpret_support.h"
#include "app/cli/model_loader.h"
#include "compare/peer_process.h"
#include "ir/json_reader.h"
#include "ir/json_writer.h"
#include "ir/module.h"
#include "profiler/machine.h"
#include "profiler/profile.h"
#include "runtime/cpu/gemm.h"
#include "tuning/kernel_tuner.h"
#include "tuning/search_strategy.h"
#include "tuning/tuning_json.h"
#include "tuning/tuning_store.h"
#include "views/tuning_plot.h"

#ifndef FUSESCOPE_SCRIPTS_DIR
#define FUSESCOPE_SCRIPTS_DIR "scripts"
#endif

namespace fusescope::app {
namespace {

// The GEMM libraries this build and process can call: the default space's gemm knob.
std::vector<std::string> AvailableGemmLibraries() {
  std::vector<std::string> names;
  for (runtime::GemmLibrary library : runtime::AllGemmLibraries())
    if (runtime::GemmLibraryAvailable(library).ok())
      names.emplace_back(runtime::GemmLibraryName(library));
  return names;
}

std::atomic<bool> g_cancel{false};
extern "C" void OnStopSignal(int) { g_cancel.store(true); }

struct TuneFlags {
  std::string path;
  std::optional<int64_t> pass;
  std::vector<std::string> kernels;
  tuning::SearchSpace space;
  std::string strategy = "grid";
  int64_t trials = 0;
  uint64_t seed = 1;
  uint64_t input_seed = 0;
  std::optional<std::string> inputs_dir;
  tuning::TunerOptions tuner;
  double coverage = 0.9;
  bool json = false;
  bool progress = false;
  bool save = true;
  bool compose = true;
  std::optional<std::string> plot;
};

std::string Fixed(double value, int digits) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << value;
  return out.str();
}

// The flags every form shares; `args` already parsed.
StatusOr<TuneFlags> ReadFlags(const ParsedArgs& args) {
  TuneFlags flags;
  if (args.positional().size() != 1) return Status::Error("expects one recording (RUN.fsdb)");
  flags.path = args.positional()[0];
  flags.pass = args.IntValue("--pass");
  flags.kernels = args.Values("--kernel");
  const std::optional<std::string> space = args.Value("--space");
  if (space) {
    auto parsed = tuning::SearchSpace::Parse(*space);
    if (!parsed.ok()) return parsed.status();
    flags.space = *parsed;
  } else {
    flags.space = tuning::SearchSpace::Default(AvailableGemmLibraries());
  }
  if (auto strategy = args.Value("--strategy")) flags.strategy = *strategy;
  if (flags.strategy != "grid" && flags.strategy != "random" && flags.strategy != "evolutionary")
    return Status::Error("--strategy takes grid, random or evolutionary, not '" + flags.strategy +
                         "'");
  if (auto trials = args.IntValue("--trials")) flags.trials = *trials;
  flags.tuner.reps = args.IntValue("--reps").value_or(flags.tuner.reps);
  flags.tuner.warmup = args.IntValue("--warmup").value_or(flags.tuner.warmup);
  flags.seed = static_cast<uint64_t>(args.IntValue("--seed").value_or(1));
  flags.input_seed = static_cast<uint64_t>(args.IntValue("--input-seed").value_or(0));
  flags.coverage = args.NumberValue("--coverage").value_or(0.9);
  if (flags.coverage <= 0 || flags.coverage > 1)
    return Status::Error("--coverage takes a fraction in (0, 1]");
  flags.tuner.rtol = args.NumberValue("--rtol").value_or(1e-5);
  flags.tuner.atol = args.NumberValue("--atol").value_or(1e-5);
  flags.inputs_dir = args.Value("--inputs");
  // As `profile --sgemm`: f32 dots in single precision (the default widens them to f64).
  if (args.Has("--sgemm")) flags.tuner.base.f32_dot_precision = runtime::BlasPrecision::kNative;
  flags.json = args.Has("--json");
  flags.progress = args.Has("--progress");
  flags.save = !args.Has("--no-save");
  flags.compose = !args.Has("--no-compose");
  flags.plot = args.Value("--plot");
  return flags;
}

// What the flags ask the tuner to search (no callbacks).
tuning::TuneRequest RequestOf(const TuneFlags& flags) {
  tuning::TuneRequest request;
  request.kernels = flags.kernels;
  request.coverage = flags.coverage;
  request.space = flags.space;
  request.strategy = flags.strategy;
  request.trials = flags.trials;
  request.seed = flags.seed;
  request.compose = flags.compose;
  return request;
}

// The snapshot to tune and its inputs.
struct Target {
  LoadedModel model;
  std::vector<runtime::Literal> inputs;
};

StatusOr<Target> LoadTarget(const TuneFlags& flags) {
  if (!LooksLikeRecording(flags.path))
    return Status::Error(flags.path + ": tuning needs a recording (the trials are kept in it): "
                         "`fusescope compile MODEL -o RUN.fsdb` makes one");
  auto model = LoadModel(flags.path, flags.pass);
  if (!model.ok()) return model.status();
  Target target{std::move(model).value(), {}};
  auto inputs = ChooseInputs(*target.model.module, flags.inputs_dir, flags.input_seed);
  if (!inputs.ok()) return inputs.status();
  target.inputs = std::move(inputs).value();
  return target;
}

std::string Settings(const TuneFlags& flags, bool cancelled) {
  std::string text = "reps=" + std::to_string(flags.tuner.reps) +
                     (flags.tuner.base.f32_dot_precision == runtime::BlasPrecision::kNative
                          ? " sgemm"
                          : "") +
                     " " +
                     "warmup=" + std::to_string(flags.tuner.warmup) +
                     " seed=" + std::to_string(flags.seed) +
                     " input_seed=" + std::to_string(flags.input_seed) +
                     (flags.trials > 0 ? " trials=" + std::to_string(flags.trials) : "") +
                     (flags.inputs_dir ? " inputs=" + *flags.inputs_dir : "");
  if (cancelled) text += " cancelled";
  return text;
}

void PrintRunText(const tuning::TuningRun& run, const std::string& path) {
  std::printf("%s, snapshot %lld: %s search over %s (%s)\n", path.c_str(),
              static_cast<long long>(run.snapshot_index), run.strategy.c_str(), run.space.c_str(),
              run.settings.c_str());
  std::printf("%-34s %7s %6s %12s %12s %8s  %s\n", "kernel", "trials", "failed", "default us",
              "best us", "speedup", "best configuration");
  for (const auto& [kernel, best] : tuning::BestPerKernel(run.trials)) {
    const std::string best_config =
        !best.best ? "(none ok)" : best.best->is_default ? "default" : best.best->config;
    // The best trial's own paired default where it has one: both were timed side by side.
    const double default_us = best.best && best.best->baseline_us > 0 ? best.best->baseline_us
                              : best.baseline                        ? best.baseline->median_us
                                                                     : 0;
    std::printf("%-34s %7lld %6lld %12s %12s %7sx  %s\n", kernel.c_str(),
                static_cast<long long>(best.trials), static_cast<long long>(best.failed),
                default_us > 0 ? Fixed(default_us, 1).c_str() : "-",
                best.best ? Fixed(best.best->median_us, 1).c_str() : "-",
                Fixed(best.Speedup(), 2).c_str(), best_config.c_str());
  }
  if (!run.composed) {
    std::printf("not composed: `run --tuned` applies each kernel's best by itself\n");
    return;
  }
  if (run.composition.empty()) {
    std::printf(
        "composed: no configuration beat its default by %.0f%% or more in enough "
        "paired runs; `run --tuned` keeps the defaults\n",
        tuning::kMinGain * 100);
    return;
  }
  std::printf("composed, the largest gain first (the module with it against the kept ones):\n");
  for (const tuning::CompositionStep& step : run.composition) {
    if (!step.ok) {
      std::printf("  %-32s %-28s failed: %s\n", step.kernel.c_str(), step.config.c_str(),
                  step.error.c_str());
      continue;
    }
    std::printf("  %-32s %-28s %10s -> %10s us  %2lld/%lld runs faster  %s\n", step.kernel.c_str(),
                step.config.c_str(), Fixed(step.module_before_us, 1).c_str(),
                Fixed(step.module_us, 1).c_str(), static_cast<long long>(step.pairs_faster),
                static_cast<long long>(step.pairs), step.kept ? "kept" : "dropped");
  }
  const bool any_kept = std::any_of(run.composition.begin(), run.composition.end(),
                                    [](const tuning::CompositionStep& step) { return step.kept; });
  if (!any_kept && run.module_speedup != 1) {
    std::printf(
        "together they ran at %sx the default build's speed, not faster: none is kept, "
        "and `run --tuned` keeps the defaults\n",
        Fixed(run.module_speedup, 2).c_str());
  } else {
    std::printf("the kept configurations together: module %sx the default build's speed\n",
                Fixed(run.module_speedup, 2).c_str());
  }
}

void PrintStep(const tuning::CompositionStep& step, int64_t done, int64_t total, bool progress) {
  const std::string what =
      step.kernel + " " + step.config + ": " +
      (!step.ok ? "failed: " + step.error
                : Fixed(step.module_before_us, 1) + " -> " + Fixed(step.module_us, 1) + " us, " +
                      (step.kept ? "kept" : "dropped"));
  if (progress) {
    PrintProgress("compose", done, total, what);
  } else {
    std::fprintf(stderr, "compose %lld/%lld %s\n", static_cast<long long>(done),
                 static_cast<long long>(total), what.c_str());
  }
}

Status WritePlot(const std::vector<tuning::TuningRun>& runs, const std::string& out) {
  std::string svg = views::TuningPlotSvg(runs);
  std::ofstream file(out, std::ios::binary);
  if (!file) return Status::Error(out + ": cannot write the plot");
  file << svg;
  if (!file.flush()) return Status::Error(out + ": cannot write the plot");
  return Status::Ok();
}

int RunList(const TuneFlags& flags) {
  auto runs = tuning::LoadTuningRuns(flags.path);
  if (!runs.ok()) return Fail("tune: " + runs.message());
  if (flags.plot) {
    Status plotted = WritePlot(*runs, *flags.plot);
    if (!plotted.ok()) return Fail("tune: " + plotted.message());
  }
  if (flags.json) {
    JsonWriter json;
    json.BeginObject();
    json.Key("recording").String(flags.path);
    json.Key("runs").BeginArray();
    for (const tuning::TuningRun& run : *runs) tuning::WriteRunJson(json, run);
    json.EndArray();
    json.EndObject();
    std::cout << json.str() << "\n";
    return 0;
  }
  if (runs->empty()) {
    std::printf("%s: no tuning runs yet: `fusescope tune %s` makes one\n", flags.path.c_str(),
                flags.path.c_str());
    return 0;
  }
  for (const tuning::TuningRun& run : *runs) {
    std::printf("run %lld (%s, %s executor, %zu trials)\n", static_cast<long long>(run.run_id),
                run.created_at.c_str(), run.executor.c_str(), run.trials.size());
    PrintRunText(run, flags.path);
    std::printf("\n");
  }
  return 0;
}

// The trials a grid or random search would run, per kernel, after each kernel's default.
int RunPlan(const TuneFlags& flags) {
  auto probe = tuning::SearchStrategy::Create(flags.strategy, {}, 0, flags.seed);
  if (probe.ok() && (*probe)->Adaptive())
    return Fail("tune --plan: an " + flags.strategy +
                " search chooses each trial from the times "
                "before it; plan a grid or random search");
  auto target = LoadTarget(flags);
  if (!target.ok()) return Fail("tune: " + target.message());
  // Kinds come from the default build's kernels: compiling is needed, timing is not.
  tuning::TunerOptions options = flags.tuner;
  options.reps = 1;
  options.warmup = 0;
  auto tuner = tuning::KernelTuner::Create(*target->model.module, target->inputs,
                                           target->model.snapshot_index, options);
  if (!tuner.ok()) return Fail("tune: " + tuner.message());
  tuning::TuneRequest request = RequestOf(flags);
  // The same plan a local search follows: the default configuration is the default trial.
  auto searches = (*tuner)->Plan(request);
  if (!searches.ok()) return Fail("tune: " + searches.message());
  JsonWriter json;
  json.BeginObject();
  json.Key("recording").String(flags.path);
  json.Key("snapshot").Int(target->model.snapshot_index);
  json.Key("space").String(flags.space.ToString());
  json.Key("strategy").String(flags.strategy);
  json.Key("settings").String(Settings(flags, false));
  json.Key("trials").BeginArray();
  for (tuning::KernelTuner::KernelSearch& search : *searches) {
    json.BeginObject()
        .Key("kernel")
        .String(search.kernel)
        .Key("config")
        .String("default")
        .EndObject();
    while (std::optional<size_t> next = search.strategy->Next()) {
      json.BeginObject()
          .Key("kernel")
          .String(search.kernel)
          .Key("config")
          .String(search.strategy->candidates()[*next].config.ToString())
          .EndObject();
    }
  }
  json.EndArray();
  json.EndObject();
  std::cout << json.str() << "\n";
  return 0;
}

int RunOneTrial(const TuneFlags& flags, const ParsedArgs& args) {
  if (flags.kernels.size() != 1) return Fail("tune --trial: name one kernel with --kernel");
  const std::optional<std::string> config_text = args.Value("--config");
  if (!config_text) return Fail("tune --trial: give the configuration with --config");
  const bool is_default = *config_text == "default" || config_text->empty();
  auto config = is_default ? StatusOr<runtime::KernelConfig>(runtime::KernelConfig{})
                           : runtime::KernelConfig::Parse(*config_text);
  if (!config.ok()) return Fail("tune --trial: " + config.message());
  auto target = LoadTarget(flags);
  if (!target.ok()) return Fail("tune: " + target.message());
  tuning::TunerOptions options = flags.tuner;
  // Kernel kinds need the default build; its times are not needed.
  const int64_t reps = options.reps, warmup = options.warmup;
  options.reps = 1;
  options.warmup = 0;
  auto tuner = tuning::KernelTuner::Create(*target->model.module, target->inputs,
                                           target->model.snapshot_index, options);
  if (!tuner.ok()) return Fail("tune: " + tuner.message());
  auto kind = (*tuner)->KindOfKernel(flags.kernels[0]);
  if (!kind.ok()) return Fail("tune --trial: " + kind.message());
  (*tuner)->SetRuns(reps, warmup);
  tuning::Trial trial = (*tuner)->RunTrial(flags.kernels[0], *config);
  trial.is_default = is_default;
  if (is_default) {
    for (const tuning::Trial& known : (*tuner)->default_trials())
      if (known.kernel == trial.kernel) trial.config = known.config;
  }
  JsonWriter json;
  tuning::WriteTrialJson(json, trial);
  std::cout << json.str() << "\n";
  return 0;
}

int RunMerge(const TuneFlags& flags, const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Fail("tune --merge: " + file + ": cannot read");
  std::stringstream text;
  text << in.rdbuf();
  auto run = tuning::ParseRunJson(text.str(), file);
  if (!run.ok()) return Fail("tune --merge: " + run.message());
  if (run->machine.empty()) run->machine = "(cluster)";
  if (run->created_at.empty()) run->created_at = profiler::UtcNow();
  // The trials ran elsewhere; putting the bests together needs the whole module on one
  // machine: this one.
  if (flags.compose && !run->composed) {
    auto target = LoadTarget(flags);
    if (!target.ok()) return Fail("tune --merge: " + target.message());
    if (target->model.snapshot_index != run->snapshot_index)
      return Fail("tune --merge: the trials are of snapshot " +
                  std::to_string(run->snapshot_index) + ", --pass chose snapshot " +
                  std::to_string(target->model.snapshot_index));
    auto tuner = tuning::KernelTuner::Create(*target->model.module, target->inputs,
                                             target->model.snapshot_index, flags.tuner);
    if (!tuner.ok()) return Fail("tune --merge: " + tuner.message());
    (*tuner)->Compose(*run, [&](const tuning::CompositionStep& step, int64_t done, int64_t total) {
      if (!flags.json || flags.progress) PrintStep(step, done, total, flags.progress);
    });
  }
  auto id = tuning::AddTuningRun(flags.path, *run);
  if (!id.ok()) return Fail("tune --merge: " + id.message());
  if (flags.json) {
    std::printf("{\"run_id\": %lld, \"trials\": %zu}\n", static_cast<long long>(*id),
                run->trials.size());
  } else {
    std::printf("stored %zu trials as tuning run %lld in %s\n", run->trials.size(),
                static_cast<long long>(*id), flags.path.c_str());
  }
  return 0;
}

// The kept set, checked again in fresh processes: `profile` and `profile --tuned` of the
// stored run, in turns. Inside the tuner's process a library's threads left spinning by
// earlier trials (oneDNN's OpenMP team) slow the default build as much as the tuned one, so
// a kept set can look faster there and be slower in a fresh `run --tuned`, which pays for
// them alone (a BERT layer's kept set measured faster in the tuner ran 3.9x slower so). A
// kept set that the fresh pairs do not show faster is dropped from the stored run.
constexpr int kFreshPairs = 8;

struct FreshCheck {
  std::vector<double> default_us, tuned_us;
  double default_median_us = 0, tuned_median_us = 0;
  int64_t faster = 0;
  bool faster_overall = false;
};

StatusOr<double> FreshProfileP50(const TuneFlags& flags, bool tuned) {
  std::vector<std::string> argv = {ExecutablePath(),
                                   "profile",
                                   flags.path,
                                   "--device",
                                   "cpu",
                                   "--reps",
                                   std::to_string(flags.tuner.reps),
                                   "--warmup",
                                   std::to_string(flags.tuner.warmup),
                                   "--json"};
  argv.push_back(flags.tuner.base.f32_dot_precision == runtime::BlasPrecision::kNative ? "--sgemm"
                                                                                       : "--dgemm");
  if (flags.pass) {
    argv.push_back("--pass");
    argv.push_back(std::to_string(*flags.pass));
  }
  if (flags.inputs_dir) {
    argv.push_back("--inputs");
    argv.push_back(*flags.inputs_dir);
  } else {
    argv.push_back("--seed");
    argv.push_back(std::to_string(flags.input_seed));
  }
  if (tuned) argv.push_back("--tuned");
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() /
      ("fusescope-tune-check-" + std::to_string(::getpid()) + (tuned ? "-tuned" : "-default"));
  compare::ProcessSpec spec;
  spec.argv = argv;
  spec.stdout_path = scratch.string() + ".json";
  spec.stderr_path = scratch.string() + ".err";
  auto outcome = compare::RunProcess(spec);
  std::ifstream in(spec.stdout_path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string tail = compare::TailOfFile(spec.stderr_path);
  std::error_code ignored;
  std::filesystem::remove(spec.stdout_path, ignored);
  std::filesystem::remove(spec.stderr_path, ignored);
  if (!outcome.ok()) return outcome.status();
  if (!outcome->exited_cleanly())
    return Status::Error("profile" + std::string(tuned ? " --tuned" : "") + " " +
                         outcome->Describe() + (tail.empty() ? "" : ": " + tail));
  auto json = ParseJson(text.str());
  if (!json.ok()) return Status::Error("profile printed no JSON: " + json.message());
  const JsonValue* latency = json->Find("latency_us");
  const JsonValue* p50 = latency ? latency->Find("p50") : nullptr;
  if (p50 == nullptr || !p50->is_number()) return Status::Error("profile printed no latency");
  return p50->number();
}

StatusOr<FreshCheck> CheckInFreshProcesses(const TuneFlags& flags) {
  FreshCheck check;
  for (int pair = 0; pair < kFreshPairs; ++pair) {
    // The order alternates, so that drift in the machine's load falls on both.
    for (bool tuned : {pair % 2 == 1, pair % 2 == 0}) {
      auto p50 = FreshProfileP50(flags, tuned);
      if (!p50.ok()) return p50.status();
      (tuned ? check.tuned_us : check.default_us).push_back(*p50);
    }
  }
  check.faster = tuning::CountFaster(check.tuned_us, check.default_us);
  auto median = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  };
  check.default_median_us = median(check.default_us);
  check.tuned_median_us = median(check.tuned_us);
  check.faster_overall = check.tuned_median_us < check.default_median_us &&
                         tuning::PairsShowFaster(check.faster, kFreshPairs);
  return check;
}

int RunSearch(const TuneFlags& flags) {
  auto target = LoadTarget(flags);
  if (!target.ok()) return Fail("tune: " + target.message());
  tuning::TunerOptions options = flags.tuner;
  options.cancel = &g_cancel;
  g_cancel.store(false);
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  if (flags.progress) PrintProgress("measure", 0, 1, "default build");
  auto tuner = tuning::KernelTuner::Create(*target->model.module, target->inputs,
                                           target->model.snapshot_index, options);
  if (!tuner.ok()) return Fail("tune: " + tuner.message());
  tuning::TuneRequest request = RequestOf(flags);
  request.on_trial = [&](const tuning::Trial& trial, int64_t done, int64_t total) {
    if (flags.progress) {
      PrintProgress("trial", done, total,
                    trial.kernel + " " + trial.config + ": " +
                        (trial.ok ? Fixed(trial.median_us, 1) + " us" : "failed"));
    } else if (!flags.json) {
      std::fprintf(stderr, "trial %lld/%lld %s %s: %s\n", static_cast<long long>(done),
                   static_cast<long long>(total), trial.kernel.c_str(), trial.config.c_str(),
                   trial.ok ? (Fixed(trial.median_us, 1) + " us").c_str() : trial.error.c_str());
    }
  };
  request.on_step = [&](const tuning::CompositionStep& step, int64_t done, int64_t total) {
    if (!flags.json || flags.progress) PrintStep(step, done, total, flags.progress);
  };
  auto run = (*tuner)->Tune(request);
  if (!run.ok()) return Fail("tune: " + run.message());
  const bool cancelled = g_cancel.load();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  run->machine = profiler::DescribeMachine().Key();
  run->created_at = profiler::UtcNow();
  run->settings = Settings(flags, cancelled);
  if (flags.save) {
    if (flags.progress) PrintProgress("save", 0, 1, "tuning run");
    auto id = tuning::AddTuningRun(flags.path, *run);
    if (!id.ok()) return Fail("tune: " + id.message());
    run->run_id = *id;
    bool kept = false;
    for (const tuning::CompositionStep& step : run->composition) kept = kept || step.kept;
    if (run->composed && kept && !cancelled) {
      if (flags.progress) PrintProgress("check", 0, 1, "fresh processes");
      auto check = CheckInFreshProcesses(flags);
      if (!check.ok())
        return Fail("tune: checking the kept set in fresh processes: " + check.message());
      const double speedup = check->default_median_us / check->tuned_median_us;
      if (!flags.json) {
        std::printf(
            "checked in fresh processes (profile and profile --tuned, %d pairs): %s -> %s us, "
            "%lld/%d pairs faster: %s\n",
            kFreshPairs, Fixed(check->default_median_us, 1).c_str(),
            Fixed(check->tuned_median_us, 1).c_str(), static_cast<long long>(check->faster),
            kFreshPairs, check->faster_overall ? "kept" : "not faster, the kept set is dropped");
      }
      if (!check->faster_overall) {
        Status dropped = tuning::DropKeptConfigurations(flags.path, run->run_id, speedup);
        if (!dropped.ok()) return Fail("tune: " + dropped.message());
        for (tuning::CompositionStep& step : run->composition) step.kept = false;
        run->module_speedup = speedup;
      }
    }
  }
  if (flags.plot) {
    Status plotted = WritePlot({*run}, *flags.plot);
    if (!plotted.ok()) return Fail("tune: " + plotted.message());
  }
  if (flags.json) {
    JsonWriter json;
    tuning::WriteRunJson(json, *run);
    std::cout << json.str() << "\n";
  } else {
    PrintRunText(*run, flags.path);
    if (cancelled) std::printf("stopped early: %zu trials kept\n", run->trials.size());
    if (run->run_id >= 0)
      std::printf("stored as tuning run %lld in %s; `fusescope run %s --device cpu --tuned` "
                  "applies the best\n",
                  static_cast<long long>(run->run_id), flags.path.c_str(), flags.path.c_str());
  }
  return cancelled ? 130 : 0;
}

// The sweep as Ray tasks: scripts/ray_tune.py plans, runs and merges through this executable,
// given the flags of this command line (all but --executor).
int RunOnRay(const ParsedArgs& args, const std::vector<Flag>& declared) {
  std::string script = std::string(FUSESCOPE_SCRIPTS_DIR) + "/ray_tune.py";
  if (!std::filesystem::exists(script)) {
    const std::filesystem::path installed = std::filesystem::path(ExecutablePath()).parent_path() /
                                            "../share/fusescope/scripts/ray_tune.py";
    if (std::filesystem::exists(installed)) script = installed.string();
  }
  const char* python = std::getenv("FUSESCOPE_RAY_PYTHON");
  std::vector<std::string> command = {python && *python ? python : "python3", script};
  for (const std::string& positional : args.positional()) command.push_back(positional);
  for (const Flag& flag : declared) {
    if (flag.name == "--executor" || !args.Has(flag.name)) continue;
    if (flag.kind == FlagKind::kSwitch) {
      command.push_back(flag.name);
      continue;
    }
    for (const std::string& value : args.Values(flag.name)) {
      command.push_back(flag.name);
      command.push_back(value);
    }
  }
  command.push_back("--fusescope");
  command.push_back(ExecutablePath());
  std::vector<char*> argv;
  for (std::string& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execvp(argv[0], argv.data());
  return Fail("tune --executor ray: cannot start " + command[0] + " " + script + ": " +
              std::strerror(errno));
}

std::vector<Flag> TuneFlagDeclarations() {
  return {
      PassFlag(),
      Text("--kernel", "NAME", "a kernel to tune (default: the hottest covering --coverage)")
          .Repeats(),
      Text("--space", "SPACE",
           "knobs and their values: \"tile=0,16,32 vector=4,8,16 unroll=1,2,4 "
           "gemm=openblas,onednn,blis,mlir\"")
          .Default(tuning::SearchSpace::Default(AvailableGemmLibraries()).ToString()),
      Integer("--trials", "N", "trials per kernel (default: every candidate)").AtLeast(1),
      Text("--strategy", "grid|random|evolutionary", "the order candidates are tried in")
          .Default("grid"),
      Integer("--seed", "S", "the search's seed (random, evolutionary)").Default("1").AtLeast(0),
      Integer("--reps", "N", "timed runs per trial").Default("20").AtLeast(1),
      Integer("--warmup", "W", "untimed runs first").Default("3").AtLeast(0),
      Number("--coverage", "F", "without --kernel: tune the hottest kernels covering F of the time")
          .Default(0.9),
      InputsFlag(),
      Integer("--input-seed", "S", "the seed of generated inputs").Default("0").AtLeast(0),
      Number("--rtol", "X", "relative tolerance of the output check").Default(1e-5).AtLeast(0),
      Number("--atol", "Y", "absolute tolerance of the output check").Default(1e-5).AtLeast(0),
      Switch("--sgemm", "f32 GEMMs in single precision, as profile --sgemm"),
      Text("--plot", "OUT.svg", "draw each tuned kernel's trials and a heatmap of two knobs"),
      Switch("--no-save", "keep the run out of the recording"),
      Switch("--no-compose",
             "keep each kernel's best by itself (default: the bests are put together, one at "
             "a time, and kept only where the whole module gets faster)"),
      JsonFlag(),
      ProgressFlag(),
      Text("--executor", "local|ray",
           "where trials run: here, or as Ray tasks (scripts/ray_tune.py)")
          .Default("local"),
      Text("--address", "ADDR", "with --executor ray: the cluster (host:port or ray://host:10001)"),
      Integer("--max-retries", "N", "with --executor ray: resubmissions of a lost trial")
          .AtLeast(0),
      Number("--timeout", "S", "with --executor ray: seconds one trial may take"),
      Text("--worker-fusescope", "PATH", "with --executor ray: the fusescope the nodes run"),
      Switch("--list", "show the stored runs and the best configuration per kernel").Mode(),
      Switch("--plan", "print the trials a grid or random search would run, as JSON").Mode(),
      Switch("--trial", "run one configuration (--config) of one kernel (--kernel), as JSON")
          .Mode(),
      Text("--config", "CONFIG", "with --trial: the configuration, or `default`"),
      Text("--merge", "TRIALS.json", "store a run made elsewhere").Mode(),
  };
}

int RunTune(const ParsedArgs& args) {
  const std::string executor = args.Value("--executor").value_or("local");
  if (executor == "ray") return RunOnRay(args, TuneFlagDeclarations());
  if (executor != "local") return FailUsage(args, "--executor takes local or ray");
  for (const char* ray_only : {"--address", "--max-retries", "--timeout", "--worker-fusescope"})
    if (args.Has(ray_only)) return FailUsage(args, std::string(ray_only) + " needs --executor ray");
  auto flags = ReadFlags(args);
  if (!flags.ok()) return Fail("tune: " + flags.message());
  if (args.Has("--list")) return RunList(*flags);
  if (args.Has("--plan")) return RunPlan(*flags);
  if (args.Has("--trial")) return RunOneTrial(*flags, args);
  if (std::optional<std::string> merge = args.Value("--merge")) return RunMerge(*flags, *merge);
  return RunSearch(*flags);
}

const CommandRegistrar kRegistrar({
    .name = "tune",
    .summary = "search how each hot CPU kernel is built (tile, vector, unroll, GEMM library), "
               "measured in place beside the default build and judged against the interpreter; "
               "trials kept in the recording",
    .positionals = {{"RUN.fsdb", "a recording (its final snapshot, or the one after --pass)"}},
    .flags = TuneFlagDeclarations(),
    .run = RunTune,
});

}  // namespace
}  // namespace fusescope::app
