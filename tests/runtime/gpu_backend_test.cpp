// Lowering kernels to PTX (no GPU needed): the stages, the launch plan, and — where the CUDA
// toolkit's ptxas is installed — that ptxas accepts the PTX for sm_90.

#include <gtest/gtest.h>

#include "runtime/cuda/cuda_driver.h"

#ifdef FUSESCOPE_HAVE_MLIR

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <random>

#include "runtime/cuda/cuda_driver.h"
#include "ir/hlo_parser.h"
#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "resources/samples.h"
#include "runtime/kernel_emitter.h"
#include "runtime/cuda/ptx_compiler.h"

namespace fusescope::runtime {
namespace {

// A bias-add + exp kernel and a row sum of its result: two outputs, three launches.
constexpr const char* kBiasExpRowSum = R"(
func.func @kernel(%a: tensor<64x128xf32>, %b: tensor<128xf32>) -> (tensor<64x128xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x128xf32>, tensor<128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.exp %s : f32
    linalg.yield %t : f32
  } -> tensor<64x128xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%r : tensor<64x128xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %q = arith.addf %in, %acc : f32
      linalg.yield %q : f32
    }
  return %r, %s : tensor<64x128xf32>, tensor<64xf32>
}
)";

std::string Ptxas() {
  for (const char* candidate : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"}) {
    if (std::filesystem::exists(candidate)) return candidate;
  }
  return "";
}

TEST(PtxCompilerTest, LowersAKernelWithEveryStageAndAPlan) {
  StatusOr<PtxKernel> kernel = CompileToPtx(kBiasExpRowSum, "kernel");
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  const recording::KernelRecord& record = kernel->record;
  EXPECT_EQ(record.backend, "nvptx");
  EXPECT_TRUE(record.failed_stage.empty());
  ASSERT_GE(record.stages.size(), 10u);
  EXPECT_EQ(record.stages.front().name, "input");
  EXPECT_EQ(record.stages.back().name, "ptx");
  EXPECT_NE(record.stages.back().text.find(".target sm_90"), std::string::npos);
  EXPECT_NE(record.stages.back().text.find(".entry"), std::string::npos);

  EXPECT_EQ(kernel->inputs, 2);
  EXPECT_EQ(kernel->outputs, 2);
  // The elementwise loop: 64 rows of 128 threads reading both inputs and writing output 0.
  ASSERT_EQ(kernel->launches.size(), 3u) << kernel->PlanText();
  const PtxLaunch& loop = kernel->launches[0];
  EXPECT_EQ(loop.grid[0] * loop.grid[1] * loop.grid[2], 64) << kernel->PlanText();
  EXPECT_EQ(loop.block[0] * loop.block[1] * loop.block[2], 128) << kernel->PlanText();
  int buffers = 0;
  for (const PtxArgument& argument : loop.arguments) {
    if (argument.kind == PtxArgument::Kind::kBuffer) {
      ++buffers;
      EXPECT_GE(argument.buffer, 0);
      EXPECT_EQ(argument.element_bytes, 4);
    }
  }
  EXPECT_EQ(buffers, 3);
  for (const PtxLaunch& launch : kernel->launches) {
    bool found = false;
    for (const auto& [module, ptx] : kernel->ptx) {
      if (module == launch.module) found = ptx.find(".entry " + launch.kernel) != std::string::npos;
    }
    EXPECT_TRUE(found) << launch.module << "::" << launch.kernel;
  }
}

