// Compiled CPU execution (runtime::CpuExecutable): every built-in sample and jax fixture,
// through our CPU pipeline, compiled and run against the reference interpreter on the
// original module; the kernel emitter's refusals; the kernel compiler's recorded stages and
// failures; a deliberately wrong kernel caught by the comparison.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "recording/compile_and_record.h"
#include "resources/samples.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/kernel_emitter.h"
#include "runtime/seeded_inputs.h"
#include "runtime_test_util.h"

namespace fusescope::runtime {
namespace {

constexpr double kRtol = 1e-5;
constexpr double kAtol = 1e-6;

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct CompiledRun {
  std::unique_ptr<ir::Module> compiled;
  std::unique_ptr<CpuExecutable> executable;
  Literal actual;
  Literal expected;
};

// `text` through our CPU pipeline, its final snapshot compiled and run on seeded inputs,
// and the original module interpreted on the same inputs.
void CompileRunAndCompare(const std::string& text, const std::string& name,
                          CpuExecutableOptions options = {}) {
  SCOPED_TRACE(name);
  auto original = ir::ParseHloModule(text);
  ASSERT_TRUE(original.ok()) << original.message();
  passes::PipelineOptions pipeline;
  pipeline.target = "cpu";
  auto recording = recording::CompileAndRecord(text, pipeline, name);
  ASSERT_TRUE(recording.ok()) << recording.message();
  ASSERT_FALSE(recording->failed());
  auto compiled = recording->snapshots.back().ToModule();
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  auto inputs = SeededInputs(*(*original)->entry(), 7);
  ASSERT_TRUE(inputs.ok()) << inputs.message();

  Interpreter interpreter;
  auto expected = interpreter.Run(**original, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto executable = CpuExecutable::Compile(**compiled, options);
  ASSERT_TRUE(executable.ok()) << executable.message();
  auto actual = (*executable)->Run(*inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();

  const LiteralDifference difference = CompareLiterals(*actual, *expected, kRtol, kAtol);
  EXPECT_TRUE(difference.ok()) << "max abs " << difference.max_abs_error << " max rel "
                               << difference.max_rel_error << " mismatches "
                               << difference.mismatches;
  // The comparison must exercise compiled kernels, not only the host.
  const auto& kernels = (*executable)->kernels();
  const int64_t compiled_kernels = std::count_if(kernels.begin(), kernels.end(), [](const auto& k) {
    return k.backend == "mlir-cpu" || k.backend == "openblas" || k.backend == "onednn";
  });
  EXPECT_GT(compiled_kernels, 0) << (*executable)->KernelSummary();
  for (const recording::KernelRecord& kernel : kernels) {
    EXPECT_FALSE(kernel.kernel.empty());
    if (kernel.backend == "host") {
      EXPECT_FALSE(kernel.note.empty()) << kernel.kernel;
    }
    if (kernel.backend == "mlir-cpu") {
      ASSERT_FALSE(kernel.stages.empty());
      EXPECT_EQ(kernel.stages.front().name, "input");
      EXPECT_EQ(kernel.stages.back().name, "asm") << kernel.kernel;
      EXPECT_TRUE(kernel.failed_stage.empty()) << kernel.kernel << ": " << kernel.error;
    }
  }
  EXPECT_EQ((*executable)->last_timings().size(), kernels.size());
}

class CpuExecutableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR";
  }
};

TEST_F(CpuExecutableTest, BuiltInSamplesMatchTheInterpreter) {
  for (const resources::SampleModel& sample : resources::SampleModels()) {
    CompileRunAndCompare(std::string(sample.text), std::string(sample.name));
  }
}

TEST_F(CpuExecutableTest, JaxFixturesMatchTheInterpreter) {
  const std::filesystem::path data = std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "tests" / "data";
  std::vector<std::filesystem::path> files = {
      data / "mlp" / "before_optimizations.hlo",
      data / "attention" / "before_optimizations.hlo",
      data / "convnet" / "before_optimizations.hlo",
      data / "bert_layer" / "before_optimizations.hlo",
      data / "training" / "bert_train_step.threefry.nometa.hlo",
      data / "training" / "cond_sort.hlo",
      data / "training" / "decoder_grad.hlo",
      data / "training" / "scan_grad.hlo",
  };
  // bert_train_step.rbg.hlo is left out: the interpreter refuses rng-bit-generator.
  for (const auto& entry : std::filesystem::directory_iterator(data / "samples_xla"))
    files.push_back(entry.path());
  for (const std::filesystem::path& file : files) {
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    CompileRunAndCompare(ReadFile(file), file.filename().string());
  }
}

TEST_F(CpuExecutableTest, InterpreterCasesMatchTheInterpreter) {
  const std::filesystem::path cases =
      std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "tests" / "runtime" / "xla_cases";
  for (const char* name :
       {"elementwise.hlo", "integers.hlo", "data_movement.hlo", "dots_and_norms.hlo",
        "convolution.hlo", "windows_and_sort.hlo", "gather_scatter.hlo", "narrow_floats.hlo"}) {
    const std::string text = ReadFile(cases / name);
    // These hold many separate ops: run them as they are, not fused, so each op is a kernel.
    auto module = ir::ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.message();
    auto inputs = SeededInputs(*(*module)->entry(), 3);
    ASSERT_TRUE(inputs.ok()) << inputs.message();
    Interpreter interpreter;
    auto expected = interpreter.Run(**module, *inputs);
    ASSERT_TRUE(expected.ok()) << expected.message();
    // With stages kept each kernel compiles alone; without, a compile thread's kernels are
    // linked into one LLVM module (what `run` and `profile` do).
    for (bool keep_stages : {true, false}) {
      CpuExecutableOptions options;
      options.keep_lowering_stages = keep_stages;
      auto executable = CpuExecutable::Compile(**module, options);
      ASSERT_TRUE(executable.ok()) << executable.message();
      auto actual = (*executable)->Run(*inputs);
      ASSERT_TRUE(actual.ok()) << actual.message();
      const LiteralDifference difference = CompareLiterals(*actual, *expected, kRtol, kAtol);
      EXPECT_TRUE(difference.ok())
          << name << (keep_stages ? "" : " (linked)") << ": max abs " << difference.max_abs_error;
    }
  }
}

TEST_F(CpuExecutableTest, ConvolutionsRunThroughIm2colGemm) {
  const std::string text(resources::FindSample("resnet_block").text);
  CompileRunAndCompare(text, "resnet_block");
  passes::PipelineOptions pipeline;
  auto recording = recording::CompileAndRecord(text, pipeline, "resnet_block");
  ASSERT_TRUE(recording.ok());
  auto module = recording->snapshots.back().ToModule();
  ASSERT_TRUE(module.ok());
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok());
  int convolutions = 0;
  for (const recording::KernelRecord& kernel : (*executable)->kernels()) {
    if (kernel.note.find("im2col") != std::string::npos) {
      EXPECT_EQ(kernel.backend, "openblas");
      ++convolutions;
    }
  }
  EXPECT_EQ(convolutions, 2) << (*executable)->KernelSummary();
}

// The im2col paths by layout: channels-first (NCHW/OIHW, ONNX's), channels-last (NHWC/HWIO,
// jax's) and a mixed one that takes the general path, with strides, padding on both sides,
// window and base dilation, feature groups, 1-D and 3-D windows, f32 and f64.
TEST_F(CpuExecutableTest, ConvolutionLayoutsMatchTheInterpreter) {
  const char* kConvolutions[] = {
      "x = f32[2,3,9,9] parameter(0)\n w = f32[4,3,3,3] parameter(1)\n"
      " ROOT c = f32[2,4,5,5] convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_1}, "
      "dim_labels=bf01_oi01->bf01",
      "x = f32[1,4,7,6] parameter(0)\n w = f32[6,2,3,2] parameter(1)\n"
      " ROOT c = f32[1,6,5,7] convolution(x, w), window={size=3x2 pad=1_1x0_2 rhs_dilate=2x1}, "
      "dim_labels=bf01_oi01->bf01, feature_group_count=2",
      "x = f32[1,2,5,5] parameter(0)\n w = f32[3,2,2,2] parameter(1)\n"
      " ROOT c = f32[1,3,10,10] convolution(x, w), window={size=2x2 pad=1_1x1_1 lhs_dilate=2x2}, "
      "dim_labels=bf01_oi01->bf01",
      "x = f64[2,3,11] parameter(0)\n w = f64[5,3,4] parameter(1)\n"
      " ROOT c = f64[2,5,4] convolution(x, w), window={size=4 stride=3 pad=2_1}, "
      "dim_labels=bf0_oi0->bf0",
      "x = f32[1,2,4,4,4] parameter(0)\n w = f32[2,2,2,2,2] parameter(1)\n"
      " ROOT c = f32[1,2,3,3,3] convolution(x, w), window={size=2x2x2}, "
      "dim_labels=bf012_oi012->bf012",
      "x = f32[2,8,8,3] parameter(0)\n w = f32[3,3,3,5] parameter(1)\n"
      " ROOT c = f32[2,4,4,5] convolution(x, w), window={size=3x3 stride=2x2 pad=0_1x0_1}, "
      "dim_labels=b01f_01io->b01f",
      "x = f32[2,3,6,6] parameter(0)\n w = f32[3,3,3,4] parameter(1)\n"
      " ROOT c = f32[2,6,6,4] convolution(x, w), window={size=3x3 pad=1_1x1_1}, "
      "dim_labels=bf01_01io->b01f",
  };
  // Widened (f32 through dgemm: the general path) and native (f32 through sgemm: the in-place
  // paths, as profiles run).
  CpuExecutableOptions native;
  native.f32_dot_precision = BlasPrecision::kNative;
  native.emitted_convolution_max_macs = 0;
  int index = 0;
  for (const char* body : kConvolutions) {
    const std::string text =
        "HloModule conv" + std::to_string(index) + "\nENTRY e {\n " + body + "\n}\n";
    CompileRunAndCompare(text, "convolution " + std::to_string(index));
    CompileRunAndCompare(text, "convolution " + std::to_string(index) + " sgemm", native);
    ++index;
  }
}

// The same layouts, small, compiled as loop nests of our own (KernelWriter::EmitConvolution):
// every one but the input-dilated one, whose kernel says why it went to the library; and a
// convolution with its bias and ReLU fused after it, compiled as one kernel.
TEST_F(CpuExecutableTest, SmallConvolutionsCompileAsLoopNestsOfTheirOwn) {
  const std::vector<std::pair<std::string, bool>> kConvolutions = {
      {"x = f32[2,3,9,9] parameter(0)\n w = f32[4,3,3,3] parameter(1)\n"
       " ROOT c = f32[2,4,5,5] convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_1}, "
       "dim_labels=bf01_oi01->bf01",
       true},
      {"x = f32[1,4,7,6] parameter(0)\n w = f32[6,2,3,2] parameter(1)\n"
       " ROOT c = f32[1,6,5,7] convolution(x, w), window={size=3x2 pad=1_1x0_2 rhs_dilate=2x1}, "
       "dim_labels=bf01_oi01->bf01, feature_group_count=2",
       true},
      {"x = f32[1,2,5,5] parameter(0)\n w = f32[3,2,2,2] parameter(1)\n"
       " ROOT c = f32[1,3,10,10] convolution(x, w), window={size=2x2 pad=1_1x1_1 lhs_dilate=2x2}, "
       "dim_labels=bf01_oi01->bf01",
       false},
      {"x = f64[2,3,11] parameter(0)\n w = f64[5,3,4] parameter(1)\n"
       " ROOT c = f64[2,5,4] convolution(x, w), window={size=4 stride=3 pad=2_1}, "
       "dim_labels=bf0_oi0->bf0",
       true},
      {"x = f32[1,2,4,4,4] parameter(0)\n w = f32[2,2,2,2,2] parameter(1)\n"
       " ROOT c = f32[1,2,3,3,3] convolution(x, w), window={size=2x2x2}, "
       "dim_labels=bf012_oi012->bf012",
       true},
      {"x = f32[2,8,8,3] parameter(0)\n w = f32[3,3,3,5] parameter(1)\n"
       " ROOT c = f32[2,4,4,5] convolution(x, w), window={size=3x3 stride=2x2 pad=0_1x0_1}, "
       "dim_labels=b01f_01io->b01f",
       true},
      {"x = f32[2,3,6,6] parameter(0)\n w = f32[3,3,3,4] parameter(1)\n"
       " ROOT c = f32[2,6,6,4] convolution(x, w), window={size=3x3 pad=1_1x1_1}, "
       "dim_labels=bf01_01io->b01f",
       true},
      // Depthwise, channels last (a MobileNet's), and the input's rows read whole.
      {"x = f32[1,8,8,16] parameter(0)\n w = f32[3,3,1,16] parameter(1)\n"
       " ROOT c = f32[1,8,8,16] convolution(x, w), window={size=3x3 pad=1_1x1_1}, "
       "dim_labels=b01f_01io->b01f, feature_group_count=16",
       true},
      // Bias and ReLU after it: an output fusion, compiled whole.
      {"x = f32[2,3,16,16] parameter(0)\n w = f32[8,3,3,3] parameter(1)\n"
       " b = f32[8] parameter(2)\n"
       " c = f32[2,8,16,16] convolution(x, w), window={size=3x3 pad=1_1x1_1}, "
       "dim_labels=bf01_oi01->bf01\n"
       " bb = f32[2,8,16,16] broadcast(b), dimensions={1}\n"
       " a = f32[2,8,16,16] add(c, bb)\n z = f32[] constant(0)\n"
       " zz = f32[2,8,16,16] broadcast(z), dimensions={}\n"
       " ROOT r = f32[2,8,16,16] maximum(a, zz)",
       true},
  };
  CpuExecutableOptions native;
  native.f32_dot_precision = BlasPrecision::kNative;
  int index = 0;
  for (const auto& [body, ours] : kConvolutions) {
    const std::string text =
        "HloModule conv" + std::to_string(index) + "\nENTRY e {\n " + body + "\n}\n";
    SCOPED_TRACE(text);
    CompileRunAndCompare(text, "convolution " + std::to_string(index), native);
    passes::PipelineOptions pipeline;
    pipeline.target = "cpu";
    auto recording = recording::CompileAndRecord(text, pipeline, "conv");
    ASSERT_TRUE(recording.ok()) << recording.message();
    auto compiled = recording->snapshots.back().ToModule();
    ASSERT_TRUE(compiled.ok()) << compiled.message();
    auto executable = CpuExecutable::Compile(**compiled, native);
    ASSERT_TRUE(executable.ok()) << executable.message();
    int emitted = 0, library = 0;
    for (const recording::KernelRecord& record : (*executable)->kernels()) {
      if (record.note.find("a small convolution, compiled as a loop nest") != std::string::npos) {
        EXPECT_EQ(record.backend, "mlir-cpu");
        ++emitted;
      }
      if (record.backend == "onednn" || record.backend == "openblas") ++library;
    }
    EXPECT_EQ(emitted, ours ? 1 : 0) << (*executable)->KernelSummary();
    EXPECT_EQ(library, ours ? 0 : 1) << (*executable)->KernelSummary();
    ++index;
  }
}

// Runs after the first write into buffer assignment's allocations, whose bytes hold the last
// run's values: every run on new inputs still matches the interpreter.
TEST_F(CpuExecutableTest, RepeatedRunsReuseTheAllocationsOfBufferAssignment) {
  const std::string text(resources::FindSample("bert_encoder").text);
  passes::PipelineOptions pipeline;
  pipeline.target = "cpu";
  auto recording = recording::CompileAndRecord(text, pipeline, "bert_encoder");
  ASSERT_TRUE(recording.ok()) << recording.message();
  auto module = recording->snapshots.back().ToModule();
  ASSERT_TRUE(module.ok()) << module.message();
  auto original = ir::ParseHloModule(text);
  ASSERT_TRUE(original.ok());
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  EXPECT_GT((*executable)->assigned_values(), 10);
  int64_t reused_in_first_run = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    auto inputs = SeededInputs(*(*original)->entry(), seed);
    ASSERT_TRUE(inputs.ok());
    auto expected = Interpreter().Run(**original, *inputs);
    ASSERT_TRUE(expected.ok()) << expected.message();
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    const LiteralDifference difference = CompareLiterals(*actual, *expected, kRtol, kAtol);
    EXPECT_TRUE(difference.ok()) << "seed " << seed << ": max abs " << difference.max_abs_error;
    if (seed == 1) {
      // Within the first run only where buffer assignment gave a dead value's allocation to a
      // later one.
      reused_in_first_run = (*executable)->reused_values();
      EXPECT_LT(reused_in_first_run, (*executable)->assigned_values());
    } else {
      // Later runs also find the allocations the last run left (the root's left with it).
      EXPECT_GT((*executable)->reused_values(), reused_in_first_run);
      EXPECT_GE((*executable)->reused_values(), (*executable)->assigned_values() - 1);
      // And the output fusion's GEMM writes its product into the bytes the last run's left.
      EXPECT_GE((*executable)->reused_products(), 1);
    }
  }
}

