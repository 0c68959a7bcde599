// The tuner on real compiled kernels (MLIR JIT, OpenBLAS): search spaces, strategies, trials
// judged against the interpreter, and runs kept in a recording.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "ir/hlo_parser.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "resources/samples.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/seeded_inputs.h"
#include "tuning/kernel_tuner.h"
#include "tuning/search_strategy.h"
#include "tuning/tuning_json.h"
#include "tuning/tuning_store.h"

namespace fusescope::tuning {
namespace {

namespace fs = std::filesystem;

TEST(SearchSpaceTest, ParsesKnobsAndRefusesWhatIsWrong) {
  auto space = SearchSpace::Parse("tile=8,16,8 vector=4 gemm=openblas,mlir");
  ASSERT_TRUE(space.ok()) << space.message();
  EXPECT_EQ(space->ToString(), "tile=8,16 vector=4 gemm=openblas,mlir");
  EXPECT_EQ(space->Find("tile")->values.size(), 2u);
  EXPECT_EQ(space->Find("unroll"), nullptr);

  EXPECT_NE(SearchSpace::Parse("tiles=8").message().find("unknown knob 'tiles'"), std::string::npos);
  EXPECT_NE(SearchSpace::Parse("tile=8,,16").message().find("empty value"), std::string::npos);
  EXPECT_NE(SearchSpace::Parse("tile=-1").message().find("from 0 to 4096"), std::string::npos);
  EXPECT_NE(SearchSpace::Parse("unroll=65").message().find("from 0 to 64"), std::string::npos);
  EXPECT_NE(SearchSpace::Parse("gemm=mkl").message().find("gemm=mkl"), std::string::npos);
  EXPECT_NE(SearchSpace::Parse("tile=8 tile=16").message().find("twice"), std::string::npos);
  EXPECT_NE(SearchSpace::Parse("tile").message().find("KNOB=V1"), std::string::npos);
  EXPECT_FALSE(SearchSpace::Parse("").ok());
}

TEST(SearchSpaceTest, EachKindOfKernelGetsTheKnobsThatShapeIt) {
  auto space = SearchSpace::Parse("tile=0,16 vector=4,8 unroll=1,2 gemm=openblas,mlir");
  ASSERT_TRUE(space.ok());
  // Loops: tile x vector x unroll, no library; unroll=1 and unroll=0 print alike.
  std::vector<Candidate> loops = CandidatesFor(*space, KernelKind::kLoops);
  ASSERT_EQ(loops.size(), 8u);
  EXPECT_EQ(loops.front().config.ToString(), "tile=0 vector=4");
  EXPECT_EQ(loops.back().config.ToString(), "tile=16 vector=8 unroll=2");
  for (const Candidate& candidate : loops) EXPECT_FALSE(candidate.config.gemm.has_value());
  // A library GEMM ignores the lowering unless the library is our MLIR matmul: 1 + 8.
  std::vector<Candidate> gemm = CandidatesFor(*space, KernelKind::kGemm);
  ASSERT_EQ(gemm.size(), 9u);
  EXPECT_EQ(gemm.front().config.ToString(), "gemm=openblas");
  EXPECT_FALSE(gemm.front().config.lowering.has_value());
  // With an epilogue, the lowering shapes the epilogue whatever the library: 2 x 8.
  EXPECT_EQ(CandidatesFor(*space, KernelKind::kGemmEpilogue).size(), 16u);
  EXPECT_TRUE(CandidatesFor(*space, KernelKind::kFixed).empty());
  // A small convolution of our own: our loop nest's configurations, then each library's.
  std::vector<Candidate> convolution = CandidatesFor(*space, KernelKind::kConvolutionLoops);
  ASSERT_EQ(convolution.size(), 8u + 9u);
  EXPECT_FALSE(convolution.front().config.gemm.has_value());
  EXPECT_EQ(convolution[8].config.ToString(), "gemm=openblas");
  // A library's thread count is a knob of library calls only: not of loops, not of our matmul.
  auto threads = SearchSpace::Parse("gemm=openblas,mlir threads=0,1 tile=0");
  ASSERT_TRUE(threads.ok()) << threads.message();
  std::vector<std::string> configs;
  for (const Candidate& c : CandidatesFor(*threads, KernelKind::kGemm))
    configs.push_back(c.config.ToString());
  EXPECT_EQ(configs, (std::vector<std::string>{"gemm=openblas", "gemm=openblas threads=1",
                                               "tile=0 vector=8 gemm=mlir"}));
  EXPECT_EQ(CandidatesFor(*threads, KernelKind::kLoops).size(), 1u);
  EXPECT_NE(SearchSpace::Parse("threads=2000").message().find("from 0 to 1024"), std::string::npos);
  // Every configuration reads back as itself.
  for (const Candidate& candidate : gemm) {
    auto parsed = runtime::KernelConfig::Parse(candidate.config.ToString());
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    EXPECT_EQ(*parsed, candidate.config) << candidate.config.ToString();
  }
}

std::vector<size_t> Drain(SearchStrategy& strategy, const std::vector<double>& times) {
  std::vector<size_t> order;
  while (std::optional<size_t> next = strategy.Next()) {
    order.push_back(*next);
    strategy.Report(*next, times[*next]);
  }
  return order;
}

TEST(SearchStrategyTest, OrdersAreCompleteWithinBudgetAndRepeatable) {
  auto space = SearchSpace::Parse("tile=0,8,16,32 vector=0,4,8,16 unroll=1,2,4");
  ASSERT_TRUE(space.ok());
  std::vector<Candidate> candidates = CandidatesFor(*space, KernelKind::kLoops);
  ASSERT_EQ(candidates.size(), 48u);
  // A made-up landscape with one best point, so that evolution has somewhere to go.
  std::vector<double> times;
  for (const Candidate& c : candidates)
    times.push_back(10.0 + std::abs(c.point[0] - 2) + std::abs(c.point[1] - 3) +
                    std::abs(c.point[2] - 1));

  auto grid = SearchStrategy::Create("grid", candidates, 0, 1);
  ASSERT_TRUE(grid.ok());
  std::vector<size_t> all = Drain(**grid, times);
  ASSERT_EQ(all.size(), 48u);
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], i);