TEST(PtxCompilerTest, PtxasAcceptsThePtx) {
  const std::string ptxas = Ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
  StatusOr<PtxKernel> kernel = CompileToPtx(kBiasExpRowSum, "kernel");
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("fusescope-ptx-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  for (const auto& [module, ptx] : kernel->ptx) {
    const std::filesystem::path file = folder / (module + ".ptx");
    std::ofstream(file) << ptx;
    const std::string command = ptxas + " -arch=sm_90 " + file.string() + " -o " +
                                (folder / (module + ".cubin")).string() + " 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  }
  std::filesystem::remove_all(folder);
}

TEST(PtxCompilerTest, AFailedStageKeepsTheStagesBeforeIt) {
  recording::KernelRecord partial;
  StatusOr<PtxKernel> kernel = CompileToPtx("func.func @kernel(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                                            "  %b = arith.addf %a, %missing : tensor<4xf32>\n"
                                            "  return %b : tensor<4xf32>\n}\n",
                                            "kernel", {}, &partial);
  ASSERT_FALSE(kernel.ok());
  EXPECT_NE(kernel.message().find("failed at input"), std::string::npos) << kernel.message();
  EXPECT_EQ(partial.failed_stage, "input");
  ASSERT_EQ(partial.stages.size(), 1u);
  EXPECT_EQ(partial.stages[0].name, "input");
}

TEST(PtxCompilerTest, AHostPartItCannotLaunchIsNamed) {
  // Returning an input unchanged computes nothing to launch (and crashes MLIR 19's
  // buffer-results-to-out-params): refused at that stage, earlier stages kept.
  recording::KernelRecord partial;
  StatusOr<PtxKernel> kernel = CompileToPtx(
      "func.func @kernel(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n",
      "kernel", {}, &partial);
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(partial.failed_stage, "buffer-results-to-out-params");
  EXPECT_NE(partial.error.find("does not compute"), std::string::npos) << partial.error;
  EXPECT_EQ(partial.stages.size(), 4u);
}

TEST(PtxCompilerTest, RefusesAbsurdOptions) {
  PtxOptions options;
  options.threads_per_block = 4096;
  StatusOr<PtxKernel> kernel = CompileToPtx(kBiasExpRowSum, "kernel", options);
  ASSERT_FALSE(kernel.ok());
  EXPECT_NE(kernel.message().find("threads per block"), std::string::npos);
}

// Every fusion the CPU emitter lowers, of every built-in sample after our GPU pipeline, lowers
// on to PTX that ptxas accepts: the GPU path covers the real kernels, not only a hand-written
// one. (Whole modules do not run on the GPU yet.)
TEST(PtxCompilerTest, EverySampleFusionLowersToPtxThatPtxasAccepts) {
  const std::string ptxas = Ptxas();
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("fusescope-ptx-samples-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  int lowered = 0;
  for (const char* name : {"mlp", "bert_encoder", "resnet_block"}) {
    SCOPED_TRACE(name);
    const std::string text = std::string(resources::FindSample(name).text);
    passes::PipelineOptions pipeline;
    pipeline.target = "gpu";
    auto recording = recording::CompileAndRecord(text, pipeline, name);
    ASSERT_TRUE(recording.ok()) << recording.message();
    auto compiled = recording->snapshots.back().ToModule();
    ASSERT_TRUE(compiled.ok()) << compiled.message();
    for (const auto& instruction : (*compiled)->entry()->instructions()) {
      if (instruction->opcode() != ir::Opcode::kFusion) continue;
      StatusOr<EmittedKernel> emitted = EmitFusionKernel(*instruction);
      if (!emitted.ok()) continue;  // the CPU emitter's refusals are its own tests' business
      StatusOr<PtxKernel> kernel =
          CompileToPtx(emitted->text, emitted->function_name, {}, nullptr,
                       static_cast<int>(emitted->input_shapes.size()));
      ASSERT_TRUE(kernel.ok()) << instruction->name() << ": " << kernel.message();
      EXPECT_EQ(kernel->outputs, static_cast<int>(emitted->output_shapes.size()));
      EXPECT_FALSE(kernel->launches.empty()) << instruction->name();
      ++lowered;
      if (ptxas.empty()) continue;
      for (const auto& [module, ptx] : kernel->ptx) {
        const std::filesystem::path file = folder / (instruction->name() + "." + module + ".ptx");
        std::ofstream(file) << ptx;
        const std::string command = ptxas + " -arch=sm_90 " + file.string() + " -o " +
                                    (folder / "out.cubin").string() + " 2>&1";
        EXPECT_EQ(std::system(command.c_str()), 0) << instruction->name() << ": " << command;
      }
    }
  }
  std::filesystem::remove_all(folder);
  EXPECT_GE(lowered, 10);
  std::printf("%d sample fusions lowered to PTX%s\n", lowered,
              ptxas.empty() ? " (no ptxas to check them)" : ", all accepted by ptxas");
}

TEST(CudaDriverTest, RunsThePtxOnTheGpuAndMatchesTheHost) {
  StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (!driver.ok()) GTEST_SKIP() << driver.message();
  StatusOr<PtxKernel> kernel = CompileToPtx(kBiasExpRowSum, "kernel");
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  std::mt19937 random(3);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> a(64 * 128), b(128), out(64 * 128), sums(64);
  for (float& v : a) v = uniform(random);
  for (float& v : b) v = uniform(random);
  double seconds = 0;
  Status run = (*driver)->Run(*kernel, {std::as_bytes(std::span(a)), std::as_bytes(std::span(b))},
                              {std::as_writable_bytes(std::span(out)),
                               std::as_writable_bytes(std::span(sums))},
                              &seconds);
  ASSERT_TRUE(run.ok()) << run.message();
  for (int i = 0; i < 64; ++i) {
    double sum = 0;
    for (int j = 0; j < 128; ++j) {
      const double want = std::exp(double{a[i * 128 + j]} + b[j]);
      sum += want;
      ASSERT_NEAR(out[i * 128 + j], want, 1e-5 * want) << i << "," << j;
    }
    ASSERT_NEAR(sums[i], sum, 1e-5 * sum) << i;
  }
  EXPECT_GT(seconds, 0);
}

}  // namespace
}  // namespace fusescope::runtime

#endif  // FUSESCOPE_HAVE_MLIR

namespace fusescope::runtime {
namespace {

// Without a driver the answer is one plain sentence; with one, the device is described.
TEST(CudaDriverTest, SaysPlainlyWhetherAGpuIsThere) {
  StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (!driver.ok()) {
    EXPECT_EQ(driver.message().rfind("no NVIDIA driver/GPU found: ", 0), 0u) << driver.message();
    EXPECT_EQ(driver.message().find('\n'), std::string::npos);
    // Asked again, the same answer (loaded once per process).
    EXPECT_EQ(CudaDriver::Get().message(), driver.message());
  } else {
    EXPECT_FALSE((*driver)->device().name.empty());
    EXPECT_GE((*driver)->device().compute_major, 3);
    EXPECT_GT((*driver)->device().memory_bytes, 0);
  }
}

}  // namespace
}  // namespace fusescope::runtime