TEST_F(CpuExecutableTest, ReduceWindowCompilesAsScalarLoops) {
  auto module = ir::ParseHloModule(R"(HloModule pool
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  x = f32[1,6,6,2] parameter(0)
  init = f32[] constant(-inf)
  ROOT p = f32[1,3,3,2] reduce-window(x, init), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, to_apply=max
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 5);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  ASSERT_EQ((*executable)->kernels().size(), 1u);
  const recording::KernelRecord& kernel = (*executable)->kernels()[0];
  EXPECT_EQ(kernel.backend, "mlir-cpu") << kernel.note;
  EXPECT_EQ(kernel.options, "tile=0 vector=0");
  EXPECT_NE(kernel.note.find("compiled without vectorization"), std::string::npos) << kernel.note;
  auto actual = (*executable)->Run(*inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();
  EXPECT_TRUE(CompareLiterals(*actual, *expected, kRtol, kAtol).ok());
}

TEST_F(CpuExecutableTest, ArgmaxReduceInlinesItsReducer) {
  auto module = ir::ParseHloModule(R"(HloModule argmax
argmax {
  a = f32[] parameter(0)
  i = s32[] parameter(1)
  b = f32[] parameter(2)
  j = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GT
  eq = pred[] compare(a, b), direction=EQ
  lt = pred[] compare(i, j), direction=LT
  tie = pred[] and(eq, lt)
  take = pred[] or(gt, tie)
  v = f32[] select(take, a, b)
  k = s32[] select(take, i, j)
  ROOT t = (f32[], s32[]) tuple(v, k)
}
ENTRY e {
  x = f32[4,6] parameter(0)
  idx = s32[4,6] iota(), iota_dimension=1
  lowest = f32[] constant(-inf)
  zero = s32[] constant(0)
  r = (f32[4], s32[4]) reduce(x, idx, lowest, zero), dimensions={1}, to_apply=argmax
  ROOT k = s32[4] get-tuple-element(r), index=1
})");
  ASSERT_TRUE(module.ok()) << module.message();
  Literal x = testing::F32({4, 6}, {1,  5,  2,  5,  0,  0,   //
                                    -1, -2, -3, -4, -5, -6,  //
                                    0,  0,  0,  0,  0,  7,   //
                                    3,  9,  9,  1,  2,  3});
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  EXPECT_EQ((*executable)->KernelSummary(), "2 kernels: 2 mlir-cpu");  // iota, reduce
  auto result = (*executable)->Run({x});
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(testing::Values(*result), (std::vector<double>{1, 0, 5, 1}));
}

TEST_F(CpuExecutableTest, TotalOrderCompareMatchesTheInterpreterOnSignedZerosAndNaN) {
  auto module = ir::ParseHloModule(R"(HloModule total
ENTRY e {
  x = f32[6] parameter(0)
  y = f32[6] parameter(1)
  lt = pred[6] compare(x, y), direction=LT, type=TOTALORDER
  eq = pred[6] compare(x, y), direction=EQ, type=TOTALORDER
  ROOT t = (pred[6], pred[6]) tuple(lt, eq)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  const double nan = std::nan("");
  const double inf = HUGE_VAL;
  std::vector<Literal> inputs = {testing::F32({6}, {-0.0, 0.0, nan, -inf, 1, -nan}),
                                 testing::F32({6}, {0.0, -0.0, inf, -nan, 1, 2})};
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  EXPECT_EQ((*executable)->KernelSummary(), "2 kernels: 2 mlir-cpu");
  auto actual = (*executable)->Run(inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();
  EXPECT_TRUE(actual->BitwiseEqual(*expected))
      << actual->ToString() << " vs " << expected->ToString();
  EXPECT_EQ(testing::Values(actual->elements()[0]), (std::vector<double>{1, 0, 0, 0, 0, 1}));
}

// Padding adds nothing to a window: a sum with a nonzero init counts the init once; f16 sums
// round at every step, as the reducer's HLO says; strided windows on integers.
TEST_F(CpuExecutableTest, ReduceWindowPaddingAndNarrowSumsMatchTheInterpreter) {
  auto module = ir::ParseHloModule(R"(HloModule windows
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
add_f16 {
  a = f16[] parameter(0)
  b = f16[] parameter(1)
  ROOT s = f16[] add(a, b)
}
max_s64 {
  a = s64[] parameter(0)
  b = s64[] parameter(1)
  ROOT m = s64[] maximum(a, b)
}
ENTRY e {
  x = f32[5,6] parameter(0)
  h = f16[64] parameter(1)
  u = u32[12] parameter(2)
  five = f32[] constant(5)
  zero = f16[] constant(0)
  w = f32[3,3] reduce-window(x, five), window={size=3x3 stride=2x2 pad=1_1x1_0}, to_apply=add_f32
  r = f16[] reduce(h, zero), dimensions={0}, to_apply=add_f16
  v = s64[12] convert(u)
  low = s64[] constant(-1)
  m = s64[3] reduce-window(v, low), window={size=10 stride=2 pad=1_1}, to_apply=max_s64
  ROOT t = (f32[3,3], f16[], s64[3]) tuple(w, r, m)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  for (uint64_t seed : {1, 2, 1070}) {
    auto inputs = SeededInputs(*(*module)->entry(), seed);
    ASSERT_TRUE(inputs.ok());
    Interpreter interpreter;
    auto expected = interpreter.Run(**module, *inputs);
    ASSERT_TRUE(expected.ok()) << expected.message();
    auto executable = CpuExecutable::Compile(**module);
    ASSERT_TRUE(executable.ok()) << executable.message();
    EXPECT_EQ((*executable)->KernelSummary(), "4 kernels: 4 mlir-cpu");
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    EXPECT_TRUE(actual->BitwiseEqual(*expected))
        << "seed " << seed << ": " << actual->ToString() << "\nexpected " << expected->ToString();
  }
}

TEST_F(CpuExecutableTest, LoweringOptionsKeepTheNumbers) {
  const std::string text(resources::FindSample("bert_encoder").text);
  for (const char* options :
       {"tile=0 vector=0", "tile=16 vector=0", "tile=32 vector=8", "approx=0"}) {
    CpuExecutableOptions executable_options;
    executable_options.lowering = LoweringOptions::Parse(options).value();
    CompileRunAndCompare(text, options, executable_options);
  }
}

TEST_F(CpuExecutableTest, DotsWithBatchAndTransposedContractionMatch) {
  const std::string text = R"(HloModule dots
ENTRY e {
  a = f32[3,5,4] parameter(0)
  b = f32[3,6,5] parameter(1)
  c = f32[5,7] parameter(2)
  d = f64[5,4] parameter(3)
  batched = f32[3,4,6] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0}, rhs_contracting_dims={2}
  s = f32[1,5,4] slice(a), slice={[0:1], [0:5], [0:4]}
  r = f32[5,4] reshape(s)
  t = f32[4,7] dot(r, c), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  dd = f64[4,4] dot(d, d), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  ROOT out = (f32[3,4,6], f32[4,7], f64[4,4]) tuple(batched, t, dd)
})";
  auto module = ir::ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 1);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  for (BlasPrecision precision : {BlasPrecision::kWidened, BlasPrecision::kNative}) {
    CpuExecutableOptions options;
    options.f32_dot_precision = precision;
    auto executable = CpuExecutable::Compile(**module, options);
    ASSERT_TRUE(executable.ok()) << executable.message();
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    // Single precision sums five products: a few ulps.
    const double rtol = precision == BlasPrecision::kWidened ? kRtol : 1e-4;
    EXPECT_TRUE(CompareLiterals(*actual, *expected, rtol, 1e-5).ok());
    const std::string summary = (*executable)->KernelSummary();
    EXPECT_NE(summary.find("3 openblas"), std::string::npos) << summary;
    // In single precision, operands stored with their matrix dimensions the other way round
    // are read transposed in place, not reordered into copies (widened, the f64 copies the
    // widening makes are written in the GEMM's order).
    if (precision == BlasPrecision::kWidened) continue;
    for (const recording::KernelRecord& record : (*executable)->kernels()) {
      if (record.kernel == "batched") {
        EXPECT_NE(record.note.find("A transposed, B transposed"), std::string::npos)
            << record.note;
      }
      if (record.kernel == "t" || record.kernel == "dd") {
        EXPECT_NE(record.note.find("A transposed"), std::string::npos) << record.note;
      }
      EXPECT_EQ(record.note.find("reordered"), std::string::npos) << record.note;
    }
  }
}

TEST_F(CpuExecutableTest, IdenticalKernelsCompileOnce) {
  auto module = ir::ParseHloModule(R"(HloModule twice
ENTRY e {
  p = f32[16] parameter(0)
  q = f32[16] parameter(1)
  a = f32[16] multiply(p, q)
  b = f32[16] multiply(a, q)
  ROOT t = (f32[16], f32[16]) tuple(a, b)
})");
  ASSERT_TRUE(module.ok());
  // Concurrent compilation still compiles the shared text once, and the later step reuses it.
  for (int threads : {1, 4}) {
    SCOPED_TRACE(threads);
    CpuExecutableOptions options;
    options.compile_threads = threads;
    auto executable = CpuExecutable::Compile(**module, options);
    ASSERT_TRUE(executable.ok()) << executable.message();
    const auto& kernels = (*executable)->kernels();
    ASSERT_EQ(kernels.size(), 2u);
    EXPECT_EQ(kernels[0].backend, "mlir-cpu");
    EXPECT_EQ(kernels[1].backend, "mlir-cpu");
    EXPECT_EQ(kernels[1].stages.size(), kernels[0].stages.size());
    EXPECT_EQ(kernels[0].note.find("same kernel"), std::string::npos);
    EXPECT_NE(kernels[1].note.find("same kernel"), std::string::npos);
    EXPECT_GT(kernels[0].compile_seconds, 0);
    EXPECT_EQ(kernels[1].compile_seconds, 0);
    auto result = (*executable)
                      ->Run({testing::F32({16}, std::vector<double>(16, 3)),
                             testing::F32({16}, std::vector<double>(16, 2))});
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_EQ(testing::Values(result->elements()[1]), std::vector<double>(16, 12));
  }
}

// Everything a kernel record says except how long compiling took.
std::string DescribeRecords(const std::vector<recording::KernelRecord>& kernels) {
  std::ostringstream text;
  for (const recording::KernelRecord& kernel : kernels) {
    text << kernel.kernel << " #" << kernel.instruction_id << " " << kernel.backend << " ["
         << kernel.options << "] failed=" << kernel.failed_stage << " error=" << kernel.error
         << " note=" << kernel.note << " timed=" << (kernel.compile_seconds > 0) << "\n";
    for (const recording::KernelStage& stage : kernel.stages)
      text << "  " << stage.name << "\n" << stage.text << "\n";
  }
  return text.str();
}

TEST_F(CpuExecutableTest, CompileThreadsLeaveRecordsAndResultsAsTheyAre) {
  const std::filesystem::path data = std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "tests" / "data";
  // Many distinct kernels and repeated ones; scan_grad's loop bodies are planned as programs of
  // their own, so their kernels are compiled with the entry's.
  for (const std::filesystem::path& file :
       {data / "training" / "bert_train_step.threefry.nometa.hlo",
        data / "training" / "scan_grad.hlo"}) {
    SCOPED_TRACE(file.filename().string());
    const std::string text = ReadFile(file);
    auto original = ir::ParseHloModule(text);
    ASSERT_TRUE(original.ok()) << original.message();
    passes::PipelineOptions pipeline;
    pipeline.target = "cpu";
    auto recording = recording::CompileAndRecord(text, pipeline, file.filename().string());
    ASSERT_TRUE(recording.ok()) << recording.message();
    auto compiled = recording->snapshots.back().ToModule();
    ASSERT_TRUE(compiled.ok()) << compiled.message();
    auto inputs = SeededInputs(*(*original)->entry(), 7);
    ASSERT_TRUE(inputs.ok()) << inputs.message();

    std::vector<std::string> described;
    std::vector<Literal> results;
    for (int threads : {1, 4}) {
      CpuExecutableOptions options;
      options.compile_threads = threads;
      auto executable = CpuExecutable::Compile(**compiled, options);
      ASSERT_TRUE(executable.ok()) << executable.message();
      const auto& kernels = (*executable)->kernels();
      described.push_back(DescribeRecords(kernels));
      auto result = (*executable)->Run(*inputs);
      ASSERT_TRUE(result.ok()) << result.message();
      results.push_back(std::move(result).value());
      if (threads > 1) continue;
      const auto compiled_count = std::count_if(kernels.begin(), kernels.end(), [](const auto& k) {
        return !k.stages.empty() && k.compile_seconds > 0;
      });
      const auto reused_count = std::count_if(kernels.begin(), kernels.end(), [](const auto& k) {
        return k.note.find("same kernel as an earlier one") != std::string::npos;
      });
      EXPECT_GE(compiled_count, 4) << (*executable)->KernelSummary();
      EXPECT_GE(reused_count, 1) << (*executable)->KernelSummary();
    }
    EXPECT_EQ(described[0], described[1]);
    const LiteralDifference difference = CompareLiterals(results[0], results[1], 0, 0);
    EXPECT_TRUE(difference.ok()) << "mismatches " << difference.mismatches;
  }
}

TEST_F(CpuExecutableTest, HostKernelsSayWhyAndLoopBodiesAreCompiled) {
  auto module = ir::ParseHloModule(R"(HloModule host
cond {
  s = s32[] parameter(0)
  ten = s32[] constant(10)
  ROOT lt = pred[] compare(s, ten), direction=LT
}
body {
  s = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT n = s32[] add(s, one)
}
ENTRY e {
  x = f32[5] parameter(0)
  i = s32[] parameter(1)
  w = s32[] while(i), condition=cond, body=body
  sorted = f32[5] sort(x), dimensions={0}, to_apply=lt_f32
  neg = f32[5] negate(sorted)
  ROOT t = (s32[], f32[5]) tuple(w, neg)
}
lt_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  // The while's condition (compare) and body (add) are kernels of their own; sort is not.
  EXPECT_EQ((*executable)->KernelSummary(), "4 kernels: 1 host (sort), 3 mlir-cpu");
  EXPECT_EQ((*executable)->LoopSummary(), "w on its own buffers");
  for (const recording::KernelRecord& kernel : (*executable)->kernels()) {
    if (kernel.backend == "host") {
      EXPECT_FALSE(kernel.note.empty());
      EXPECT_TRUE(kernel.stages.empty());
    }
  }
  auto result = (*executable)->Run({testing::F32({5}, {3, 1, 2, 5, 4}), testing::S32({}, {2})});
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(testing::Values(result->elements()[0]), std::vector<double>{10});
  EXPECT_EQ(testing::Values(result->elements()[1]), (std::vector<double>{-1, -2, -3, -4, -5}));
  // From 2 to 10: the body ran 8 times, the condition 9.
  std::vector<int64_t> executions;
  for (const KernelTiming& timing : (*executable)->last_timings())
    executions.push_back(timing.executions);
  std::sort(executions.begin(), executions.end());
  EXPECT_EQ(executions, (std::vector<int64_t>{1, 1, 8, 9}));
  // Without kernel clocks (profiling's plain runs): the same result, no timings.
  (*executable)->set_kernel_timing(false);
  auto plain = (*executable)->Run({testing::F32({5}, {3, 1, 2, 5, 4}), testing::S32({}, {2})});
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(testing::Values(plain->elements()[0]), std::vector<double>{10});
  for (const KernelTiming& timing : (*executable)->last_timings()) {
    EXPECT_EQ(timing.executions, 0);
    EXPECT_EQ(timing.seconds, 0);
  }
  CpuExecutableOptions limited;
  limited.max_while_iterations = 3;
  auto stopped = CpuExecutable::Compile(**module, limited);
  ASSERT_TRUE(stopped.ok());
  auto refused = (*stopped)->Run({testing::F32({5}, {3, 1, 2, 5, 4}), testing::S32({}, {2})});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("iteration limit"), std::string::npos) << refused.message();
}

TEST_F(CpuExecutableTest, RefusesValuesPastTheLiveByteLimitBeforeAllocating) {
  auto module = ir::ParseHloModule(R"(HloModule big
ENTRY e {
  p = f32[] parameter(0)
  ROOT b = f32[100000,100000,100] broadcast(p), dimensions={}
})");
  ASSERT_TRUE(module.ok());
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  auto result = (*executable)->Run({testing::F32({}, {1})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.message().find("limit"), std::string::npos) << result.message();
  EXPECT_NE(result.message().find("b:"), std::string::npos) << result.message();
}

TEST_F(CpuExecutableTest, WrongArgumentsAreOneClearError) {
  auto module = ir::ParseHloModule(
      "HloModule m\nENTRY e {\n p = f32[4] parameter(0)\n ROOT n = f32[4] negate(p)\n}\n");
  ASSERT_TRUE(module.ok());
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok());
  EXPECT_FALSE((*executable)->Run({}).ok());
  auto wrong = (*executable)->Run({testing::F32({3}, {1, 2, 3})});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.message().find("does not match"), std::string::npos) << wrong.message();
}

// --- the emitter and the kernel compiler on their own ---

const ir::Instruction& Root(const ir::Module& module) { return *module.entry()->root(); }

TEST(CpuKernelEmitterTest, RefusesWhatItCannotLowerNamingTheOpcode) {
  auto module = ir::ParseHloModule(R"(HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT c = f32[4] custom-call(p), custom_call_target="Secret"
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_FALSE(kernel.ok());
  EXPECT_NE(kernel.message().find("custom-call"), std::string::npos) << kernel.message();
  auto narrow = ir::ParseHloModule(
      "HloModule m\nENTRY e {\n p = c64[4] parameter(0)\n ROOT n = c64[4] negate(p)\n}\n");
  ASSERT_TRUE(narrow.ok());
  auto refused = EmitInstructionKernel(Root(**narrow));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("c64"), std::string::npos) << refused.message();
}

TEST(CpuKernelEmitterTest, EmitsOneFunctionOnStaticMemrefs) {
  auto module = ir::ParseHloModule(R"(HloModule m
ENTRY e {
  p = f32[2,3] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[3] reduce(p, zero), dimensions={0}, to_apply=add
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  const ir::Instruction& reduce = Root(**module);
  auto kernel = EmitInstructionKernel(reduce);
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  EXPECT_NE(kernel->text.find("func.func @kernel(%arg0: memref<2x3xf32>, %arg1: memref<f32>, "
                              "%out0: memref<3xf32>)"),
            std::string::npos)
      << kernel->text;
  // f32 sums accumulate in f64, as the interpreter does.
  EXPECT_NE(kernel->text.find("arith.extf"), std::string::npos) << kernel->text;
  EXPECT_EQ(kernel->input_shapes.size(), 2u);
  EXPECT_EQ(kernel->output_shapes.size(), 1u);
}

// A causal attention mask's row maximum: an iota compared along the reduced dimension inside
// the reduction. MLIR 19's super-vectorizer crashed the process on it (a jax model's dump);
// the kernel is lowered without it, says so, and gives the interpreter's numbers.
TEST_F(CpuExecutableTest, AReductionOfAnIotaIsLoweredWithoutTheVectorizer) {
  auto module = ir::ParseHloModule(R"(HloModule causal
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
fused {
  p = f32[2,24,24] parameter(0)
  rows = s32[24,24] iota(), iota_dimension=0
  columns = s32[24,24] iota(), iota_dimension=1
  causal = pred[24,24] compare(rows, columns), direction=GE
  mask = pred[2,24,24] broadcast(causal), dimensions={1,2}
  k = f32[] constant(-1e9)
  masked = f32[2,24,24] broadcast(k), dimensions={}
  s = f32[2,24,24] select(mask, p, masked)
  init = f32[] constant(-inf)
  ROOT r = f32[2,24] reduce(s, init), dimensions={2}, to_apply=max
}
ENTRY e {
  x = f32[2,24,24] parameter(0)
  ROOT f = f32[2,24] fusion(x), kind=kInput, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto kernel = EmitFusionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  EXPECT_FALSE(kernel->vectorizable);
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  ASSERT_EQ((*executable)->kernels().size(), 1u);
  EXPECT_EQ((*executable)->kernels()[0].backend, "mlir-cpu");
  EXPECT_THAT((*executable)->kernels()[0].note, ::testing::HasSubstr("a reduction of an iota"));
  auto inputs = SeededInputs(*(*module)->entry(), 5);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  auto actual = (*executable)->Run(*inputs);
  ASSERT_TRUE(expected.ok() && actual.ok());
  EXPECT_TRUE(actual->BitwiseEqual(*expected));
}

// A loop fusion whose root is a dynamic-update-slice of its buffer parameter: row `p0` of a
// 6x4 buffer written at row `p2`.
constexpr char kFillRow[] = R"(
fill {
  p0 = f32[4] parameter(0)
  p1 = f32[6,4] parameter(1)
  p2 = s32[] parameter(2)
  z = s32[] constant(0)
  r = f32[1,4] reshape(p0)
  ROOT d = f32[6,4] dynamic-update-slice(p1, r, p2, z)
}
)";
// An entry that fills row `at` of `buffer` with `row` through the fusion `fill`.
constexpr char kFillEntry[] = R"(
ENTRY e {
  row = f32[4] parameter(0)
  buffer = f32[6,4] parameter(1)
  at = s32[] parameter(2)
  ROOT f = f32[6,4] fusion(row, buffer, at), kind=kLoop, calls=fill
}
)";

TEST(CpuKernelEmitterTest, AnUpdatedBufferIsWrittenInPlaceOnlyWhenAsked) {
  auto module = ir::ParseHloModule(std::string("HloModule fill\n") + kFillRow + kFillEntry);
  ASSERT_TRUE(module.ok()) << module.message();
  auto copying = EmitFusionKernel(Root(**module));
  ASSERT_TRUE(copying.ok()) << copying.message();
  EXPECT_EQ(copying->in_place_input, -1);
  EXPECT_NE(copying->text.find("tensor.insert_slice"), std::string::npos) << copying->text;
  auto in_place = EmitFusionKernel(Root(**module), /*in_place=*/true);
  ASSERT_TRUE(in_place.ok()) << in_place.message();
  EXPECT_EQ(in_place->in_place_input, 1);
  EXPECT_EQ(in_place->text.find("tensor.insert_slice"), std::string::npos) << in_place->text;
  EXPECT_NE(in_place->text.find("memref.subview %out0"), std::string::npos) << in_place->text;
  // The buffer also read elsewhere in the kernel: the whole output is computed.
  auto twice = ir::ParseHloModule(R"(HloModule twice
fill {
  p0 = f32[4] parameter(0)
  p1 = f32[6,4] parameter(1)
  p2 = s32[] parameter(2)
  z = s32[] constant(0)
  s = f32[1,4] slice(p1), slice={[5:6], [0:4]}
  r = f32[1,4] reshape(p0)
  a = f32[1,4] add(r, s)
  ROOT d = f32[6,4] dynamic-update-slice(p1, a, p2, z)
}
)" + std::string(kFillEntry));
  ASSERT_TRUE(twice.ok()) << twice.message();
  auto read_twice = EmitFusionKernel(Root(**twice), /*in_place=*/true);
  ASSERT_TRUE(read_twice.ok()) << read_twice.message();
  EXPECT_EQ(read_twice->in_place_input, -1);
}

// A scan: a while loop fills a buffer a row at a time (the buffer handed from step to step,
// updated in place), a second loop starts from the same state (the first must copy it, the
// second may take it over), then the entry updates a buffer the caller owns and one it reads
// again afterwards, both of which must be left as they were.
TEST_F(CpuExecutableTest, InPlaceUpdatesNeverChangeAValueSomethingStillReads) {
  // Each fusion calls a computation of its own.
  std::string fills = kFillRow;
  for (const char* name : {"fill_caller", "fill_read"}) {
    std::string copy = kFillRow;
    copy.replace(copy.find("fill"), 4, name);
    fills += copy;
  }
  auto module = ir::ParseHloModule(std::string("HloModule scan\n") + fills + R"(
cond {
  t = (s32[], f32[4], f32[6,4]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(6)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], f32[4], f32[6,4]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  h = f32[4] get-tuple-element(t), index=1
  buffer = f32[6,4] get-tuple-element(t), index=2
  one = s32[] constant(1)
  next = s32[] add(i, one)
  step = f32[4] constant({1, 2, 3, 4})
  h1 = f32[4] add(h, step)
  d = f32[6,4] fusion(h1, buffer, i), kind=kLoop, calls=fill
  ROOT out = (s32[], f32[4], f32[6,4]) tuple(next, h1, d)
}
ENTRY e {
  h0 = f32[4] parameter(0)
  buffer0 = f32[6,4] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[4], f32[6,4]) tuple(zero, h0, buffer0)
  w = (s32[], f32[4], f32[6,4]) while(init), condition=cond, body=body
  filled = f32[6,4] get-tuple-element(w), index=2
  w2 = (s32[], f32[4], f32[6,4]) while(init), condition=cond, body=body
  again = f32[6,4] get-tuple-element(w2), index=2
  two = s32[] constant(2)
  callers = f32[6,4] fusion(h0, buffer0, two), kind=kLoop, calls=fill_caller
  negated = f32[6,4] negate(buffer0)
  updated = f32[6,4] fusion(h0, negated, two), kind=kLoop, calls=fill_read
  both = f32[6,4] add(negated, updated)
  ROOT r = (f32[6,4], f32[6,4], f32[6,4], f32[6,4], f32[6,4]) tuple(filled, callers, both, buffer0, again)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  int64_t in_place = 0;
  for (const recording::KernelRecord& kernel : (*executable)->kernels()) {
    if (kernel.note.find("in place: writes only the window") != std::string::npos) ++in_place;
  }
  EXPECT_EQ(in_place, 3) << (*executable)->KernelSummary();
  std::vector<double> buffer(24);
  for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = 100 + static_cast<double>(i);
  const std::vector<Literal> arguments = {testing::F32({4}, {0, 0, 0, 0}),
                                          testing::F32({6, 4}, buffer)};
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.message();
  for (int run = 0; run < 2; ++run) {  // the second run reuses the first one's buffers
    auto actual = (*executable)->Run(arguments);
    ASSERT_TRUE(actual.ok()) << actual.message();
    EXPECT_TRUE(actual->BitwiseEqual(*expected)) << actual->ToString();
    const std::vector<Literal>& results = actual->elements();
    // Row k of the scan is step * (k + 1).
    EXPECT_EQ(testing::Values(results[0])[4 * 5 + 3], 4 * 6);
    EXPECT_EQ(testing::Values(results[1])[2 * 4], 0);    // row 2 replaced by h0
    EXPECT_EQ(testing::Values(results[1])[3 * 4], 112);  // the rest is the caller's buffer
    // negated + updated: row 2 is -buffer + h0, the others -2 * buffer.
    EXPECT_EQ(testing::Values(results[2])[2 * 4], -108);
    EXPECT_EQ(testing::Values(results[2])[0], -200);
    EXPECT_EQ(testing::Values(results[3]), buffer);
    EXPECT_EQ(testing::Values(arguments[1]), buffer);
    // The second loop started from the same state: the first one, which did not read it last,
    // copied it; the second took it over.
    EXPECT_EQ(testing::Values(results[4]), testing::Values(results[0]));
  }
}

// A loop whose body shuffles its state: two elements swap places, one value is passed on
// twice, a constant becomes an element, and an in-place update's operand is read again after
// it (so the update must work on a copy). On its own buffers (the flat loop) it must compute
// what the interpreter does, bitwise, run after run, and what the value-by-value path does.
TEST_F(CpuExecutableTest, ALoopOnItsOwnBuffersKeepsEveryValueItsStateStillNeeds) {
  auto module = ir::ParseHloModule(std::string("HloModule shuffle\n") + kFillRow + R"(
cond {
  t = (s32[], f32[4], f32[4], f32[6,4], f32[6,4], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], f32[4], f32[4], f32[6,4], f32[6,4], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  a = f32[4] get-tuple-element(t), index=1
  b = f32[4] get-tuple-element(t), index=2
  buffer = f32[6,4] get-tuple-element(t), index=3
  kept = f32[4] get-tuple-element(t), index=6
  one = s32[] constant(1)
  next = s32[] add(i, one)
  ab = f32[4] add(a, b)
  abk = f32[4] add(ab, kept)
  d = f32[6,4] fusion(abk, buffer, i), kind=kLoop, calls=fill
  negated = f32[6,4] negate(buffer)
  c = f32[4] constant({7, 8, 9, 10})
  ROOT out = (s32[], f32[4], f32[4], f32[6,4], f32[6,4], f32[4], f32[4]) tuple(next, b, ab, d, negated, ab, c)
}
ENTRY e {
  a0 = f32[4] parameter(0)
  b0 = f32[4] parameter(1)
  buffer0 = f32[6,4] parameter(2)
  zero = s32[] constant(0)
  init = (s32[], f32[4], f32[4], f32[6,4], f32[6,4], f32[4], f32[4]) tuple(zero, a0, b0, buffer0, buffer0, a0, b0)
  ROOT w = (s32[], f32[4], f32[4], f32[6,4], f32[6,4], f32[4], f32[4]) while(init), condition=cond, body=body
})");
  ASSERT_TRUE(module.ok()) << module.message();
  std::vector<double> buffer(24);
  for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = 100 + static_cast<double>(i);
  const std::vector<Literal> arguments = {testing::F32({4}, {1, 2, 3, 4}),
                                          testing::F32({4}, {0.5, -1, 2, -3}),
                                          testing::F32({6, 4}, buffer)};
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.message();
  for (bool flat : {true, false}) {
    CpuExecutableOptions options;
    options.flat_loops = flat;
    auto executable = CpuExecutable::Compile(**module, options);
    ASSERT_TRUE(executable.ok()) << executable.message();
    EXPECT_EQ((*executable)->LoopSummary(),
              flat ? "w on its own buffers" : "w value by value (flat loops are off)");
    for (int run = 0; run < 3; ++run) {
      auto actual = (*executable)->Run(arguments);
      ASSERT_TRUE(actual.ok()) << actual.message();
      EXPECT_TRUE(actual->BitwiseEqual(*expected))
          << (flat ? "flat" : "value by value") << " run " << run << ": " << actual->ToString()
          << "\nexpected " << expected->ToString();
    }
    // The arguments are left as they were.
    EXPECT_EQ(testing::Values(arguments[2]), buffer);
  }
  const std::vector<Literal>& state = expected->elements();
  EXPECT_EQ(testing::Values(state[0]), std::vector<double>{5});
  EXPECT_EQ(testing::Values(state[6]), (std::vector<double>{7, 8, 9, 10}));
  // (a, b) <- (b, a + b) five times: a = 3 a0 + 5 b0, b = 5 a0 + 8 b0.
  EXPECT_EQ(testing::Values(state[1]), (std::vector<double>{5.5, 1, 19, -3}));
  EXPECT_EQ(testing::Values(state[2]), (std::vector<double>{9, 2, 31, -4}));
  EXPECT_EQ(testing::Values(state[5]), testing::Values(state[2]));
  // Row 0: a0 + b0 + b0 (the kept element before the constant replaced it); row 4: the last
  // a + b, plus the constant.
  const std::vector<double> rows = testing::Values(state[3]);
  EXPECT_EQ(std::vector<double>(rows.begin(), rows.begin() + 4),
            (std::vector<double>{2, 0, 7, -2}));
  EXPECT_EQ(std::vector<double>(rows.begin() + 16, rows.begin() + 20),
            (std::vector<double>{16, 10, 40, 6}));
}

// A loop's result read by several get-tuple-elements: each read but the last copies its
// element, the last moves it out; reading the same element twice must still see it twice.
TEST_F(CpuExecutableTest, TheLastReadOfALoopsResultTakesItsElement) {
  auto module = ir::ParseHloModule(R"(HloModule reads
cond {
  t = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  x = f32[4] get-tuple-element(t), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  doubled = f32[4] add(x, x)
  ROOT out = (s32[], f32[4]) tuple(next, doubled)
}
ENTRY e {
  x0 = f32[4] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, x0)
  w = (s32[], f32[4]) while(init), condition=cond, body=body
  first = f32[4] get-tuple-element(w), index=1
  steps = s32[] get-tuple-element(w), index=0
  sum = f32[4] add(first, first)
  last = f32[4] get-tuple-element(w), index=1
  ROOT r = (f32[4], f32[4], s32[]) tuple(sum, last, steps)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  const std::vector<Literal> arguments = {testing::F32({4}, {1, -2, 0.5, 3})};
  for (int run = 0; run < 2; ++run) {
    auto result = (*executable)->Run(arguments);
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_EQ(testing::Values(result->elements()[0]), (std::vector<double>{16, -32, 8, 48}));
    EXPECT_EQ(testing::Values(result->elements()[1]), (std::vector<double>{8, -16, 4, 24}));
    EXPECT_EQ(testing::Values(result->elements()[2]), std::vector<double>{3});
  }
}

// A loop with a step no kernel runs is planned value by value, and says which step.
TEST_F(CpuExecutableTest, ALoopWithAHostStepSaysWhyItRunsValueByValue) {
  auto module = ir::ParseHloModule(R"(HloModule sorted
lt_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}
cond {
  t = (s32[], f32[5]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  t = (s32[], f32[5]) parameter(0)
  i = s32[] get-tuple-element(t), index=0
  x = f32[5] get-tuple-element(t), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  negated = f32[5] negate(x)
  sorted = f32[5] sort(negated), dimensions={0}, to_apply=lt_f32
  ROOT out = (s32[], f32[5]) tuple(next, sorted)
}
ENTRY e {
  x = f32[5] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[5]) tuple(zero, x)
  ROOT w = (s32[], f32[5]) while(init), condition=cond, body=body
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  EXPECT_EQ((*executable)->LoopSummary(), "w value by value: sorted (sort) runs on the host");
  auto result = (*executable)->Run({testing::F32({5}, {3, 1, 2, 5, 4})});
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(testing::Values(result->elements()[1]), (std::vector<double>{-5, -4, -3, -2, -1}));
}

TEST(CpuLoweringOptionsTest, ParsesAndPrints) {
  auto options = LoweringOptions::Parse("tile=32 vector=4");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->tile, 32);
  EXPECT_EQ(options->vector, 4);
  EXPECT_EQ(options->ToString(), "tile=32 vector=4");
  EXPECT_EQ(LoweringOptions{}.ToString(), "tile=0 vector=8");
  auto exact = LoweringOptions::Parse("approx=0");
  ASSERT_TRUE(exact.ok());
  EXPECT_FALSE(exact->approximate_math);
  EXPECT_EQ(exact->ToString(), "tile=0 vector=8 approx=0");
  EXPECT_FALSE(LoweringOptions::Parse("approx=2").ok());
  EXPECT_FALSE(LoweringOptions::Parse("tile=x").ok());
  auto unrolled = LoweringOptions::Parse("unroll=2 tile=16");
  ASSERT_TRUE(unrolled.ok());
  EXPECT_EQ(unrolled->ToString(), "tile=16 vector=8 unroll=2");
  EXPECT_EQ(LoweringOptions::Parse("unroll=1")->ToString(), "tile=0 vector=8");  // unrolls nothing
  EXPECT_FALSE(LoweringOptions::Parse("unroll=65").ok());
  EXPECT_FALSE(LoweringOptions::Parse("interchange=1").ok());
  EXPECT_FALSE(LoweringOptions::Parse("tile").ok());
}

// One kernel built with its own configuration, the others with the executable's; the outputs
// stay the interpreter's.
TEST_F(CpuExecutableTest, PerKernelConfigurationsApplyToTheirKernelOnly) {
  if (!KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR kernel compiler";
  const std::string text(resources::FindSample("bert_encoder").text);
  auto module = ir::ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 5);
  ASSERT_TRUE(inputs.ok());
  auto plain = CpuExecutable::Compile(**module);
  ASSERT_TRUE(plain.ok()) << plain.message();
  std::string chosen;
  for (const recording::KernelRecord& record : (*plain)->kernels())
    if (record.backend == "mlir-cpu" && chosen.empty()) chosen = record.kernel;
  ASSERT_FALSE(chosen.empty());
  CpuExecutableOptions options;
  auto config = KernelConfig::Parse("tile=16 vector=4 unroll=2");
  ASSERT_TRUE(config.ok());
  options.kernel_configs[chosen] = *config;
  options.compilers = std::make_shared<KernelCompilerPool>();
  auto tuned = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(tuned.ok()) << tuned.message();
  for (const recording::KernelRecord& record : (*tuned)->kernels()) {
    if (record.backend != "mlir-cpu") continue;
    if (record.kernel == chosen) {
      EXPECT_EQ(record.options, "tile=16 vector=4 unroll=2");
    } else {
      EXPECT_NE(record.options.find("tile=0"), std::string::npos) << record.kernel;
    }
  }
  auto expected = (*plain)->Run(*inputs);
  auto got = (*tuned)->Run(*inputs);
  ASSERT_TRUE(expected.ok() && got.ok());
  LiteralDifference difference = CompareLiterals(*got, *expected, 1e-5, 1e-6);
  EXPECT_TRUE(difference.ok()) << difference.max_abs_error;
  // A second executable sharing the pool compiles only what it has not seen.
  auto again = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(again.ok());
  for (const recording::KernelRecord& record : (*again)->kernels())
    EXPECT_EQ(record.compile_seconds, 0) << record.kernel << " compiled again";
}

// A kernel's configuration sets its library's thread count for its calls: the record says
// so, and the output is the plain build's.
TEST_F(CpuExecutableTest, AKernelsThreadCountReachesItsLibraryCall) {
  const std::string text(resources::FindSample("mlp").text);
  auto module = ir::ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 5);
  ASSERT_TRUE(inputs.ok());
  auto plain = CpuExecutable::Compile(**module);
  ASSERT_TRUE(plain.ok()) << plain.message();
  std::string dot;
  for (const recording::KernelRecord& record : (*plain)->kernels())
    if (record.backend == "openblas" && dot.empty()) dot = record.kernel;
  ASSERT_FALSE(dot.empty());
  CpuExecutableOptions options;
  auto config = KernelConfig::Parse("gemm=openblas threads=1");
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->ToString(), "gemm=openblas threads=1");
  options.kernel_configs[dot] = *config;
  auto one = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(one.ok()) << one.message();
  bool found = false;
  for (const recording::KernelRecord& record : (*one)->kernels()) {
    if (record.kernel != dot) continue;
    found = true;
    EXPECT_NE(record.note.find(" on 1 thread"), std::string::npos) << record.note;
  }
  EXPECT_TRUE(found);
  auto expected = (*plain)->Run(*inputs);
  auto got = (*one)->Run(*inputs);
  ASSERT_TRUE(expected.ok() && got.ok());
  LiteralDifference difference = CompareLiterals(*got, *expected, 1e-6, 1e-7);
  EXPECT_TRUE(difference.ok()) << difference.max_abs_error;
  EXPECT_FALSE(KernelConfig::Parse("gemm=blis threads=many").ok());
}

// A dot given our MLIR matmul is compiled with the executable, not at its first run: the
// build's time includes it and its record holds the matmul's stages from the start.
// `executable` (single precision) gives what the default library's build of `module` gives on
// seeded inputs.
void ExpectSameAsTheDefaultLibrary(const ir::Module& module, CpuExecutable& executable) {
  auto inputs = SeededInputs(*module.entry(), 3);
  ASSERT_TRUE(inputs.ok());
  CpuExecutableOptions native;
  native.f32_dot_precision = BlasPrecision::kNative;
  auto plain = CpuExecutable::Compile(module, native);
  ASSERT_TRUE(plain.ok()) << plain.message();
  auto expected = (*plain)->Run(*inputs);
  auto got = executable.Run(*inputs);
  ASSERT_TRUE(expected.ok() && got.ok());
  LiteralDifference difference = CompareLiterals(*got, *expected, 1e-5, 1e-6);
  EXPECT_TRUE(difference.ok()) << difference.max_abs_error;
}

TEST_F(CpuExecutableTest, AnMlirMatmulCompilesWithTheExecutable) {
  if (!GemmLibraryAvailable(GemmLibrary::kMlir).ok())
    GTEST_SKIP() << GemmLibraryAvailable(GemmLibrary::kMlir).message();
  constexpr char kDot[] =
      "HloModule m\nENTRY e {\n a = f32[8,16] parameter(0)\n b = f32[4,16] parameter(1)\n ROOT d "
      "= f32[8,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n";
  auto module = ir::ParseHloModule(kDot);
  ASSERT_TRUE(module.ok()) << module.message();
  CpuExecutableOptions options;
  // Single precision, as a comparison runs it: the GEMM reads B transposed in place.
  options.f32_dot_precision = BlasPrecision::kNative;
  auto config = KernelConfig::Parse("gemm=mlir");
  ASSERT_TRUE(config.ok()) << config.message();
  options.kernel_configs["d"] = *config;
  auto executable = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(executable.ok()) << executable.message();
  ASSERT_EQ((*executable)->kernels().size(), 1u);
  const recording::KernelRecord& record = (*executable)->kernels()[0];
  EXPECT_EQ(record.kernel, "d");
  EXPECT_EQ(record.backend, "mlir");
  EXPECT_THAT(record.note, ::testing::HasSubstr("B transposed"));
  EXPECT_FALSE(record.stages.empty()) << "the matmul was not compiled with the executable";
  EXPECT_GT(record.compile_seconds, 0);
  EXPECT_TRUE(record.error.empty()) << record.error;
  ExpectSameAsTheDefaultLibrary(**module, **executable);
}

// The same for a convolution's GEMM, in both layouts: NHWC (patches x weights) and NCHW (the
// channels-first GEMM), compiled when the executable is built.
TEST_F(CpuExecutableTest, AConvolutionsMlirMatmulCompilesWithTheExecutable) {
  if (!GemmLibraryAvailable(GemmLibrary::kMlir).ok())
    GTEST_SKIP() << GemmLibraryAvailable(GemmLibrary::kMlir).message();
  for (const char* convolution :
       {"a = f32[2,6,6,3] parameter(0)\n b = f32[3,3,3,4] parameter(1)\n ROOT c = f32[2,6,6,4] "
        "convolution(a, b), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f",
        "a = f32[2,3,6,6] parameter(0)\n b = f32[4,3,3,3] parameter(1)\n ROOT c = f32[2,4,6,6] "
        "convolution(a, b), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"}) {
    SCOPED_TRACE(convolution);
    auto module = ir::ParseHloModule(std::string("HloModule m\nENTRY e {\n ") + convolution +
                                     "\n}\n");
    ASSERT_TRUE(module.ok()) << module.message();
    CpuExecutableOptions options;
    options.f32_dot_precision = BlasPrecision::kNative;
    options.kernel_configs["c"] = KernelConfig::Parse("gemm=mlir").value();
    auto executable = CpuExecutable::Compile(**module, options);
    ASSERT_TRUE(executable.ok()) << executable.message();
    ASSERT_EQ((*executable)->kernels().size(), 1u);
    const recording::KernelRecord& record = (*executable)->kernels()[0];
    EXPECT_EQ(record.backend, "mlir");
    EXPECT_FALSE(record.stages.empty()) << "the matmul was not compiled with the executable";
    EXPECT_GT(record.compile_seconds, 0);
    ExpectSameAsTheDefaultLibrary(**module, **executable);
  }
}

// An f32 convolution at single precision runs as oneDNN's own convolution on one thread
// unless its configuration names a library, or it is small enough to compile as a loop nest of
// our own; widened to f64 (run's default), or named, it runs as that library's im2col GEMM.
// Each matches the interpreter.
TEST_F(CpuExecutableTest, AnF32ConvolutionRunsAsOneDnnsOwnUnlessALibraryIsNamed) {
  if (!GemmLibraryAvailable(GemmLibrary::kOneDnn, GemmType::kF32).ok())
    GTEST_SKIP() << GemmLibraryAvailable(GemmLibrary::kOneDnn, GemmType::kF32).message();
  if (!HostVectorFeatures().avx2_fma)
    GTEST_SKIP() << "without AVX2 oneDNN may have only its reference convolution kernels";
  constexpr char kConvolution[] =
      "HloModule m\nENTRY e {\n a = f32[2,8,8,16] parameter(0)\n b = f32[3,3,16,8] "
      "parameter(1)\n ROOT c = f32[2,8,8,8] convolution(a, b), window={size=3x3 pad=1_1x1_1}, "
      "dim_labels=b01f_01io->b01f\n}\n";
  auto module = ir::ParseHloModule(kConvolution);
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 3);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  struct Case {
    BlasPrecision precision;
    const char* config;  // "" for none
    const char* backend;
    const char* note;
    int64_t emitted_max_macs;
  };
  // 147k multiply-adds: compiled as our own loop nest by default, through oneDNN above the
  // size we compile.
  for (const Case& c :
       {Case{BlasPrecision::kNative, "", "onednn", "oneDNN convolution ", 0},
        Case{BlasPrecision::kNative, "", "mlir-cpu", "a small convolution, compiled", 1 << 18},
        Case{BlasPrecision::kWidened, "", "openblas", "im2col + cblas_dgemm", 1 << 18},
        Case{BlasPrecision::kNative, "gemm=openblas", "openblas", "im2col + cblas_sgemm",
             1 << 18}}) {
    SCOPED_TRACE(std::string(c.config) + (c.precision == BlasPrecision::kNative ? " f32" : " f64") +
                 " " + c.backend);
    CpuExecutableOptions options;
    options.f32_dot_precision = c.precision;
    options.emitted_convolution_max_macs = c.emitted_max_macs;
    if (*c.config != '\0') options.kernel_configs["c"] = KernelConfig::Parse(c.config).value();
    auto executable = CpuExecutable::Compile(**module, options);
    ASSERT_TRUE(executable.ok()) << executable.message();
    ASSERT_EQ((*executable)->kernels().size(), 1u);
    const recording::KernelRecord& record = (*executable)->kernels()[0];
    EXPECT_EQ(record.backend, c.backend);
    EXPECT_EQ(record.note.rfind(c.note, 0), 0u) << record.note;
    if (record.backend == "onednn") {
      EXPECT_NE(record.note.find("on 1 thread"), std::string::npos);
    }
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    const LiteralDifference difference = CompareLiterals(*actual, *expected, 1e-5, 1e-5);
    EXPECT_TRUE(difference.ok()) << difference.max_abs_error;
  }
  // From 16M multiply-adds (here 75M) oneDNN has every core.
  auto large = ir::ParseHloModule(
      "HloModule m\nENTRY e {\n a = f32[2,32,32,64] parameter(0)\n b = f32[3,3,64,64] "
      "parameter(1)\n ROOT c = f32[2,32,32,64] convolution(a, b), window={size=3x3 pad=1_1x1_1}, "
      "dim_labels=b01f_01io->b01f\n}\n");
  ASSERT_TRUE(large.ok()) << large.message();
  CpuExecutableOptions native;
  native.f32_dot_precision = BlasPrecision::kNative;
  auto parallel = CpuExecutable::Compile(**large, native);
  ASSERT_TRUE(parallel.ok()) << parallel.message();
  const recording::KernelRecord& record = (*parallel)->kernels().at(0);
  EXPECT_EQ(record.backend, "onednn");
  EXPECT_EQ(record.note.find(" thread"), std::string::npos) << record.note;
}

// A strided window keeps MLIR from vectorizing a convolution's loop nest: above its own,
// smaller bound (here 147k multiply-adds, a U-Net block's downsampling convolution) it goes to
// a library; raised, the same convolution compiles as our loop nest. Both match the
// interpreter.
TEST_F(CpuExecutableTest, AStridedConvolutionOverItsBoundCallsALibrary) {
  auto module = ir::ParseHloModule(
      "HloModule m\nENTRY e {\n a = f32[1,16,16,16] parameter(0)\n b = f32[3,3,16,16] "
      "parameter(1)\n ROOT c = f32[1,8,8,16] convolution(a, b), window={size=3x3 stride=2x2 "
      "pad=0_1x0_1}, dim_labels=b01f_01io->b01f\n}\n");
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 3);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  for (const int64_t bound : {int64_t{1} << 15, int64_t{1} << 18}) {
    SCOPED_TRACE(bound);
    CpuExecutableOptions options;
    options.f32_dot_precision = BlasPrecision::kNative;
    options.emitted_unvectorized_convolution_max_macs = bound;
    auto executable = CpuExecutable::Compile(**module, options);
    ASSERT_TRUE(executable.ok()) << executable.message();
    ASSERT_EQ((*executable)->kernels().size(), 1u);
    const recording::KernelRecord& record = (*executable)->kernels()[0];
    if (bound < 147456) {
      EXPECT_NE(record.backend, "mlir-cpu") << record.note;
    } else {
      EXPECT_EQ(record.backend, "mlir-cpu");
      EXPECT_NE(record.note.find(kSmallConvolutionNote), std::string::npos) << record.note;
      EXPECT_NE(record.note.find("compiled without vectorization"), std::string::npos)
          << record.note;
    }
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    const LiteralDifference difference = CompareLiterals(*actual, *expected, 1e-5, 1e-5);
    EXPECT_TRUE(difference.ok()) << difference.max_abs_error;
  }
}

// XLA:CPU fuses a transpose and copy into a dot's operand (a decoder's copy_dot_fusion): the
// emitter has no dot, so the fusion's computation runs op by op, kernels and a library call,
// nothing on the host, with the interpreter's numbers.
TEST_F(CpuExecutableTest, ALoopFusionAroundADotRunsOpByOp) {
  auto module = ir::ParseHloModule(R"(HloModule copy_dot
fused {
  embedding = f32[50,32] parameter(0)
  row = f32[1,32] parameter(1)
  x = f32[32] bitcast(row)
  t = f32[32,50]{0,1} transpose(embedding), dimensions={1,0}
  c = f32[32,50] copy(t)
  ROOT d = f32[50] dot(x, c), lhs_contracting_dims={0}, rhs_contracting_dims={0}
}
ENTRY e {
  embedding = f32[50,32] parameter(0)
  row = f32[1,32] parameter(1)
  ROOT f = f32[50] fusion(embedding, row), kind=kLoop, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  for (const recording::KernelRecord& record : (*executable)->kernels())
    EXPECT_NE(record.backend, "host") << record.kernel << ": " << record.note;
  EXPECT_NE((*executable)->KernelSummary().find("1 openblas"), std::string::npos)
      << (*executable)->KernelSummary();
  auto inputs = SeededInputs(*(*module)->entry(), 11);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto actual = (*executable)->Run(*inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();
  EXPECT_TRUE(actual->BitwiseEqual(*expected)) << actual->ToString();
}

// The same fusion inside a loop's body (the decoder's own shape: the row a step picks read as
// a vector by a bitcast, then the dot) joins the loop's own buffers op by op, and so does a
// fusion with two outputs (an argmax's value and index) read element by element, with the
// bits the loop run value by value gives.
TEST_F(CpuExecutableTest, ALoopWhoseBodyRunsAFusionOpByOpRunsOnItsOwnBuffers) {
  auto module = ir::ParseHloModule(R"(HloModule copy_dot_loop
fused {
  embedding = f32[50,32] parameter(0)
  row = f32[1,32] parameter(1)
  x = f32[32] bitcast(row)
  t = f32[32,50]{0,1} transpose(embedding), dimensions={1,0}
  c = f32[32,50] copy(t)
  ROOT d = f32[50] dot(x, c), lhs_contracting_dims={0}, rhs_contracting_dims={0}
}
squash {
  v = f32[50] parameter(0)
  ROOT t = f32[50] tanh(v)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
stats {
  v = f32[50] parameter(0)
  zero = f32[] constant(0)
  low = f32[] constant(-inf)
  total = f32[] reduce(v, zero), dimensions={0}, to_apply=add
  top = f32[] reduce(v, low), dimensions={0}, to_apply=max
  ROOT t = (f32[], f32[]) tuple(total, top)
}
pick {
  logits = f32[50] parameter(0)
  head = f32[32] slice(logits), slice={[0:32]}
  ROOT r = f32[1,32] reshape(head)
}
body {
  s = (s32[], f32[50,32], f32[1,32], f32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  embedding = f32[50,32] get-tuple-element(s), index=1
  row = f32[1,32] get-tuple-element(s), index=2
  sum = f32[] get-tuple-element(s), index=3
  one = s32[] constant(1)
  next = s32[] add(i, one)
  logits = f32[50] fusion(embedding, row), kind=kLoop, calls=fused
  squashed = f32[50] fusion(logits), kind=kLoop, calls=squash
  picked = f32[1,32] fusion(squashed), kind=kLoop, calls=pick
  both = (f32[], f32[]) fusion(squashed), kind=kLoop, calls=stats
  total = f32[] get-tuple-element(both), index=0
  top = f32[] get-tuple-element(both), index=1
  sum1 = f32[] add(sum, total)
  ROOT n = (s32[], f32[50,32], f32[1,32], f32[], f32[]) tuple(next, embedding, picked, sum1, top)
}
cond {
  s = (s32[], f32[50,32], f32[1,32], f32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  steps = s32[] constant(6)
  ROOT lt = pred[] compare(i, steps), direction=LT
}
ENTRY e {
  embedding = f32[50,32] parameter(0)
  row = f32[1,32] parameter(1)
  zero = s32[] constant(0)
  nothing = f32[] constant(0)
  start = (s32[], f32[50,32], f32[1,32], f32[], f32[]) tuple(zero, embedding, row, nothing, nothing)
  ROOT loop = (s32[], f32[50,32], f32[1,32], f32[], f32[]) while(start), condition=cond, body=body
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  EXPECT_EQ((*executable)->LoopSummary(), "loop on its own buffers");
  CpuExecutableOptions value_by_value;
  value_by_value.flat_loops = false;
  auto general = CpuExecutable::Compile(**module, value_by_value);
  ASSERT_TRUE(general.ok()) << general.message();
  auto inputs = SeededInputs(*(*module)->entry(), 3);
  ASSERT_TRUE(inputs.ok());
  auto expected = (*general)->Run(*inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  for (int run = 0; run < 2; ++run) {
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    EXPECT_TRUE(actual->BitwiseEqual(*expected)) << actual->ToString();
  }
  // The kernels' tanh is a polynomial: within a few ulps of the interpreter's.
  Interpreter interpreter;
  auto reference = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(reference.ok()) << reference.message();
  const LiteralDifference difference = CompareLiterals(*expected, *reference, 1e-5, 1e-5);
  EXPECT_TRUE(difference.ok()) << difference.max_abs_error;
}

// Fusions whose rows are independent run cut into blocks of rows, one per thread at once: a
// softmax, an output fusion's epilogue after its dot, and a fusion in a loop's body on the
// loop's own buffers. Each gives the bits the whole kernel gives; a fusion that transposes
// its rows stays whole.
TEST_F(CpuExecutableTest, LargeFusionsRunInBlocksOfRowsWithTheWholeKernelsBits) {
  auto module = ir::ParseHloModule(R"(HloModule blocks
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
softmax {
  x = f32[256,512] parameter(0)
  low = f32[] constant(-inf)
  top = f32[256] reduce(x, low), dimensions={1}, to_apply=max
  tops = f32[256,512] broadcast(top), dimensions={0}
  shifted = f32[256,512] subtract(x, tops)
  ROOT e = f32[256,512] exponential(shifted)
}
gelu {
  a = f32[256,64] parameter(0)
  w = f32[64,512] parameter(1)
  bias = f32[512] parameter(2)
  d = f32[256,512] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  wide = f32[256,512] broadcast(bias), dimensions={1}
  y = f32[256,512] add(d, wide)
  ROOT t = f32[256,512] tanh(y)
}
flip {
  x = f32[256,512] parameter(0)
  ROOT t = f32[512,256] transpose(x), dimensions={1,0}
}
step {
  x = f32[256,512] parameter(0)
  half = f32[] constant(0.5)
  halves = f32[256,512] broadcast(half), dimensions={}
  m = f32[256,512] multiply(x, halves)
  ROOT t = f32[256,512] tanh(m)
}
body {
  s = (s32[], f32[256,512]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[256,512] get-tuple-element(s), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  stepped = f32[256,512] fusion(x), kind=kLoop, calls=step
  ROOT n = (s32[], f32[256,512]) tuple(next, stepped)
}
cond {
  s = (s32[], f32[256,512]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}
ENTRY e {
  x = f32[256,512] parameter(0)
  a = f32[256,64] parameter(1)
  w = f32[64,512] parameter(2)
  bias = f32[512] parameter(3)
  soft = f32[256,512] fusion(x), kind=kLoop, calls=softmax
  act = f32[256,512] fusion(a, w, bias), kind=kOutput, calls=gelu
  flipped = f32[512,256] fusion(soft), kind=kLoop, calls=flip
  zero = s32[] constant(0)
  start = (s32[], f32[256,512]) tuple(zero, act)
  loop = (s32[], f32[256,512]) while(start), condition=cond, body=body
  looped = f32[256,512] get-tuple-element(loop), index=1
  ROOT r = (f32[512,256], f32[256,512]) tuple(flipped, looped)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 5);
  ASSERT_TRUE(inputs.ok());
  CpuExecutableOptions options;
  options.f32_dot_precision = BlasPrecision::kNative;
  options.row_block_threads = 2;  // two blocks on any machine, one core or many
  auto blocked = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(blocked.ok()) << blocked.message();
  std::map<std::string, std::string> notes;
  for (const recording::KernelRecord& record : (*blocked)->kernels())
    notes[record.kernel] = record.note;
  for (const char* name : {"soft", "act", "stepped"}) {
    EXPECT_THAT(notes[name], ::testing::HasSubstr("runs as 2 blocks of 128 rows")) << name;
  }
  EXPECT_THAT(notes["flipped"], ::testing::Not(::testing::HasSubstr("blocks"))) << notes["flipped"];
  EXPECT_THAT((*blocked)->LoopSummary(), ::testing::HasSubstr("on its own buffers"));
  options.row_block_min_bytes = 0;
  auto whole = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(whole.ok()) << whole.message();
  for (const recording::KernelRecord& record : (*whole)->kernels())
    EXPECT_THAT(record.note, ::testing::Not(::testing::HasSubstr("blocks"))) << record.kernel;
  auto expected = (*whole)->Run(*inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  for (int run = 0; run < 3; ++run) {
    auto actual = (*blocked)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    EXPECT_TRUE(actual->BitwiseEqual(*expected)) << "run " << run;
  }
  Interpreter interpreter;
  auto reference = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(reference.ok()) << reference.message();
  const LiteralDifference difference = CompareLiterals(*expected, *reference, 1e-4, 1e-4);
  EXPECT_TRUE(difference.ok()) << difference.max_abs_error;
}

// f32 dots whose configuration names no library: through oneDNN from 64^3 multiply-adds per
// GEMM (on one thread below 2^20 in all, on every core above), through OpenBLAS below 64^3,
// at widened precision, where a configuration names OpenBLAS, or with the choice off.
TEST_F(CpuExecutableTest, LargeF32DotsRunThroughOneDnnAndSmallOnesThroughOpenBlas) {
  if (!GemmLibraryAvailable(GemmLibrary::kOneDnn, GemmType::kF32).ok())
    GTEST_SKIP() << GemmLibraryAvailable(GemmLibrary::kOneDnn, GemmType::kF32).message();
  auto module = ir::ParseHloModule(R"(HloModule dots
ENTRY e {
  a = f32[128,256] parameter(0)
  b = f32[256,256] parameter(1)
  large = f32[128,256] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  c = f32[64,64] parameter(2)
  d = f32[64,128] parameter(3)
  middle = f32[64,128] dot(c, d), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[16,16] parameter(4)
  small = f32[16,16] dot(e, e), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[128,256], f32[64,128], f32[16,16]) tuple(large, middle, small)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 7);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto notes = [](const CpuExecutable& executable) {
    std::map<std::string, std::string> by_kernel;
    for (const recording::KernelRecord& record : executable.kernels())
      by_kernel[record.kernel] = record.options + "; " + record.backend + ": " + record.note;
    return by_kernel;
  };
  CpuExecutableOptions options;
  options.f32_dot_precision = BlasPrecision::kNative;
  auto chosen = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(chosen.ok()) << chosen.message();
  EXPECT_EQ(notes(**chosen),
            (std::map<std::string, std::string>{
                {"large", "gemm=onednn; onednn: dnnl_sgemm 128x256x256"},
                {"middle", "gemm=onednn threads=1; onednn: dnnl_sgemm 64x128x64 on 1 thread"},
                {"small", "gemm=openblas; openblas: cblas_sgemm 16x16x16"}}));
  auto actual = (*chosen)->Run(*inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();
  const LiteralDifference difference = CompareLiterals(*actual, *expected, 1e-4, 1e-4);
  EXPECT_TRUE(difference.ok()) << difference.max_abs_error;

  options.kernel_configs["large"] = KernelConfig::Parse("gemm=openblas").value();
  auto named = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(named.ok()) << named.message();
  EXPECT_EQ(notes(**named).at("large"), "gemm=openblas; openblas: cblas_sgemm 128x256x256");
  EXPECT_EQ(notes(**named).at("middle"),
            "gemm=onednn threads=1; onednn: dnnl_sgemm 64x128x64 on 1 thread");
  options.kernel_configs.clear();
  options.onednn_for_large_gemms = false;
  auto off = CpuExecutable::Compile(**module, options);
  ASSERT_TRUE(off.ok()) << off.message();
  EXPECT_EQ(notes(**off).at("large"), "gemm=openblas; openblas: cblas_sgemm 128x256x256");
  CpuExecutableOptions widened;
  auto checked = CpuExecutable::Compile(**module, widened);
  ASSERT_TRUE(checked.ok()) << checked.message();
  for (const auto& [kernel, note] : notes(**checked))
    EXPECT_EQ(note.rfind("gemm=openblas; openblas: cblas_dgemm", 0), 0u) << kernel << ": " << note;
}

class CpuKernelCompilerTest : public CpuExecutableTest {};

// `module` compiled scalar, vectorized, and vectorized and tiled computes the interpreter's
// bits on inputs seeded with `seed`.
void ExpectTheInterpretersBitsUnderEachLowering(const ir::Module& module, uint64_t seed) {
  auto inputs = SeededInputs(*module.entry(), seed);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  for (const char* lowering : {"vector=0", "vector=8", "vector=16 tile=4"}) {
    CpuExecutableOptions options;
    options.lowering = LoweringOptions::Parse(lowering).value();
    auto executable = CpuExecutable::Compile(module, options);
    ASSERT_TRUE(executable.ok()) << executable.message();
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    EXPECT_TRUE(actual->BitwiseEqual(*expected)) << lowering;
  }
}

constexpr char kAdd[] =
    "HloModule m\nENTRY e {\n p = f32[4,8] parameter(0)\n q = f32[4,8] parameter(1)\n ROOT a = "
    "f32[4,8] add(p, q)\n}\n";

TEST_F(CpuKernelCompilerTest, RecordsEveryStageInOrder) {
  auto module = ir::ParseHloModule(kAdd);
  ASSERT_TRUE(module.ok());
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  const LoweringOptions options = LoweringOptions::Parse("tile=4 vector=8").value();
  KernelCompilation compiled = CompileKernelText(kernel->text, kernel->function_name, options);
  ASSERT_NE(compiled.kernel, nullptr)
      << compiled.record.failed_stage << ": " << compiled.record.error;
  std::vector<std::string> names;
  for (const recording::KernelStage& stage : compiled.record.stages) names.push_back(stage.name);
  std::vector<std::string> expected = {"input"};
  for (const std::string& pass : LoweringPasses(options)) expected.push_back(PassStageName(pass));
  expected.push_back("llvm-ir");
  expected.push_back("asm");
  EXPECT_EQ(names, expected);
  EXPECT_NE(std::find(names.begin(), names.end(), "affine-loop-tile"), names.end());
  EXPECT_EQ(compiled.record.options, "tile=4 vector=8");
  EXPECT_EQ(compiled.record.backend, "mlir-cpu");
  EXPECT_NE(compiled.record.stages.back().text.find("kernel"), std::string::npos);
  EXPECT_NE(compiled.record.stages[compiled.record.stages.size() - 2].text.find("define"),
            std::string::npos);
}

TEST_F(CpuKernelCompilerTest, AFailingStageKeepsTheStagesBeforeIt) {
  auto module = ir::ParseHloModule(kAdd);
  ASSERT_TRUE(module.ok());
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok());
  // Without `restrict` the input can no longer be analysed by One-Shot Analysis, which
  // empty-tensor elimination runs first.
  std::string broken = kernel->text;
  const size_t at = broken.find(" restrict : memref");
  ASSERT_NE(at, std::string::npos);
  broken.erase(at, std::string(" restrict").size());
  KernelCompilation compiled = CompileKernelText(broken, "kernel", {});
  EXPECT_EQ(compiled.kernel, nullptr);
  EXPECT_EQ(compiled.record.failed_stage, "eliminate-empty-tensors");
  EXPECT_NE(compiled.record.error.find("restrict"), std::string::npos) << compiled.record.error;
  ASSERT_EQ(compiled.record.stages.size(), 2u);
  EXPECT_EQ(compiled.record.stages[0].name, "input");
  EXPECT_EQ(compiled.record.stages[1].name, "linalg-fuse-elementwise-ops");

  KernelCompilation unparsable = CompileKernelText("module { func.func @kernel( }", "kernel", {});
  EXPECT_EQ(unparsable.kernel, nullptr);
  EXPECT_EQ(unparsable.record.failed_stage, "input");
  EXPECT_FALSE(unparsable.record.error.empty());
  ASSERT_EQ(unparsable.record.stages.size(), 1u);
}

TEST_F(CpuKernelCompilerTest, AWrongKernelIsCaughtByTheComparison) {
  auto module = ir::ParseHloModule(kAdd);
  ASSERT_TRUE(module.ok());
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok());
  std::vector<double> ones(32, 1.0), twos(32, 2.0);
  Literal p = testing::F32({4, 8}, ones);
  Literal q = testing::F32({4, 8}, twos);
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, {p, q});
  ASSERT_TRUE(expected.ok());
  auto run = [&](const std::string& text) {
    KernelCompilation compiled = CompileKernelText(text, "kernel", {});
    EXPECT_NE(compiled.kernel, nullptr) << compiled.record.error;
    Literal out = Literal::Create(ir::Shape(ir::PrimitiveType::kF32, {4, 8})).value();
    if (compiled.kernel) {
      EXPECT_TRUE(compiled.kernel->Run({p.data(), q.data(), out.data()}).ok());
    }
    return out;
  };
  EXPECT_TRUE(CompareLiterals(run(kernel->text), *expected, kRtol, kAtol).ok());
  std::string wrong = kernel->text;
  const size_t at = wrong.find("arith.addf");
  ASSERT_NE(at, std::string::npos);
  wrong.replace(at, std::string("arith.addf").size(), "arith.subf");
  const LiteralDifference difference = CompareLiterals(run(wrong), *expected, kRtol, kAtol);
  EXPECT_FALSE(difference.ok());
  EXPECT_EQ(difference.mismatches, 32);
}

// Compiles share MLIR contexts and target machines through a pool (each held by one compile at
// a time, a context replaced after 32 kernels): kernels compiled at once on four
// threads, more than one context's share in all, each computes its own operation.
TEST_F(CpuKernelCompilerTest, KernelsCompiledAtOnceOnSeveralThreadsEachComputeTheirOwn) {
  auto module = ir::ParseHloModule(kAdd);
  ASSERT_TRUE(module.ok());
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok());
  const size_t at = kernel->text.find("arith.addf");
  ASSERT_NE(at, std::string::npos);
  struct Variant {
    const char* op;
    double expected;  // of 1.5 and 2
  };
  const std::vector<Variant> variants = {
      {"arith.addf", 3.5}, {"arith.subf", -0.5}, {"arith.mulf", 3}, {"arith.maximumf", 2}};
  constexpr int kThreads = 4, kPerThread = 40;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Literal p = testing::F32({4, 8}, std::vector<double>(32, 1.5));
      Literal q = testing::F32({4, 8}, std::vector<double>(32, 2));
      for (int i = 0; i < kPerThread; ++i) {
        const Variant& variant = variants[(t + i) % variants.size()];
        std::string text = kernel->text;
        text.replace(at, std::string("arith.addf").size(), variant.op);
        KernelCompilation compiled = CompileKernelText(text, kernel->function_name, {},
                                                       /*keep_stages=*/i % 2 == 0, nullptr);
        Literal out = Literal::Create(ir::Shape(ir::PrimitiveType::kF32, {4, 8})).value();
        if (compiled.kernel == nullptr ||
            !compiled.kernel->Run({p.data(), q.data(), out.data()}).ok() ||
            testing::Values(out) != std::vector<double>(32, variant.expected)) {
          failures[t] += std::string(variant.op) + " (compile " + std::to_string(i) +
                         "): " + compiled.record.failed_stage + " " + compiled.record.error + "\n";
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

// Kernels compiled together without stages: the kernels a compile thread lowers are linked
// into one LLVM module (one O3 pipeline, one code generation, one JIT). Each still computes its
// own operation, on one thread and on two: kernels of one function name (the emitter names
// every kernel's function "kernel") and of another; a second job identical to a linked one
// compiles alone, and a broken kernel's failure is its own.
TEST_F(CpuKernelCompilerTest, KernelsLinkedIntoOneModuleEachComputeTheirOwn) {
  auto module = ir::ParseHloModule(kAdd);
  ASSERT_TRUE(module.ok());
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok());
  const std::string name = kernel->function_name;
  const size_t at = kernel->text.find("arith.addf");
  ASSERT_NE(at, std::string::npos);
  ASSERT_NE(kernel->text.find("@" + name + "("), std::string::npos);
  struct Variant {
    std::string text, function;
    double expected;  // of 1.5 and 2; NaN: the compile fails
  };
  std::vector<Variant> variants;
  auto add = [&](const char* op, const std::string& function, double expected) {
    std::string text = kernel->text;
    text.replace(at, std::string("arith.addf").size(), op);
    text.replace(text.find("@" + name + "("), name.size() + 2, "@" + function + "(");
    variants.push_back({text, function, expected});
  };
  for (const auto& [op, expected] :
       std::vector<std::pair<const char*, double>>{{"arith.addf", 3.5},
                                                   {"arith.subf", -0.5},
                                                   {"arith.mulf", 3},
                                                   {"arith.maximumf", 2},
                                                   {"arith.minimumf", 1.5},
                                                   {"arith.divf", 0.75}})
    add(op, name, expected);
  add("arith.addf", name + "_b", 3.5);
  add("arith.subf", name + "_b", -0.5);
  variants.push_back(variants.front());  // the same job twice
  add("arith.addf", name, std::nan(""));
  variants.back().text.erase(variants.back().text.find(" restrict : memref"),
                             std::string(" restrict").size());
  std::vector<KernelJob> jobs;
  for (const Variant& variant : variants) jobs.push_back({&variant.text, &variant.function, {}});

  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    std::vector<KernelCompilation> compiled =
        CompileKernelTexts(jobs, /*keep_stages=*/false, threads, nullptr);
    ASSERT_EQ(compiled.size(), variants.size());
    int linked = 0;
    for (size_t i = 0; i < variants.size(); ++i) {
      const KernelCompilation& result = compiled[i];
      EXPECT_TRUE(result.record.stages.empty());
      if (result.record.note.find("compiled in one LLVM module with") != std::string::npos)
        ++linked;
      if (std::isnan(variants[i].expected)) {
        EXPECT_EQ(result.kernel, nullptr);
        EXPECT_EQ(result.record.failed_stage, "eliminate-empty-tensors");
        continue;
      }
      ASSERT_NE(result.kernel, nullptr) << variants[i].function << ": "
                                        << result.record.failed_stage << " " << result.record.error;
      EXPECT_GT(result.record.compile_seconds, 0);
      Literal p = testing::F32({4, 8}, std::vector<double>(32, 1.5));
      Literal q = testing::F32({4, 8}, std::vector<double>(32, 2));
      Literal out = Literal::Create(ir::Shape(ir::PrimitiveType::kF32, {4, 8})).value();
      ASSERT_TRUE(result.kernel->Run({p.data(), q.data(), out.data()}).ok());
      EXPECT_EQ(testing::Values(out), std::vector<double>(32, variants[i].expected))
          << variants[i].function << " (" << i << ")";
    }
    // Of the nine that compile, the repeated job compiled alone; on one thread the other
    // eight share a module.
    if (threads == 1) {
      EXPECT_EQ(linked, 8);
    } else {
      EXPECT_GE(linked, 2);
    }
  }
}

// LLVM unrolls a kernel's loop whole only up to our threshold, not its O3 default of 300, and
// not partially or at run time (build time; runtime.md). The options are looked up by name in
// LLVM's registry: this fails where an LLVM renames one and it silently stops applying.
TEST_F(CpuKernelCompilerTest, LlvmUnrollsLoopsWholeOnlyUpToOurThreshold) {
  if (std::getenv("FUSESCOPE_LLVM_OPTIONS") != nullptr)
    GTEST_SKIP() << "FUSESCOPE_LLVM_OPTIONS is set here and may set the threshold itself";
  EXPECT_EQ(FullUnrollThreshold(), 60u);
  EXPECT_FALSE(LlvmUnrollsPartially());
}

// A stage's text by name ("" when the record has no such stage).
std::string StageText(const recording::KernelRecord& record, const std::string& name) {
  for (const recording::KernelStage& stage : record.stages) {
    if (stage.name == name) return stage.text;
  }
  return "";
}

TEST_F(CpuKernelCompilerTest, WithoutStagesNothingIsKeptAndTheKernelStillRuns) {
  auto module = ir::ParseHloModule(kAdd);
  ASSERT_TRUE(module.ok());
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok());
  KernelCompilation compiled =
      CompileKernelText(kernel->text, kernel->function_name, {}, /*keep_stages=*/false);
  ASSERT_NE(compiled.kernel, nullptr)
      << compiled.record.failed_stage << ": " << compiled.record.error;
  EXPECT_TRUE(compiled.record.stages.empty());
  Literal p = testing::F32({4, 8}, std::vector<double>(32, 1.5));
  Literal q = testing::F32({4, 8}, std::vector<double>(32, 2));
  Literal out = Literal::Create(ir::Shape(ir::PrimitiveType::kF32, {4, 8})).value();
  ASSERT_TRUE(compiled.kernel->Run({p.data(), q.data(), out.data()}).ok());
  EXPECT_EQ(testing::Values(out), std::vector<double>(32, 3.5));
  // A failure still names its stage.
  std::string broken = kernel->text;
  broken.erase(broken.find(" restrict : memref"), std::string(" restrict").size());
  KernelCompilation failed = CompileKernelText(broken, "kernel", {}, /*keep_stages=*/false);
  EXPECT_EQ(failed.kernel, nullptr);
  EXPECT_EQ(failed.record.failed_stage, "eliminate-empty-tensors");
  EXPECT_TRUE(failed.record.stages.empty());
  // An executable that keeps no stages computes the same numbers.
  const std::string text(resources::FindSample("bert_encoder").text);
  auto original = ir::ParseHloModule(text);
  ASSERT_TRUE(original.ok());
  auto inputs = SeededInputs(*(*original)->entry(), 5);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**original, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  CpuExecutableOptions options;
  options.keep_lowering_stages = false;
  auto executable = CpuExecutable::Compile(**original, options);
  ASSERT_TRUE(executable.ok()) << executable.message();
  for (const recording::KernelRecord& record : (*executable)->kernels()) {
    EXPECT_TRUE(record.stages.empty()) << record.kernel;
    EXPECT_TRUE(record.failed_stage.empty()) << record.kernel << ": " << record.error;
  }
  auto actual = (*executable)->Run(*inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();
  EXPECT_TRUE(CompareLiterals(*actual, *expected, kRtol, kAtol).ok());
}

// A row sum: its accumulator is carried in an iter_arg, the vectorizer turns the loop into
// vector partial sums, and the transfers lose their masks; the numbers stay the
// interpreter's.
TEST_F(CpuKernelCompilerTest, RowReductionsAreVectorizedWithUnmaskedTransfers) {
  auto module = ir::ParseHloModule(R"(HloModule rows
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[16,32] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[16] reduce(x, z), dimensions={1}, to_apply=add
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto kernel = EmitInstructionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  KernelCompilation compiled = CompileKernelText(kernel->text, kernel->function_name, {});
  ASSERT_NE(compiled.kernel, nullptr)
      << compiled.record.failed_stage << ": " << compiled.record.error;
  EXPECT_NE(StageText(compiled.record, "reduction-iter-args").find("iter_args"), std::string::npos);
  EXPECT_NE(StageText(compiled.record, "affine-super-vectorize").find("vector.reduction"),
            std::string::npos);
  const std::string in_bounds = StageText(compiled.record, "transfer-in-bounds");
  EXPECT_NE(in_bounds.find("in_bounds = [true]"), std::string::npos) << in_bounds;
  const std::string llvm_ir = StageText(compiled.record, "llvm-ir");
  ASSERT_FALSE(llvm_ir.empty());
  EXPECT_EQ(llvm_ir.find("masked"), std::string::npos) << llvm_ir;
  for (uint64_t seed : {1, 9}) {
    auto inputs = SeededInputs(*(*module)->entry(), seed);
    ASSERT_TRUE(inputs.ok());
    Interpreter interpreter;
    auto expected = interpreter.Run(**module, *inputs);
    ASSERT_TRUE(expected.ok()) << expected.message();
    auto executable = CpuExecutable::Compile(**module);
    ASSERT_TRUE(executable.ok()) << executable.message();
    auto actual = (*executable)->Run(*inputs);
    ASSERT_TRUE(actual.ok()) << actual.message();
    EXPECT_TRUE(CompareLiterals(*actual, *expected, kRtol, kAtol).ok());
  }
}

// A result reshaped into the output: bufferization computes it into a temporary and copies
// it; write-into-outputs computes it in the output argument instead.
TEST_F(CpuKernelCompilerTest, AReshapedResultIsWrittenIntoTheOutput) {
  auto module = ir::ParseHloModule(R"(HloModule reshaped
fused {
  p = f32[4,8,16] parameter(0)
  t = f32[8,4,16] transpose(p), dimensions={1,0,2}
  ROOT r = f32[8,64] reshape(t)
}
ENTRY e {
  x = f32[4,8,16] parameter(0)
  ROOT f = f32[8,64] fusion(x), kind=kLoop, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto kernel = EmitFusionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  KernelCompilation compiled = CompileKernelText(kernel->text, kernel->function_name, {});
  ASSERT_NE(compiled.kernel, nullptr)
      << compiled.record.failed_stage << ": " << compiled.record.error;
  const std::string bufferized = StageText(compiled.record, "one-shot-bufferize");
  EXPECT_NE(bufferized.find("memref.copy"), std::string::npos) << bufferized;
  const std::string in_place = StageText(compiled.record, "write-into-outputs");
  EXPECT_EQ(in_place.find("memref.copy"), std::string::npos) << in_place;
  EXPECT_EQ(in_place.find("memref.alloc"), std::string::npos) << in_place;
  auto inputs = SeededInputs(*(*module)->entry(), 3);
  ASSERT_TRUE(inputs.ok());
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto executable = CpuExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  auto actual = (*executable)->Run(*inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();
  EXPECT_TRUE(actual->BitwiseEqual(*expected));
}

// A concatenation's operands are copied into windows of the output: vector loops of our
// own (copies-to-loops), not memref.copy's element-at-a-time runtime call.
TEST_F(CpuKernelCompilerTest, ACopyIntoAWindowOfTheOutputIsAVectorLoop) {
  auto module = ir::ParseHloModule(R"(HloModule concatenated
fused {
  p = f32[2,4,16] parameter(0)
  q = f32[2,4,8] parameter(1)
  b = f32[2,4,2,8] broadcast(q), dimensions={0,1,3}
  r = f32[2,4,16] reshape(b)
  ROOT c = f32[2,4,32] concatenate(p, r), dimensions={2}
}
ENTRY e {
  x = f32[2,4,16] parameter(0)
  y = f32[2,4,8] parameter(1)
  ROOT f = f32[2,4,32] fusion(x, y), kind=kLoop, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto kernel = EmitFusionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  KernelCompilation compiled = CompileKernelText(kernel->text, kernel->function_name,
                                                 LoweringOptions::Parse("vector=8").value());
  ASSERT_NE(compiled.kernel, nullptr)
      << compiled.record.failed_stage << ": " << compiled.record.error;
  EXPECT_NE(StageText(compiled.record, "cse").find("memref.copy"), std::string::npos);
  const std::string loops = StageText(compiled.record, "copies-to-loops");
  EXPECT_EQ(loops.find("memref.copy"), std::string::npos) << loops;
  EXPECT_NE(loops.find("vector.transfer_write"), std::string::npos) << loops;
  EXPECT_EQ(StageText(compiled.record, "llvm-ir").find("memrefCopy"), std::string::npos);
  ExpectTheInterpretersBitsUnderEachLowering(**module, 3);
}

// A group norm's sums over 4 channels per group: the loop the vectorizer vectorizes runs 4
// times, so it is vectorized 4 wide, not masked 8 wide; a kernel whose loop runs 32 times keeps
// the 8 lanes asked for.
TEST_F(CpuKernelCompilerTest, ALoopShorterThanTheVectorIsVectorizedToItsLength) {
  auto module = ir::ParseHloModule(R"(HloModule groups
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
sums {
  x = f32[2,16,16,32] parameter(0)
  g = f32[2,16,16,8,4] reshape(x)
  zero = f32[] constant(0)
  ROOT r = f32[2,8] reduce(g, zero), dimensions={1,2,4}, to_apply=add
}
ENTRY e {
  x = f32[2,16,16,32] parameter(0)
  ROOT f = f32[2,8] fusion(x), kind=kLoop, calls=sums
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto kernel = EmitFusionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  KernelCompilation compiled = CompileKernelText(kernel->text, kernel->function_name,
                                                 LoweringOptions::Parse("vector=8").value());
  ASSERT_NE(compiled.kernel, nullptr)
      << compiled.record.failed_stage << ": " << compiled.record.error;
  const std::string vectorized = StageText(compiled.record, "affine-super-vectorize");
  EXPECT_NE(vectorized.find("vector<4xf32>"), std::string::npos) << vectorized;
  EXPECT_EQ(vectorized.find("vector<8xf32>"), std::string::npos) << vectorized;
  ExpectTheInterpretersBitsUnderEachLowering(**module, 9);

  auto wide = ir::ParseHloModule(kAdd);
  ASSERT_TRUE(wide.ok());
  auto add = EmitInstructionKernel(Root(**wide));
  ASSERT_TRUE(add.ok()) << add.message();
  KernelCompilation eight =
      CompileKernelText(add->text, add->function_name, LoweringOptions::Parse("vector=8").value());
  ASSERT_NE(eight.kernel, nullptr) << eight.record.failed_stage << ": " << eight.record.error;
  EXPECT_NE(StageText(eight.record, "affine-super-vectorize").find("vector<8xf32>"),
            std::string::npos);
}

// A max pool: its output's initial value is filled as one loop over the output's bytes
// (flatten-fills; as a nest of small loops LLVM unrolled it into hundreds of stores and took
// 0.3 s to compile the kernel), and the window operand, never read, is no longer allocated on
// every call (drop-dead-allocations).
TEST_F(CpuKernelCompilerTest, AMaxPoolFillsItsOutputInOneLoopAndAllocatesNothing) {
  auto module = ir::ParseHloModule(R"(HloModule pool
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
pool {
  x = f32[2,8,16,16] parameter(0)
  init = f32[] constant(-inf)
  ROOT p = f32[2,8,8,8] reduce-window(x, init), window={size=1x1x2x2 stride=1x1x2x2}, to_apply=max
}
ENTRY e {
  x = f32[2,8,16,16] parameter(0)
  ROOT f = f32[2,8,8,8] fusion(x), kind=kLoop, calls=pool
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto kernel = EmitFusionKernel(Root(**module));
  ASSERT_TRUE(kernel.ok()) << kernel.message();
  KernelCompilation compiled = CompileKernelText(kernel->text, kernel->function_name,
                                                 LoweringOptions::Parse("vector=0").value());
  ASSERT_NE(compiled.kernel, nullptr)
      << compiled.record.failed_stage << ": " << compiled.record.error;
  const std::string flat = StageText(compiled.record, "flatten-fills");
  EXPECT_NE(flat.find("memref<1024xf32>"), std::string::npos) << flat;
  EXPECT_NE(StageText(compiled.record, "convert-linalg-to-affine-loops").find("memref.alloc"),
            std::string::npos);
  const std::string loops = StageText(compiled.record, "drop-dead-allocations");
  EXPECT_EQ(loops.find("memref.alloc"), std::string::npos) << loops;
  EXPECT_EQ(StageText(compiled.record, "llvm-ir").find("@malloc"), std::string::npos);
  ExpectTheInterpretersBitsUnderEachLowering(**module, 5);
}

}  // namespace
}  // namespace fusescope::runtime
