#include "profiler/measure.h"

#include <gtest/gtest.h>

#include "ir/hlo_parser.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::profiler {
namespace {

// A 128x128x128 dot (2M multiply-adds) beside an add of 8 elements: the dot's kernel is the
// hot one by construction, by five orders of magnitude of work.
constexpr const char* kModule = R"(
HloModule hot_dot
ENTRY main {
  a = f32[128,128] parameter(0)
  b = f32[128,128] parameter(1)
  v = f32[8] parameter(2)
  d = f32[128,128] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  s = f32[8] add(v, v)
  ROOT t = (f32[128,128], f32[8]) tuple(d, s)
})";

TEST(MeasureTest, KeepsEveryRunAndFindsTheHotKernel) {
  auto module = ir::ParseHloModule(kModule);
  ASSERT_TRUE(module.ok()) << module.message();
  std::vector<runtime::Literal> inputs;
  for (int64_t i = 0; i < (*module)->entry()->parameter_count(); ++i) {
    auto input = runtime::SeededArray((*module)->entry()->parameter(i)->shape(), 7 + i);
    ASSERT_TRUE(input.ok()) << input.message();
    inputs.push_back(std::move(*input));
  }
  MeasureOptions options;
  options.reps = 5;
  options.warmup = 1;
  int64_t progress_calls = 0;
  options.progress = [&](int64_t done, int64_t total) {
    ++progress_calls;
    EXPECT_EQ(total, 6);
    EXPECT_LE(done, total);
  };
  StatusOr<Measurement> measured = MeasureWithInterpreter(**module, inputs, 3, options);
  ASSERT_TRUE(measured.ok()) << measured.message();
  EXPECT_EQ(progress_calls, 6);
  const Profile& profile = measured->profile;
  EXPECT_EQ(profile.snapshot_index, 3);
  EXPECT_EQ(profile.run_latency_us.size(), 5u);
  EXPECT_NE(profile.device.find("interpreter"), std::string::npos);
  // The two instructions that do work; parameters and the tuple are not kernels.
  ASSERT_EQ(profile.kernels.size(), 2u);
  EXPECT_EQ(profile.kernels[0].name, "d");
  EXPECT_EQ(profile.kernels[1].name, "s");
  for (const KernelTime& kernel : profile.kernels) {
    EXPECT_EQ(kernel.samples_us.size(), 5u) << kernel.name;
    EXPECT_EQ(kernel.instruction_id, (*module)->entry()->FindInstruction(kernel.name)->id());
  }
  EXPECT_GT(profile.kernels[0].share, 0.5);
  EXPECT_LE(profile.kernels[0].share + profile.kernels[1].share, 1.0 + 1e-9);
  // Counters: read, or said why not.
  EXPECT_TRUE(!measured->counters.empty() || !measured->counters_unavailable.empty());
  for (const auto& [name, values] : measured->counters) EXPECT_EQ(values.size(), 5u) << name;
}

// Compiled kernels, with plain runs beside the timed ones for the overhead of profiling: the
// plain runs read no kernel clock, so the timed runs alone give the kernels' samples.
TEST(MeasureTest, CompiledKernelsWithPlainRunsForTheOverhead) {
  auto module = ir::ParseHloModule(kModule);
  ASSERT_TRUE(module.ok()) << module.message();
  std::vector<runtime::Literal> inputs;
  for (int64_t i = 0; i < (*module)->entry()->parameter_count(); ++i) {
    auto input = runtime::SeededArray((*module)->entry()->parameter(i)->shape(), 7 + i);
    ASSERT_TRUE(input.ok()) << input.message();
    inputs.push_back(std::move(*input));
  }
  MeasureOptions options;
  options.reps = 5;
  options.warmup = 1;
  options.measure_overhead = true;
  StatusOr<Measurement> measured = MeasureOnCpu(**module, inputs, 0, options);
  ASSERT_TRUE(measured.ok()) << measured.message();
  EXPECT_EQ(measured->profile.run_latency_us.size(), 5u);
  ASSERT_EQ(measured->plain_latency_us.size(), 5u);
  for (double plain : measured->plain_latency_us) EXPECT_GT(plain, 0);
  ASSERT_FALSE(measured->profile.kernels.empty());
  EXPECT_EQ(measured->profile.kernels[0].name, "d");
  for (const KernelTime& kernel : measured->profile.kernels)
    EXPECT_EQ(kernel.samples_us.size(), 5u) << kernel.name;

  // Without the option, no plain runs.
  options.measure_overhead = false;
  measured = MeasureOnCpu(**module, inputs, 0, options);
  ASSERT_TRUE(measured.ok()) << measured.message();
  EXPECT_TRUE(measured->plain_latency_us.empty());
}

TEST(MeasureTest, RefusesAbsurdRepetitionsAndReportsFailingRuns) {
  auto module = ir::ParseHloModule(kModule);
  ASSERT_TRUE(module.ok());
  MeasureOptions options;
  options.reps = 0;
  EXPECT_FALSE(MeasureWithInterpreter(**module, {}, 0, options).ok());
  options.reps = 2;
  // No inputs: the first run fails, and the error says which run and why.
  StatusOr<Measurement> failed = MeasureWithInterpreter(**module, {}, 0, options);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.message().rfind("run 1: ", 0), 0u) << failed.message();
}

}  // namespace
}  // namespace fusescope::profiler