  for (const char* name : {"random", "evolutionary"}) {
    auto a = SearchStrategy::Create(name, candidates, 20, 7);
    auto b = SearchStrategy::Create(name, candidates, 20, 7);
    auto c = SearchStrategy::Create(name, candidates, 20, 8);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    std::vector<size_t> first = Drain(**a, times);
    EXPECT_EQ(first.size(), 20u) << name;
    EXPECT_EQ(std::set<size_t>(first.begin(), first.end()).size(), 20u) << name << ": a repeat";
    EXPECT_EQ(Drain(**b, times), first) << name << ": same seed, another order";
    EXPECT_NE(Drain(**c, times), first) << name << ": the seed changes nothing";
  }
  EXPECT_FALSE(SearchStrategy::Create("annealing", candidates, 4, 1).ok());
}

// A configuration that speeds its own kernel up while the module gets slower (a library whose
// threads keep spinning after its call) is never the best.
TEST(BestPerKernelTest, ATrialThatSlowsTheModuleIsNotTheBest) {
  Trial base;
  base.kernel = "dot.1";
  base.is_default = base.ok = true;
  base.median_us = 600;
  Trial spinning = base;
  spinning.is_default = false;
  spinning.config = "gemm=onednn";
  spinning.median_us = 500;
  spinning.baseline_us = 600;
  spinning.module_us = 19500;
  spinning.module_baseline_us = 7500;
  Trial modest = spinning;
  modest.config = "gemm=blis";
  modest.median_us = 550;
  modest.module_us = 7480;
  EXPECT_TRUE(spinning.SlowsTheModule());
  EXPECT_FALSE(modest.SlowsTheModule());
  const std::vector<Trial> trials = {base, spinning, modest};
  auto best = BestPerKernel(trials);
  ASSERT_NE(best["dot.1"].best, nullptr);
  EXPECT_EQ(best["dot.1"].best->config, "gemm=blis");
  // Noise within 5 % of the module, or a loss smaller than the kernel's gain, is no slowdown.
  modest.module_us = 7700;
  EXPECT_FALSE(modest.SlowsTheModule());
}

