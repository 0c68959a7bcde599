// Profiling on the GPU (MeasureOnCuda): without a GPU, the driver's sentence; with one, every
// kernel CUPTI records during a run of a sample is claimed by the fusion or dot that launched
// it (by the external correlation id, and for PTX kernels by their launch plan's names too),
// and the overhead of the collection is measured on the same runs.

#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "ir/hlo_parser.h"
#include "passes/pipeline_options.h"
#include "profiler/measure.h"
#include "recording/compile_and_record.h"
#include "resources/samples.h"
#include "runtime/cuda/cuda_driver.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::profiler {
namespace {

TEST(CuptiMeasureTest, WithoutAGpuSaysSoInOneSentence) {
  StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
  if (driver.ok()) GTEST_SKIP() << "a GPU is here: the correlation test covers MeasureOnCuda";
  auto module = ir::ParseHloModule(
      "HloModule m\nENTRY main {\n  a = f32[4] parameter(0)\n  ROOT b = f32[4] add(a, a)\n}\n");
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = runtime::SeededInputs(*(*module)->entry(), 1);
  ASSERT_TRUE(inputs.ok());
  StatusOr<Measurement> measured = MeasureOnCuda(**module, *inputs, 0);
  ASSERT_FALSE(measured.ok());
  EXPECT_EQ(measured.message(), driver.message());
}

TEST(CuptiCorrelationTest, KernelRecordsMapToTheFusionsThatLaunchedThem) {
  StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
  if (!driver.ok()) GTEST_SKIP() << driver.message();
  const std::string text = std::string(resources::FindSample("bert_encoder").text);
  passes::PipelineOptions pipeline;
  pipeline.target = "gpu";
  auto recording = recording::CompileAndRecord(text, pipeline, "bert_encoder");
  ASSERT_TRUE(recording.ok()) << recording.message();
  auto module = recording->snapshots.back().ToModule();
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = runtime::SeededInputs(*(*module)->entry(), 3);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  MeasureOptions options;
  options.reps = 5;
  options.warmup = 1;
  StatusOr<Measurement> measured = MeasureOnCuda(**module, *inputs, 0, options);
  ASSERT_TRUE(measured.ok()) << measured.message();
  EXPECT_EQ(measured->unclaimed_launches, 0);
  ASSERT_FALSE(measured->gpu_launches.empty());
  std::set<int64_t> seen;
  for (const GpuLaunch& launch : measured->gpu_launches) {
    ASSERT_GE(launch.kernel, 0) << launch.activity.name;
    ASSERT_LT(launch.kernel, static_cast<int64_t>(measured->kernels.size()));
    const recording::KernelRecord& record = measured->kernels[static_cast<size_t>(launch.kernel)];
    EXPECT_NE(record.backend, "host") << launch.activity.name << " claimed by " << record.kernel;
    if (record.backend == "nvptx") {
      EXPECT_TRUE(launch.named_in_plan) << launch.activity.name;
    }
    EXPECT_GT(launch.activity.end_ns, launch.activity.start_ns);
    seen.insert(launch.kernel);
  }
  // Every cuBLAS GEMM made at least one recorded kernel, and PTX kernels made some.
  int64_t ptx_seen = 0;
  for (size_t k = 0; k < measured->kernels.size(); ++k) {
    const std::string& backend = measured->kernels[k].backend;
    const bool made_some = seen.count(static_cast<int64_t>(k)) > 0;
    if (backend == "cublas") {
      EXPECT_TRUE(made_some) << measured->kernels[k].kernel;
    }
    if (backend == "nvptx" && made_some) ++ptx_seen;
  }
  EXPECT_GT(ptx_seen, 0);
  EXPECT_EQ(measured->profile.run_latency_us.size(), 5u);
  EXPECT_EQ(measured->plain_latency_us.size(), 5u);
  EXPECT_NE(measured->profile.settings.find("CUPTI overhead"), std::string::npos);
  std::printf("CUPTI overhead on bert_encoder: %+.1f%% (%zu GPU kernels in a run)\n",
              100 * measured->Overhead(), measured->gpu_launches.size());
}

}  // namespace
}  // namespace fusescope::profiler
