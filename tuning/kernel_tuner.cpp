#include "tuning/kernel_tuner.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>

#include "ir/module.h"
#include "profiler/statistics.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/output_judgement.h"
#include "tuning/search_strategy.h"

namespace fusescope::tuning {
namespace {

// " threads=N" where a library call's description ends a part with " on N thread(s)" (what
// GemmCallDescription and BlasConvolutionDescription write for a set count); "" otherwise.
std::string LibraryThreads(const std::string& note) {
  const size_t on = note.find(" on ");
  if (on == std::string::npos) return "";
  size_t end = on + 4;
  while (end < note.size() && note[end] >= '0' && note[end] <= '9') ++end;
  if (end == on + 4 || note.compare(end, 7, " thread") != 0) return "";
  return " threads=" + note.substr(on + 4, end - on - 4);
}

std::vector<runtime::Literal> Leaves(runtime::Literal value) {
  std::vector<runtime::Literal> leaves;
  if (value.is_tuple()) {
    leaves = std::move(value.elements());
  } else {
    leaves.push_back(std::move(value));
  }
  return leaves;
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

void Summarize(Trial& trial) {
  if (trial.samples_us.empty()) return;
  profiler::SampleSummary summary = profiler::Summarize(trial.samples_us);
  trial.median_us = summary.median;
  trial.min_us = summary.min;
  trial.max_us = summary.max;
}

bool Cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

// The last run's time of each kernel of `executable` (its records' order), added to
// `per_kernel_us`, and their sum to `module_us`.
void KeepTimes(const runtime::CpuExecutable& executable,
               std::vector<std::vector<double>>& per_kernel_us, std::vector<double>& module_us) {
  std::vector<double> seconds(per_kernel_us.size(), 0);
  for (const runtime::KernelTiming& timing : executable.last_timings())
    if (timing.kernel < seconds.size()) seconds[timing.kernel] += timing.seconds;
  double total = 0;
  for (size_t r = 0; r < seconds.size(); ++r) {
    per_kernel_us[r].push_back(seconds[r] * 1e6);
    total += seconds[r] * 1e6;
  }
  module_us.push_back(total);
}

}  // namespace

struct KernelTuner::Measured {
  std::vector<recording::KernelRecord> records;
  std::vector<std::vector<double>> samples_us;  // per record, per timed run
  std::vector<std::vector<double>> baseline_us;  // paired: the default build's, per its record
  std::vector<double> module_us;                 // per timed run, all kernels added up
  std::vector<double> module_baseline_us;        // paired: the default build's
  runtime::OutputVerdict verdict = runtime::OutputVerdict::kMatch;
  std::string verdict_explanation;
  double max_abs_error = 0;
};

KernelTuner::KernelTuner(const ir::Module& module, std::vector<runtime::Literal> inputs,
                         int64_t snapshot_index, TunerOptions options)
    : module_(module),
      inputs_(std::move(inputs)),
      snapshot_index_(snapshot_index),
      options_(std::move(options)),
      compilers_(options_.base.compilers ? options_.base.compilers
                                         : std::make_shared<runtime::KernelCompilerPool>()),
      host_(HostName()) {
  options_.base.compilers = compilers_;
  options_.base.snapshot = static_cast<int>(snapshot_index);
  options_.base.kernel_configs.clear();
  // A configuration whose kernel fails to compile must still run, so the trial can say so.
  options_.base.host_fallback_on_compile_failure = true;
  // Trials need the kernels, not the text of every lowering stage.
  options_.base.keep_lowering_stages = false;
}

KernelTuner::~KernelTuner() = default;

StatusOr<std::unique_ptr<KernelTuner>> KernelTuner::Create(const ir::Module& module,
                                                           std::vector<runtime::Literal> inputs,
                                                           int64_t snapshot_index,
                                                           TunerOptions options) {
  if (options.reps < 1) return Status::Error("tuning needs at least one timed run");
  if (options.warmup < 0) return Status::Error("warm-up runs cannot be negative");
  std::unique_ptr<KernelTuner> tuner(
      new KernelTuner(module, std::move(inputs), snapshot_index, std::move(options)));
  FS_RETURN_IF_ERROR(tuner->Prepare());
  return tuner;
}

Status KernelTuner::Prepare() {
  {
    runtime::Interpreter interpreter;
    auto reference = interpreter.Run(module_, inputs_);
    if (!reference.ok()) return Status::Error("the reference run failed: " + reference.message());
    reference_ = Leaves(std::move(reference).value());
  }
  {
    runtime::InterpreterOptions wide;
    wide.widen_floats_to_f64 = true;
    runtime::Interpreter interpreter(wide);
    auto exact = interpreter.Run(module_, inputs_);
    if (exact.ok()) exact_ = Leaves(std::move(exact).value());
  }
  // The default build is kept: every trial's paired runs use it.
  auto measured = Measure({}, nullptr, &default_build_);
  if (!measured.ok()) return measured.status();
  if (measured->verdict == runtime::OutputVerdict::kMismatch)
    return Status::Error("the default build computes a wrong output: " +
                         measured->verdict_explanation);
  double total = 0;
  for (size_t r = 0; r < measured->records.size(); ++r) {
    const recording::KernelRecord& record = measured->records[r];
    Trial trial;
    trial.kernel = record.kernel;
    trial.is_default = true;
    trial.ok = true;
    // The default build's own configuration, in the words a trial of its kind would use
    // (a library call's thread count, where the build set one, is in its note: "... on 1
    // thread").
    const KernelKind kind = KindOf(record);
    const std::string library = "gemm=" + record.backend + LibraryThreads(record.note);
    trial.config = kind == KernelKind::kLoops || kind == KernelKind::kConvolutionLoops
                       ? record.options
                   : kind == KernelKind::kGemm         ? library
                   : kind == KernelKind::kGemmEpilogue ? record.options + " " + library
                                                       : "";
    trial.samples_us = measured->samples_us[r];
    Summarize(trial);
    trial.verdict = runtime::OutputVerdictName(measured->verdict);
    trial.max_abs_error = measured->max_abs_error;
    trial.compile_seconds = record.compile_seconds;
    trial.worker = host_;
    KernelChoice choice{record.kernel, record.backend, KindOf(record), trial.median_us, 0};
    total += trial.median_us;
    kernels_.push_back(choice);
    default_trials_.push_back(std::move(trial));
  }
  for (KernelChoice& choice : kernels_) choice.share = total > 0 ? choice.median_us / total : 0;
  std::vector<size_t> order(kernels_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kernels_[a].median_us > kernels_[b].median_us;
  });
  std::vector<KernelChoice> kernels;
  std::vector<Trial> defaults;
  for (size_t i : order) {
    kernels.push_back(kernels_[i]);
    defaults.push_back(default_trials_[i]);
  }
  kernels_ = std::move(kernels);
  default_trials_ = std::move(defaults);
  return Status::Ok();
}

StatusOr<std::unique_ptr<runtime::CpuExecutable>> KernelTuner::Build(
    const std::map<std::string, runtime::KernelConfig>& configs) const {
  runtime::CpuExecutableOptions build = options_.base;
  build.kernel_configs = configs;
  return runtime::CpuExecutable::Compile(module_, build);
}

StatusOr<runtime::CpuExecutable*> KernelTuner::DefaultBuild() {
  if (!default_build_) {
    auto built = Build({});
    if (!built.ok()) return built.status();
    default_build_ = std::move(built).value();
  }
  return default_build_.get();
}

StatusOr<KernelTuner::Measured> KernelTuner::Measure(
    const std::map<std::string, runtime::KernelConfig>& configs, runtime::CpuExecutable* against,
    std::unique_ptr<runtime::CpuExecutable>* keep) {
  auto executable = Build(configs);
  if (!executable.ok()) return executable.status();
  Measured measured;
  measured.records = (*executable)->kernels();
  measured.samples_us.assign(measured.records.size(), {});
  const bool paired = against != nullptr;
  if (paired) measured.baseline_us.assign(against->kernels().size(), {});
  // The pair's order alternates (A B, B A, A B, ...): a library whose threads keep spinning
  // after its call slows whatever runs next, and with a fixed order that would always be the
  // other build, crediting the spinning one with the loss it causes.
  const auto run_against = [&](int64_t run) -> Status {
    auto baseline = against->Run(inputs_);
    if (!baseline.ok()) return baseline.status();
    if (run >= options_.warmup)
      KeepTimes(*against, measured.baseline_us, measured.module_baseline_us);
    return Status::Ok();
  };
  for (int64_t run = 0; run < options_.warmup + options_.reps; ++run) {
    if (Cancelled(options_.cancel)) return Status::Error("cancelled");
    const bool against_first = run % 2 == 0;
    if (paired && against_first) FS_RETURN_IF_ERROR(run_against(run));
    auto output = (*executable)->Run(inputs_);
    if (!output.ok()) return output.status();
    if (run >= options_.warmup) KeepTimes(**executable, measured.samples_us, measured.module_us);
    if (paired && !against_first) FS_RETURN_IF_ERROR(run_against(run));
    if (run == 0) {
      std::vector<runtime::OutputJudgement> judged = runtime::JudgeOutputs(
          Leaves(std::move(output).value()), reference_, exact_, options_.rtol, options_.atol);
      measured.verdict = runtime::WorstVerdict(judged);
      for (const runtime::OutputJudgement& judgement : judged) {
        measured.max_abs_error =
            std::max(measured.max_abs_error, judgement.to_reference.max_abs_error);
        if (judgement.verdict == measured.verdict && measured.verdict_explanation.empty())
          measured.verdict_explanation = judgement.Explanation();
      }
    }
  }
  if (keep) *keep = std::move(executable).value();
  return measured;
}

std::vector<std::string> KernelTuner::HottestKernels(double coverage) const {
  double total = 0;
  for (const KernelChoice& kernel : kernels_) total += kernel.median_us;
  std::vector<std::string> chosen;
  double covered = 0;
  for (const KernelChoice& kernel : kernels_) {
    if (total > 0 && covered >= coverage * total) break;
    covered += kernel.median_us;
    if (kernel.kind != KernelKind::kFixed) chosen.push_back(kernel.name);
  }
  return chosen;
}

StatusOr<KernelKind> KernelTuner::KindOfKernel(const std::string& kernel) const {
  for (const KernelChoice& choice : kernels_)
    if (choice.name == kernel) return choice.kind;
  std::string names;
  for (size_t i = 0; i < kernels_.size() && i < 12; ++i)
    names += (i ? ", " : "") + kernels_[i].name;
  if (kernels_.size() > 12) names += ", ...";
  return Status::Error("no kernel named '" + kernel + "' in this snapshot (kernels: " + names +
                       ")");
}

Trial KernelTuner::RunTrial(const std::string& kernel, const runtime::KernelConfig& config) {
  Trial trial;
  trial.kernel = kernel;
  trial.config = config.ToString();
  trial.worker = host_;
  auto defaults = DefaultBuild();
  if (!defaults.ok()) {
    trial.error = "the default build: " + defaults.message();
    return trial;
  }
  auto measured = Measure({{kernel, config}}, *defaults);
  if (!measured.ok()) {
    trial.error = measured.message();
    return trial;
  }
  for (size_t r = 0; r < measured->records.size(); ++r) {
    const recording::KernelRecord& record = measured->records[r];
    if (record.kernel != kernel) continue;
    trial.compile_seconds = record.compile_seconds;
    if (!record.failed_stage.empty()) {
      trial.error = "compiling failed at " + record.failed_stage + ": " + record.error;
      return trial;
    }
    // A library the build cannot use for this dot (oneDNN has no f64 GEMM) leaves it to the
    // interpreter: that is no measurement of the library.
    if (config.gemm && record.backend != runtime::GemmLibraryName(*config.gemm)) {
      trial.error =
          "gemm=" + std::string(runtime::GemmLibraryName(*config.gemm)) +
          " cannot run it: " + (record.note.empty() ? "it runs as " + record.backend : record.note);
      return trial;
    }
    trial.samples_us = measured->samples_us[r];
    Summarize(trial);
    const auto& records = (*defaults)->kernels();
    for (size_t d = 0; d < records.size(); ++d) {
      if (records[d].kernel == kernel && !measured->baseline_us[d].empty()) {
        trial.baseline_samples_us = measured->baseline_us[d];
        trial.baseline_us = profiler::Summarize(measured->baseline_us[d]).median;
        break;
      }
    }
    if (!measured->module_us.empty() && !measured->module_baseline_us.empty()) {
      trial.module_us = profiler::Summarize(measured->module_us).median;
      trial.module_baseline_us = profiler::Summarize(measured->module_baseline_us).median;
    }
    break;
  }
  if (trial.samples_us.empty()) {
    trial.error = "the build has no kernel named '" + kernel + "'";
    return trial;
  }
  trial.verdict = runtime::OutputVerdictName(measured->verdict);
  trial.max_abs_error = measured->max_abs_error;
  if (measured->verdict == runtime::OutputVerdict::kMismatch) {
    trial.error = "wrong output: " + measured->verdict_explanation;
    return trial;
  }
  trial.ok = true;
  return trial;
}

StatusOr<std::vector<KernelTuner::KernelSearch>> KernelTuner::Plan(
    const TuneRequest& request) const {
  std::vector<std::string> kernels =
      request.kernels.empty() ? HottestKernels(request.coverage) : request.kernels;
  std::vector<KernelSearch> searches;
  std::set<std::string> seen;
  for (const std::string& kernel : kernels) {
    if (!seen.insert(kernel).second) continue;
    auto kind = KindOfKernel(kernel);
    if (!kind.ok()) return kind.status();
    if (*kind == KernelKind::kFixed)
      return Status::Error("kernel '" + kernel + "' runs on the host: nothing to tune");
    // The default build's own configuration is measured once, as the default trial.
    std::string default_config;
    for (const Trial& trial : default_trials_)
      if (trial.kernel == kernel) default_config = trial.config;
    std::vector<Candidate> candidates;
    for (Candidate& candidate : CandidatesFor(request.space, *kind))
      if (candidate.config.ToString() != default_config) candidates.push_back(std::move(candidate));
    auto strategy =
        SearchStrategy::Create(request.strategy, std::move(candidates), request.trials, request.seed);
    if (!strategy.ok()) return strategy.status();
    searches.push_back({kernel, std::move(strategy).value()});
  }
  return searches;
}

StatusOr<TuningRun> KernelTuner::Tune(const TuneRequest& request) {
  TuningRun run;
  run.snapshot_index = snapshot_index_;
  run.strategy = request.strategy;
  run.space = request.space.ToString();
  run.executor = "local";
  auto planned = Plan(request);
  if (!planned.ok()) return planned.status();
  std::vector<KernelSearch>& searches = *planned;
  // The plan's size, for progress.
  int64_t total = 0;
  for (const KernelSearch& search : searches) {
    const int64_t count = static_cast<int64_t>(search.strategy->candidates().size());
    total += request.trials > 0 ? std::min(request.trials, count) : count;
  }
  for (const KernelSearch& search : searches) {
    for (const Trial& trial : default_trials_)
      if (trial.kernel == search.kernel) run.trials.push_back(trial);
  }
  int64_t done = 0;
  for (KernelSearch& search : searches) {
    while (std::optional<size_t> next = search.strategy->Next()) {
      if (Cancelled(options_.cancel)) return run;
      Trial trial = RunTrial(search.kernel, search.strategy->candidates()[*next].config);
      if (Cancelled(options_.cancel) && !trial.ok && trial.error == "cancelled") return run;
      search.strategy->Report(*next, trial.ok ? std::optional<double>(trial.median_us)
                                              : std::nullopt);
      ++done;
      if (request.on_trial) request.on_trial(trial, done, total);
      run.trials.push_back(std::move(trial));
    }
  }
  if (request.compose) Compose(run, request.on_step);
  return run;
}

void KernelTuner::Compose(
    TuningRun& run,
    const std::function<void(const CompositionStep&, int64_t done, int64_t total)>& on_step) {
  run.composed = false;
  run.composition.clear();
  run.module_speedup = 1;
  // Each kernel's win, the largest gain (its paired baseline minus its median) first.
  std::vector<const Trial*> wins;
  for (const auto& [kernel, best] : BestPerKernel(run.trials))
    if (best.best && best.best->IsWin()) wins.push_back(best.best);
  const auto gain = [](const Trial* trial) { return trial->baseline_us - trial->median_us; };
  std::stable_sort(wins.begin(), wins.end(),
                   [&](const Trial* a, const Trial* b) { return gain(a) > gain(b); });
  std::map<std::string, runtime::KernelConfig> kept;
  std::unique_ptr<runtime::CpuExecutable> kept_build;
  const auto current = [&]() -> StatusOr<runtime::CpuExecutable*> {
    if (kept.empty()) return DefaultBuild();
    return kept_build.get();
  };
  int64_t done = 0;
  for (const Trial* win : wins) {
    if (Cancelled(options_.cancel)) return;
    CompositionStep step;
    step.kernel = win->kernel;
    step.config = win->config;
    step.kernel_gain_us = gain(win);
    auto config = runtime::KernelConfig::Parse(win->config);
    auto before = current();
    if (!config.ok()) {
      step.error = config.message();
    } else if (!before.ok()) {
      step.error = "the build of the kept configurations: " + before.message();
    } else {
      std::map<std::string, runtime::KernelConfig> with = kept;
      with[win->kernel] = *config;
      std::unique_ptr<runtime::CpuExecutable> built;
      auto measured = Measure(with, *before, &built);
      if (!measured.ok()) {
        if (Cancelled(options_.cancel)) return;
        step.error = measured.message();
      } else if (measured->verdict == runtime::OutputVerdict::kMismatch) {
        step.error = "wrong output: " + measured->verdict_explanation;
      } else {
        step.ok = true;
        step.module_us = profiler::Summarize(measured->module_us).median;
        step.module_before_us = profiler::Summarize(measured->module_baseline_us).median;
        step.pairs = static_cast<int64_t>(measured->module_us.size());
        step.pairs_faster = CountFaster(measured->module_us, measured->module_baseline_us);
        // No smallest gain here: a kernel of 5 % of the module that got 30 % faster gains the
        // module 1.5 %, a real gain the sign test can tell from noise.
        step.kept = step.Relative() < 1 && PairsShowFaster(step.pairs_faster, step.pairs);
        if (step.kept) {
          kept = std::move(with);
          kept_build = std::move(built);
        }
      }
    }
    ++done;
    if (on_step) on_step(step, done, static_cast<int64_t>(wins.size()));
    run.composition.push_back(std::move(step));
  }
  // The kept build against the default, paired, for the figure a user asks first.
  if (!kept.empty()) {
    auto defaults = DefaultBuild();
    if (defaults.ok()) {
      auto measured = Measure(kept, *defaults);
      if (!measured.ok() && Cancelled(options_.cancel)) return;
      if (measured.ok() && !measured->module_us.empty()) {
        const double with = profiler::Summarize(measured->module_us).median;
        const double without = profiler::Summarize(measured->module_baseline_us).median;
        if (with > 0) run.module_speedup = without / with;
        // Kept one at a time, the set can still lose to the default build (one library's
        // threads spinning after its calls slow every other call of the process, 0.62x on a
        // ResNet block): then none of them is kept, and `run --tuned` keeps the defaults.
        const int64_t faster = CountFaster(measured->module_us, measured->module_baseline_us);
        if (!(with < without &&
              PairsShowFaster(faster, static_cast<int64_t>(measured->module_us.size())))) {
          for (CompositionStep& step : run.composition) step.kept = false;
        }
      }
    }
  }
  run.composed = true;
}

}  // namespace fusescope::tuning