// The sign test: with nothing changed each pair is a coin toss; 15 of 20 is beyond chance at
// 5 %, 14 is not, and no number of 4 pairs is.
TEST(PairsShowFasterTest, CountsAgainstCoinTosses) {
  EXPECT_TRUE(PairsShowFaster(15, 20));
  EXPECT_FALSE(PairsShowFaster(14, 20));
  EXPECT_FALSE(PairsShowFaster(4, 4));
  EXPECT_TRUE(PairsShowFaster(5, 5));
  EXPECT_TRUE(PairsShowFaster(61, 100));
  EXPECT_FALSE(PairsShowFaster(57, 100));
  EXPECT_FALSE(PairsShowFaster(0, 0));
  EXPECT_EQ(CountFaster({1, 2, 3}, {2, 2, 4}), 2);
}

// A win is beyond noise twice over: the paired medians differ by kMinGain or more, and the
// trial was faster in enough of its pairs.
TEST(BestPerKernelTest, NoiseIsNoWin) {
  Trial base;
  base.kernel = "fusion.2";
  base.is_default = base.ok = true;
  base.median_us = 100;
  Trial trial = base;
  trial.is_default = false;
  trial.config = "tile=8 vector=4";
  trial.baseline_samples_us.assign(20, 100);
  trial.baseline_us = 100;
  // 1 % faster in every pair: below the smallest gain that counts.
  trial.samples_us.assign(20, 99);
  trial.median_us = 99;
  EXPECT_FALSE(trial.IsWin());
  const std::vector<Trial> noise = {base, trial};
  auto noise_best = BestPerKernel(noise);
  ASSERT_NE(noise_best["fusion.2"].best, nullptr);
  EXPECT_TRUE(noise_best["fusion.2"].best->is_default) << "the default stays the best";
  EXPECT_EQ(noise_best["fusion.2"].Speedup(), 1);
  // 10 % faster by the medians, but faster in only 12 of 20 pairs.
  trial.samples_us.assign(12, 90);
  trial.samples_us.resize(20, 101);
  trial.median_us = 90;
  EXPECT_FALSE(trial.IsWin());
  // Faster in 16 of 20.
  trial.samples_us.assign(16, 90);
  trial.samples_us.resize(20, 101);
  EXPECT_TRUE(trial.IsWin());
  const std::vector<Trial> won = {base, trial};
  auto best = BestPerKernel(won);
  ASSERT_NE(best["fusion.2"].best, nullptr);
  EXPECT_EQ(best["fusion.2"].best->config, "tile=8 vector=4");
  EXPECT_NEAR(best["fusion.2"].Speedup(), 100.0 / 90.0, 1e-12);
}

// The MLP sample compiled by our pipeline, its final snapshot, seeded inputs.
struct Compiled {
  recording::Recording recording;
  std::unique_ptr<ir::Module> module;
  std::vector<runtime::Literal> inputs;
};

Compiled CompileMlp() {
  Compiled compiled;
  passes::PipelineOptions options;
  options.target = "cpu";
  auto recording = recording::CompileAndRecord(resources::FindSample("mlp").text, options, "mlp.hlo");
  EXPECT_TRUE(recording.ok()) << recording.message();
  compiled.recording = std::move(recording).value();
  auto module = compiled.recording.snapshots.back().ToModule();
  EXPECT_TRUE(module.ok()) << module.message();
  compiled.module = std::move(module).value();
  auto inputs = runtime::SeededInputs(*compiled.module->entry(), 3);
  EXPECT_TRUE(inputs.ok()) << inputs.message();
  compiled.inputs = std::move(inputs).value();
  return compiled;
}

