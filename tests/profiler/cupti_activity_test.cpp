// CUPTI kernel activity: a plain refusal without a GPU; with one, the kernels of a PTX launch
// plan come back with their names, grid and block, and the collection's overhead is printed.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <span>

#include "profiler/cupti_activity.h"
#include "runtime/cuda/cuda_driver.h"
#ifdef FUSESCOPE_HAVE_MLIR
#include "runtime/cuda/ptx_compiler.h"
#endif

namespace fusescope::profiler {
namespace {

TEST(CuptiActivityTest, WithoutAGpuSaysSoInOneSentence) {
  if (runtime::CudaDriver::Get().ok()) GTEST_SKIP() << "a GPU is present; the GPU test covers it";
  StatusOr<std::unique_ptr<CuptiCollection>> collection = CuptiCollection::Start();
  ASSERT_FALSE(collection.ok());
  EXPECT_EQ(collection.message().rfind("no NVIDIA driver/GPU found: ", 0), 0u) << collection.message();
}

#ifdef FUSESCOPE_HAVE_MLIR
TEST(CuptiActivityTest, RecordsTheKernelsOfALaunchPlan) {
  StatusOr<runtime::CudaDriver*> driver = runtime::CudaDriver::Get();
  if (!driver.ok()) GTEST_SKIP() << driver.message();
  constexpr const char* kScale = R"(
func.func @scale(%a: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %s = arith.mulf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
)";
  StatusOr<runtime::PtxKernel> kernel = runtime::CompileToPtx(kScale, "scale");
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  std::vector<float> in(1024 * 1024, 1.5f), out(1024 * 1024);
  auto run_many = [&](int times) {
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < times; ++i) {
      Status run = (*driver)->Run(*kernel, {std::as_bytes(std::span(in))},
                                  {std::as_writable_bytes(std::span(out))});
      EXPECT_TRUE(run.ok()) << run.message();
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  run_many(3);  // warm-up: module loading, first-touch
  const double plain = run_many(20);
  StatusOr<std::unique_ptr<CuptiCollection>> collection = CuptiCollection::Start();
  ASSERT_TRUE(collection.ok()) << collection.message();
  const double instrumented = run_many(20);
  StatusOr<std::vector<GpuKernelActivity>> kernels = (*collection)->Take();
  ASSERT_TRUE(kernels.ok()) << kernels.message();
  std::printf("CUPTI overhead: 20 runs %.3f ms plain, %.3f ms with activity collection (%.1f%%)\n",
              plain * 1e3, instrumented * 1e3, 100 * (instrumented / plain - 1));
  ASSERT_EQ(kernels->size(), 20u * kernel->launches.size());
  const runtime::PtxLaunch& launch = kernel->launches[0];
  for (const GpuKernelActivity& activity : *kernels) {
    EXPECT_EQ(activity.name, launch.kernel);
    EXPECT_GT(activity.end_ns, activity.start_ns);
    EXPECT_EQ(activity.grid[0], launch.grid[0]);
    EXPECT_EQ(activity.block[0] * activity.block[1] * activity.block[2],
              launch.block[0] * launch.block[1] * launch.block[2]);
    EXPECT_GT(activity.registers_per_thread, 0);
  }
  EXPECT_EQ(out[12345], 4.5f);
}
#endif

}  // namespace
}  // namespace fusescope::profiler