TEST(KernelTunerTest, TrialsCompileJudgeAndTimeOneKernelInPlace) {
  if (!runtime::KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR kernel compiler";
  Compiled mlp = CompileMlp();
  TunerOptions options;
  options.reps = 3;
  options.warmup = 1;
  auto tuner = KernelTuner::Create(*mlp.module, mlp.inputs,
                                   static_cast<int64_t>(mlp.recording.snapshots.size()) - 1,
                                   options);
  ASSERT_TRUE(tuner.ok()) << tuner.message();
  ASSERT_FALSE((*tuner)->kernels().empty());
  // Slowest first, shares adding up to one.
  double shares = 0;
  for (size_t i = 0; i < (*tuner)->kernels().size(); ++i) {
    shares += (*tuner)->kernels()[i].share;
    if (i > 0) {
      EXPECT_GE((*tuner)->kernels()[i - 1].median_us, (*tuner)->kernels()[i].median_us);
    }
  }
  EXPECT_NEAR(shares, 1.0, 1e-9);
  std::string loop_kernel;
  for (const KernelChoice& kernel : (*tuner)->kernels())
    if (kernel.kind == KernelKind::kLoops && loop_kernel.empty()) loop_kernel = kernel.name;
  ASSERT_FALSE(loop_kernel.empty());

  auto config = runtime::KernelConfig::Parse("tile=16 vector=4 unroll=2");
  ASSERT_TRUE(config.ok());
  Trial trial = (*tuner)->RunTrial(loop_kernel, *config);
  EXPECT_TRUE(trial.ok) << trial.error;
  EXPECT_EQ(trial.samples_us.size(), 3u);
  EXPECT_GT(trial.median_us, 0);
  EXPECT_LE(trial.min_us, trial.median_us);
  EXPECT_LE(trial.median_us, trial.max_us);
  EXPECT_GT(trial.baseline_us, 0) << "the default build ran beside the trial";
  EXPECT_NE(trial.verdict, "MISMATCH");
  EXPECT_GT(trial.compile_seconds, 0) << "the changed kernel compiled again";

  Trial missing = (*tuner)->RunTrial("no_such_fusion", *config);
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.error.find("no kernel named 'no_such_fusion'"), std::string::npos)
      << missing.error;
  EXPECT_FALSE((*tuner)->KindOfKernel("no_such_fusion").ok());
}

// A 3x3 same-padded NHWC convolution of one 8x8 image, `features` features in and out.
std::string ConvolutionModule(int features) {
  const std::string f = std::to_string(features);
  return "HloModule m\nENTRY e {\n a = f32[1,8,8," + f + "] parameter(0)\n b = f32[3,3," + f + "," +
         f + "] parameter(1)\n ROOT c = f32[1,8,8," + f +
         "] convolution(a, b), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n}\n";
}

// Two timed runs a trial after one warm-up, f32 GEMMs in single precision.
TunerOptions QuickSinglePrecision() {
  TunerOptions options;
  options.reps = 2;
  options.warmup = 1;
  options.base.f32_dot_precision = runtime::BlasPrecision::kNative;
  return options;
}

// The configurations a search of `kernel` over `space` plans to try ({"error: ..."} when it
// plans none).
std::set<std::string> PlannedConfigs(const KernelTuner& tuner, const std::string& kernel,
                                     const std::string& space) {
  auto parsed = SearchSpace::Parse(space);
  if (!parsed.ok()) return {"error: " + parsed.message()};
  TuneRequest request;
  request.kernels = {kernel};
  request.space = *parsed;
  auto searches = tuner.Plan(request);
  if (!searches.ok()) return {"error: " + searches.message()};
  if (searches->size() != 1) return {"error: " + std::to_string(searches->size()) + " searches"};
  std::set<std::string> configs;
  for (const Candidate& candidate : (*searches)[0].strategy->candidates())
    configs.insert(candidate.config.ToString());
  return configs;
}

// A convolution small enough to compile as our own loop nest is tuned as one (tile, vector)
// and may go back to a library: naming one in its configuration runs it there.
TEST(KernelTunerTest, ASmallConvolutionOfOurOwnMayGoBackToALibrary) {
  if (!runtime::KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR kernel compiler";
  auto module = ir::ParseHloModule(ConvolutionModule(4));
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = runtime::SeededInputs(*(*module)->entry(), 3);
  ASSERT_TRUE(inputs.ok());
  TunerOptions options = QuickSinglePrecision();
  auto tuner = KernelTuner::Create(**module, *inputs, 0, options);
  ASSERT_TRUE(tuner.ok()) << tuner.message();
  ASSERT_EQ((*tuner)->kernels().size(), 1u);
  EXPECT_EQ((*tuner)->kernels()[0].backend, "mlir-cpu");
  ASSERT_EQ((*tuner)->KindOfKernel("c").value(), KernelKind::kConvolutionLoops);
  const std::string loops = (*tuner)->default_trials()[0].config;
  EXPECT_EQ(loops, runtime::LoweringOptions{}.ToString());

  // The default's own loop nest (tile=0 vector=8) is the default trial, not a candidate.
  EXPECT_EQ(PlannedConfigs(**tuner, "c", "tile=0 vector=4,8 gemm=openblas,onednn"),
            (std::set<std::string>{"tile=0 vector=4", "gemm=openblas", "gemm=onednn"}));

  auto library = runtime::KernelConfig::Parse("gemm=openblas");
  ASSERT_TRUE(library.ok());
  Trial trial = (*tuner)->RunTrial("c", *library);
  EXPECT_TRUE(trial.ok) << trial.error;
  EXPECT_GT(trial.median_us, 0);
  // That configuration runs the convolution in the library.
  runtime::CpuExecutableOptions build = options.base;
  build.kernel_configs["c"] = *library;
  auto executable = runtime::CpuExecutable::Compile(**module, build);
  ASSERT_TRUE(executable.ok()) << executable.message();
  ASSERT_EQ((*executable)->kernels().size(), 1u);
  EXPECT_EQ((*executable)->kernels()[0].backend, "openblas");
}

// A default build that sets a library's thread count (oneDNN's convolution on one thread)
// says so in its default trial, so that the library's own count is a candidate of its own.
TEST(KernelTunerTest, TheDefaultTrialCarriesTheThreadCountTheBuildSet) {
  if (!runtime::KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR kernel compiler";
  auto module = ir::ParseHloModule(ConvolutionModule(16));
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = runtime::SeededInputs(*(*module)->entry(), 3);
  ASSERT_TRUE(inputs.ok());
  TunerOptions options = QuickSinglePrecision();
  // A library's convolution, not the loop nest a convolution this small compiles to.
  options.base.emitted_convolution_max_macs = 0;
  auto tuner = KernelTuner::Create(**module, *inputs, 0, options);
  ASSERT_TRUE(tuner.ok()) << tuner.message();
  ASSERT_EQ((*tuner)->default_trials().size(), 1u);
  const Trial& base = (*tuner)->default_trials()[0];
  if (base.config != "gemm=onednn threads=1")
    GTEST_SKIP() << "the convolution is not oneDNN's own here: " << base.config;
  EXPECT_EQ(PlannedConfigs(**tuner, "c", "gemm=onednn,openblas threads=0,1"),
            (std::set<std::string>{"gemm=onednn", "gemm=openblas", "gemm=openblas threads=1"}));
}

TEST(KernelTunerTest, ARunIsKeptInTheRecordingAndItsBestIsFound) {
  if (!runtime::KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR kernel compiler";
  Compiled mlp = CompileMlp();
  const int64_t snapshot = static_cast<int64_t>(mlp.recording.snapshots.size()) - 1;
  TunerOptions options;
  options.reps = 2;
  options.warmup = 0;
  auto tuner = KernelTuner::Create(*mlp.module, mlp.inputs, snapshot, options);
  ASSERT_TRUE(tuner.ok()) << tuner.message();
  TuneRequest request;
  auto space = SearchSpace::Parse("tile=0,8 vector=4 gemm=openblas");
  ASSERT_TRUE(space.ok());
  request.space = *space;
  request.coverage = 1.0;
  int64_t reported = 0;
  request.on_trial = [&](const Trial&, int64_t done, int64_t total) {
    ++reported;
    EXPECT_LE(done, total);
  };
  auto run = (*tuner)->Tune(request);
  ASSERT_TRUE(run.ok()) << run.message();
  std::vector<std::string> tuned = (*tuner)->HottestKernels(1.0);
  ASSERT_FALSE(tuned.empty());
  // Each kernel: its default trial, then 2 (loops) or 1 (library) candidates.
  int64_t defaults = 0;
  for (const Trial& trial : run->trials) defaults += trial.is_default;
  EXPECT_EQ(defaults, static_cast<int64_t>(tuned.size()));
  EXPECT_EQ(reported, static_cast<int64_t>(run->trials.size()) - defaults);

  const fs::path dir = fs::path(FUSESCOPE_BINARY_DIR) / "kernel_tuner_test";
  fs::create_directories(dir);
  const std::string path = (dir / "mlp.fsdb").string();
  fs::remove(path);
  ASSERT_TRUE(recording::SaveRecording(mlp.recording, path).ok());
  auto none = LoadTuningRuns(path);
  ASSERT_TRUE(none.ok()) << none.message();
  EXPECT_TRUE(none->empty());
  auto id = AddTuningRun(path, *run);
  ASSERT_TRUE(id.ok()) << id.message();
  auto loaded = LoadTuningRuns(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  ASSERT_EQ(loaded->size(), 1u);
  const TuningRun& back = loaded->front();
  EXPECT_EQ(back.run_id, *id);
  ASSERT_EQ(back.trials.size(), run->trials.size());
  for (size_t i = 0; i < back.trials.size(); ++i) {
    EXPECT_EQ(back.trials[i].kernel, run->trials[i].kernel);
    EXPECT_EQ(back.trials[i].config, run->trials[i].config);
    EXPECT_EQ(back.trials[i].samples_us.size(), run->trials[i].samples_us.size());
    EXPECT_EQ(back.trials[i].ok, run->trials[i].ok);
  }
  // A finished search is composed. Two timed runs per trial can never show a win beyond
  // chance (PairsShowFaster(2, 2) is false), so nothing is kept and every kernel keeps its
  // default, however its trials' medians fell.
  EXPECT_TRUE(back.composed);
  EXPECT_TRUE(back.composition.empty());
  auto best = BestConfigs(path, snapshot);
  ASSERT_TRUE(best.ok()) << best.message();
  for (const std::string& kernel : tuned) {
    ASSERT_TRUE(best->count(kernel)) << kernel;
    for (const Trial& trial : back.trials) {
      if (trial.kernel != kernel || !trial.ok || trial.is_default) continue;
      EXPECT_GT(trial.baseline_us, 0);
      EXPECT_EQ(trial.baseline_samples_us.size(), trial.samples_us.size());
      EXPECT_FALSE(trial.IsWin());
    }
    EXPECT_EQ(best->at(kernel).config_text, "default");
    EXPECT_EQ(best->at(kernel).relative, 1);
    EXPECT_GT(best->at(kernel).default_median_us, 0);
  }
  EXPECT_TRUE(BestConfigs(path, snapshot + 100)->empty());

  // A run of a snapshot the recording does not have is refused, and nothing is written.
  TuningRun wrong = *run;
  wrong.snapshot_index = 999;
  EXPECT_FALSE(AddTuningRun(path, wrong).ok());
  EXPECT_EQ(LoadTuningRuns(path)->size(), 1u);

  // The JSON a remote sweep sends back reads as the same run.
  JsonWriter json;
  WriteRunJson(json, back);
  auto parsed = ParseRunJson(json.str(), "run.json");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(parsed->trials.size(), back.trials.size());
  EXPECT_EQ(parsed->snapshot_index, snapshot);
  auto bad = ParseRunJson("{\"snapshot\": 1, \"trials\": [\n {\"config\": \"tile=8\"}]}", "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "t.json:2:2: trial 0 has no kernel");
  // A number beyond any snapshot (or beyond a double) is no snapshot.
  auto huge = ParseRunJson("{\"snapshot\": 1e400, \"trials\": []}", "h.json");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.message().find("names no snapshot"), std::string::npos) << huge.message();
}

// The bests put together for real: a made-up win of one loop kernel (half its default's
// time in every pair) is tried in the whole module, paired with the default build, and kept
// only by the rule; what `run --tuned` applies follows the composition, not the trial.
TEST(KernelTunerTest, ComposingKeepsOnlyWhatSpeedsTheWholeModuleUp) {
  if (!runtime::KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR kernel compiler";
  Compiled mlp = CompileMlp();
  const int64_t snapshot = static_cast<int64_t>(mlp.recording.snapshots.size()) - 1;
  TunerOptions options;
  options.reps = 5;
  options.warmup = 1;
  auto tuner = KernelTuner::Create(*mlp.module, mlp.inputs, snapshot, options);
  ASSERT_TRUE(tuner.ok()) << tuner.message();
  TuningRun run;
  run.snapshot_index = snapshot;
  run.strategy = "grid";
  run.space = "tile=8 vector=4";
  run.executor = "local";
  std::string kernel;
  for (const Trial& trial : (*tuner)->default_trials()) {
    run.trials.push_back(trial);
    if (kernel.empty() && (*tuner)->KindOfKernel(trial.kernel).value() == KernelKind::kLoops)
      kernel = trial.kernel;
  }
  ASSERT_FALSE(kernel.empty());
  Trial win;
  win.kernel = kernel;
  win.config = "tile=8 vector=4";
  win.ok = true;
  win.baseline_us = 10;
  win.baseline_samples_us.assign(5, 10);
  win.samples_us.assign(5, 5);
  win.median_us = win.min_us = win.max_us = 5;
  ASSERT_TRUE(win.IsWin());
  run.trials.push_back(win);
  std::vector<int64_t> heard;
  (*tuner)->Compose(run, [&](const CompositionStep&, int64_t done, int64_t total) {
    heard.push_back(done);
    EXPECT_EQ(total, 1);
  });
  EXPECT_EQ(heard, std::vector<int64_t>{1});
  ASSERT_TRUE(run.composed);
  ASSERT_EQ(run.composition.size(), 1u);
  const CompositionStep& step = run.composition[0];
  ASSERT_TRUE(step.ok) << step.error;
  EXPECT_EQ(step.kernel, kernel);
  EXPECT_EQ(step.config, "tile=8 vector=4");
  EXPECT_DOUBLE_EQ(step.kernel_gain_us, 5);
  EXPECT_EQ(step.pairs, 5);
  EXPECT_GT(step.module_us, 0);
  EXPECT_GT(step.module_before_us, 0);
  const bool kept_alone = step.Relative() < 1 && PairsShowFaster(step.pairs_faster, 5);
  if (!kept_alone) {
    EXPECT_FALSE(step.kept);
    EXPECT_EQ(run.module_speedup, 1);
  }
  // Kept alone, it is dropped again when the kept set, timed against the default build once
  // more, is not faster there.
  if (step.kept) {
    EXPECT_TRUE(kept_alone);
    EXPECT_GT(run.module_speedup, 1);
  }
  EXPECT_GT(run.module_speedup, 0);

  const fs::path dir = fs::path(FUSESCOPE_BINARY_DIR) / "kernel_tuner_test";
  fs::create_directories(dir);
  const std::string path = (dir / "composed.fsdb").string();
  fs::remove(path);
  ASSERT_TRUE(recording::SaveRecording(mlp.recording, path).ok());
  ASSERT_TRUE(AddTuningRun(path, run).ok());
  auto back = LoadTuningRuns(path);
  ASSERT_TRUE(back.ok()) << back.message();
  ASSERT_EQ(back->size(), 1u);
  ASSERT_EQ(back->front().composition.size(), 1u);
  EXPECT_EQ(back->front().composition[0].kept, step.kept);
  EXPECT_EQ(back->front().composition[0].pairs_faster, step.pairs_faster);
  EXPECT_DOUBLE_EQ(back->front().module_speedup, run.module_speedup);
  EXPECT_EQ(back->front().trials.back().baseline_samples_us, win.baseline_samples_us);
  auto best = BestConfigs(path, snapshot);
  ASSERT_TRUE(best.ok()) << best.message();
  EXPECT_EQ(best->at(kernel).config_text, step.kept ? "tile=8 vector=4" : "default");

  // The same win, dropped or kept by a stored composition, decides what is applied: the
  // latest run that tuned the kernel.
  TuningRun dropped = run;
  dropped.composition[0].kept = false;
  ASSERT_TRUE(AddTuningRun(path, dropped).ok());
  EXPECT_EQ(BestConfigs(path, snapshot)->at(kernel).config_text, "default");
  TuningRun kept = run;
  kept.composition[0].kept = true;
  ASSERT_TRUE(AddTuningRun(path, kept).ok());
  EXPECT_EQ(BestConfigs(path, snapshot)->at(kernel).config_text, "tile=8 vector=4");
  EXPECT_DOUBLE_EQ(BestConfigs(path, snapshot)->at(kernel).relative, 0.5);
  // A run that was not composed (a cancelled search) applies each kernel's win by itself.
  TuningRun cancelled = run;
  cancelled.composed = false;
  cancelled.composition.clear();
  ASSERT_TRUE(AddTuningRun(path, dropped).ok());
  ASSERT_TRUE(AddTuningRun(path, cancelled).ok());
  EXPECT_EQ(BestConfigs(path, snapshot)->at(kernel).config_text, "tile=8 vector=4");

  // A kept set that fresh processes do not show faster is dropped from its stored run: the
  // step stays, not kept, and `run --tuned` applies the default again.
  auto last_kept = AddTuningRun(path, kept);
  ASSERT_TRUE(last_kept.ok()) << last_kept.message();
  EXPECT_EQ(BestConfigs(path, snapshot)->at(kernel).config_text, "tile=8 vector=4");
  ASSERT_TRUE(DropKeptConfigurations(path, *last_kept, 0.8).ok());
  EXPECT_EQ(BestConfigs(path, snapshot)->at(kernel).config_text, "default");
  auto reloaded = LoadTuningRuns(path);
  ASSERT_TRUE(reloaded.ok()) << reloaded.message();
  const TuningRun& checked = reloaded->back();
  EXPECT_EQ(checked.run_id, *last_kept);
  ASSERT_EQ(checked.composition.size(), 1u);
  EXPECT_FALSE(checked.composition[0].kept);
  EXPECT_DOUBLE_EQ(checked.module_speedup, 0.8);
  const std::string error = DropKeptConfigurations(path, *last_kept + 100, 1).message();
  EXPECT_NE(error.find("no tuning run"), std::string::npos) << error;
  EXPECT_EQ(LoadTuningRuns(path)->size(), reloaded->size());

  // The JSON a sweep elsewhere sends back keeps the composition.
  JsonWriter json;
  WriteRunJson(json, kept);
  auto parsed = ParseRunJson(json.str(), "run.json");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_TRUE(parsed->composed);
  ASSERT_EQ(parsed->composition.size(), 1u);
  EXPECT_TRUE(parsed->composition[0].kept);
  EXPECT_EQ(parsed->trials.back().baseline_samples_us, win.baseline_samples_us);
}

}  // namespace
}  // namespace fusescope::tuning
