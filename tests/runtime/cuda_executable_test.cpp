// The CUDA backend (runtime::CudaExecutable). Planning needs no GPU and is checked here on
// every machine: each fusion of the built-in samples becomes PTX with a launch plan, dots
// become cuBLAS GEMMs, the rest runs on the host with its reason. Running needs a GPU: those
// tests skip with the driver's sentence without one (scripts/gpu_check.sh runs them on one).

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "recording/kernel_store.h"
#include "recording/recording_store.h"
#include "resources/samples.h"
#include "runtime/cuda/cuda_driver.h"
#include "runtime/cuda/cuda_executable.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::runtime {
namespace {

// A dot cuBLAS takes as it is (x * W^T), one whose lhs batch dimension is not leading (a PTX
// transpose first), elementwise kernels, a while loop and tuple plumbing.
constexpr const char* kMixedModule = R"(HloModule mixed

cond {
  s = (s32[], f32[4,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[4,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[4,3] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[4,3] add(v, v)
  ROOT t = (s32[], f32[4,3]) tuple(j, w)
}

ENTRY main {
  x = f32[4,5] parameter(0)
  w = f32[3,5] parameter(1)
  b = f32[2,4,5] parameter(2)
  c = f32[2,5,3] parameter(3)
  y = f32[4,3] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  z = f32[4,3] add(y, y)
  bt = f32[4,2,5] transpose(b), dimensions={1,0,2}
  q = f32[2,4,3] dot(bt, c), lhs_batch_dims={1}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  zero = s32[] constant(0)
  init = (s32[], f32[4,3]) tuple(zero, z)
  loop = (s32[], f32[4,3]) while(init), condition=cond, body=body
  r = f32[4,3] get-tuple-element(loop), index=1
  ROOT out = (f32[4,3], f32[2,4,3]) tuple(r, q)
}
)";

// `name`'s final snapshot after our GPU pipeline.
std::unique_ptr<ir::Module> GpuSnapshot(const std::string& name, std::string* original_text) {
  const std::string text = std::string(resources::FindSample(name).text);
  if (original_text) *original_text = text;
  passes::PipelineOptions pipeline;
  pipeline.target = "gpu";
  auto recording = recording::CompileAndRecord(text, pipeline, name);
  EXPECT_TRUE(recording.ok()) << recording.message();
  if (!recording.ok()) return nullptr;
  auto compiled = recording->snapshots.back().ToModule();
  EXPECT_TRUE(compiled.ok()) << compiled.message();
  if (!compiled.ok()) return nullptr;
  return std::move(compiled).value();
}

const recording::KernelRecord* RecordOf(const CudaExecutable& executable, const std::string& name,
                                        size_t* index = nullptr) {
  const auto& kernels = executable.kernels();
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (kernels[i].kernel != name) continue;
    if (index) *index = i;
    return &kernels[i];
  }
  return nullptr;
}

TEST(CudaExecutableTest, EverySampleFusionPlansForTheGpu) {
  if (!PtxCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR to lower PTX with";
  int fusions = 0, gemms = 0;
  for (const char* name : {"mlp", "bert_encoder", "resnet_block"}) {
    SCOPED_TRACE(name);
    std::unique_ptr<ir::Module> module = GpuSnapshot(name, nullptr);
    ASSERT_NE(module, nullptr);
    auto executable = CudaExecutable::Compile(*module);
    ASSERT_TRUE(executable.ok()) << executable.message();
    const CudaExecutable& compiled = **executable;
    for (const auto& instruction : module->entry()->instructions()) {
      size_t index = 0;
      const recording::KernelRecord* record = RecordOf(compiled, instruction->name(), &index);
      if (instruction->opcode() == ir::Opcode::kFusion) {
        ASSERT_NE(record, nullptr) << instruction->name();
        const std::string kind = instruction->fusion_kind();
        if (kind != "Loop" && kind != "Input") continue;
        ++fusions;
        EXPECT_EQ(record->backend, "nvptx") << instruction->name() << ": " << record->note;
        const PtxKernel* ptx = compiled.ptx(index);
        ASSERT_NE(ptx, nullptr) << instruction->name();
        EXPECT_FALSE(ptx->launches.empty());
        EXPECT_FALSE(compiled.LaunchNames(index).empty());
        ASSERT_FALSE(record->stages.empty());
        EXPECT_EQ(record->stages.front().name, "input");
        const bool has_ptx =
            std::any_of(record->stages.begin(), record->stages.end(), [](const auto& stage) {
              return stage.name == "ptx" && stage.text.find(".target sm_90") != std::string::npos;
            });
        EXPECT_TRUE(has_ptx) << instruction->name();
        EXPECT_EQ(ptx->inputs, instruction->operand_count());
      } else if (instruction->opcode() == ir::Opcode::kDot) {
        ASSERT_NE(record, nullptr) << instruction->name();
        if (record->backend == "cublas") {
          ++gemms;
          ASSERT_NE(compiled.gemm(index), nullptr);
          EXPECT_EQ(record->note, compiled.gemm(index)->Description());
        } else {
          EXPECT_EQ(record->backend, "host");
          EXPECT_NE(record->note.find("dot runs through the interpreter: "), std::string::npos);
        }
      }
    }
    std::printf("%s: %s\n", name, compiled.KernelSummary().c_str());
    for (const recording::KernelRecord& record : compiled.kernels()) {
      if (record.backend == "host") {
        EXPECT_FALSE(record.note.empty()) << record.kernel;
        std::printf("  %s on the host: %s\n", record.kernel.c_str(), record.note.c_str());
      }
    }
  }
  EXPECT_GE(fusions, 19);
  EXPECT_GE(gemms, 1);
  std::printf("%d sample fusions planned as PTX, %d dots as cuBLAS GEMMs\n", fusions, gemms);
}

TEST(CudaExecutableTest, DotsGoToCublasAndTheRestToTheHostWithAReason) {
  if (!PtxCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR to lower PTX with";
  auto module = ir::ParseHloModule(kMixedModule);
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CudaExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  const CudaExecutable& compiled = **executable;
  size_t index = 0;
  const recording::KernelRecord* y = RecordOf(compiled, "y", &index);
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(y->backend, "cublas");
  EXPECT_EQ(y->note, "cublasSgemmStridedBatched T,N m=3 n=4 k=5");
  ASSERT_NE(compiled.gemm(index), nullptr);
  EXPECT_EQ(compiled.ptx(index), nullptr);

  const recording::KernelRecord* q = RecordOf(compiled, "q", &index);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->backend, "cublas") << q->note;
  EXPECT_EQ(q->note, "cublasSgemmStridedBatched N,N m=3 n=4 k=5 batch 2, lhs transposed {1,0,2}");
  ASSERT_EQ(q->stages.size(), 2u);
  EXPECT_EQ(q->stages[0].name, "lhs-transpose launch-plan");
  EXPECT_EQ(q->stages[1].name, "lhs-transpose ptx");
  EXPECT_NE(q->stages[1].text.find(".entry"), std::string::npos);
  EXPECT_FALSE(compiled.LaunchNames(index).empty());

  const recording::KernelRecord* z = RecordOf(compiled, "z", &index);
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->backend, "nvptx");
  ASSERT_NE(compiled.ptx(index), nullptr);
  EXPECT_EQ(compiled.ptx(index)->inputs, 2);

  const recording::KernelRecord* loop = RecordOf(compiled, "loop");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->backend, "host");
  EXPECT_EQ(loop->note, "control flow runs through the interpreter on the host");
  // Values (parameters, constants, tuples, get-tuple-element) are no kernels.
  EXPECT_EQ(RecordOf(compiled, "init"), nullptr);
  EXPECT_EQ(RecordOf(compiled, "r"), nullptr);
  EXPECT_EQ(compiled.KernelSummary(), "5 kernels: 2 cublas, 1 host (while), 2 nvptx")
      << compiled.KernelSummary();
}

// The kernels of a GPU-compiled snapshot go into the recording like the CPU's: PTX and launch
// plan as stages of the PTX kernels, the GEMM call as the cuBLAS kernels' note.
TEST(CudaExecutableTest, ThePtxIsKeptInTheRecording) {
  if (!PtxCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR to lower PTX with";
  passes::PipelineOptions pipeline;
  pipeline.target = "gpu";
  auto recording =
      recording::CompileAndRecord(resources::FindSample("mlp").text, pipeline, "sample:mlp");
  ASSERT_TRUE(recording.ok()) << recording.message();
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("fusescope-cuda-kernels-" + std::to_string(::getpid()) + ".fsdb");
  ASSERT_TRUE(recording::SaveRecording(*recording, path.string()).ok());
  const int last = static_cast<int>(recording->snapshots.size()) - 1;
  auto module = recording->snapshots.back().ToModule();
  ASSERT_TRUE(module.ok()) << module.message();
  CudaExecutableOptions options;
  options.snapshot = last;
  auto executable = CudaExecutable::Compile(**module, options);
  ASSERT_TRUE(executable.ok()) << executable.message();
  const auto& kernels = (*executable)->kernels();
  Status added = recording::AddKernels(path.string(), last, "cuda", kernels);
  ASSERT_TRUE(added.ok()) << added.message();
  int ptx_kernels = 0, gemms = 0;
  for (const recording::KernelRecord& kernel : kernels) {
    auto stored = recording::LoadKernel(path.string(), last, kernel.kernel);
    ASSERT_TRUE(stored.ok()) << stored.message();
    ASSERT_TRUE(stored->has_value()) << kernel.kernel;
    EXPECT_EQ((*stored)->backend, kernel.backend);
    EXPECT_EQ((*stored)->note, kernel.note);
    if (kernel.backend == "nvptx") {
      ++ptx_kernels;
      ASSERT_EQ((*stored)->stages.size(), kernel.stages.size());
      EXPECT_EQ((*stored)->stages.back().name, "ptx");
      EXPECT_NE((*stored)->stages.back().text.find(".entry"), std::string::npos);
    } else if (kernel.backend == "cublas") {
      ++gemms;
      EXPECT_NE((*stored)->note.find("cublasSgemmStridedBatched"), std::string::npos);
    }
  }
  std::filesystem::remove(path);
  EXPECT_GT(ptx_kernels, 0);
  EXPECT_GT(gemms, 0);
}

TEST(CudaExecutableTest, RunWithoutAGpuSaysSoInOneSentence) {
  StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (driver.ok()) GTEST_SKIP() << "a GPU is here: the run tests below cover Run";
  auto module = ir::ParseHloModule(kMixedModule);
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CudaExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  auto inputs = SeededInputs(*(*module)->entry(), 1);
  ASSERT_TRUE(inputs.ok());
  StatusOr<Literal> result = (*executable)->Run(*inputs);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.message(), driver.message());
}

// Runs `executable` on the GPU and the interpreter runs `reference` on the same seeded inputs.
void RunOnTheGpuAndCompare(const ir::Module& reference, CudaExecutable& executable) {
  auto inputs = SeededInputs(*reference.entry(), 7);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  Interpreter interpreter;
  auto expected = interpreter.Run(reference, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto actual = executable.Run(*inputs);
  ASSERT_TRUE(actual.ok()) << actual.message();
  // f32 GEMMs in single precision against the interpreter's double sums.
  const LiteralDifference difference = CompareLiterals(*actual, *expected, 1e-4, 1e-5);
  EXPECT_TRUE(difference.ok()) << "max abs " << difference.max_abs_error << " max rel "
                               << difference.max_rel_error << " mismatches "
                               << difference.mismatches;
  const auto& timings = executable.last_timings();
  ASSERT_EQ(timings.size(), executable.kernels().size());
  for (const KernelTiming& timing : timings) EXPECT_GE(timing.executions, 1);
}

// A bitcast between row-major shapes, a reshape and a copy alias their operand's buffer (no
// kernel); a bitcast between layouts moves elements and is planned on the host, with the reason
// (and, on a GPU, both give the interpreter's values).
TEST(CudaExecutableTest, ReshapesAliasAndALayoutChangingBitcastRunsOnTheHost) {
  auto module = ir::ParseHloModule(R"(HloModule bitcasts

ENTRY main {
  x = f32[4,3]{1,0} parameter(0)
  flat = f32[12]{0} bitcast(x)
  swapped = f32[3,4]{0,1} bitcast(x)
  reshaped = f32[2,6] reshape(x)
  copied = f32[4,3]{0,1} copy(x)
  ROOT t = (f32[12], f32[3,4]{0,1}, f32[2,6], f32[4,3]{0,1}) tuple(flat, swapped, reshaped, copied)
}
)");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CudaExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  EXPECT_EQ(RecordOf(**executable, "flat"), nullptr);
  // Reshapes and copies keep the values in the same (logical, row-major) order: aliases too.
  EXPECT_EQ(RecordOf(**executable, "reshaped"), nullptr);
  EXPECT_EQ(RecordOf(**executable, "copied"), nullptr);
  const recording::KernelRecord* swapped = RecordOf(**executable, "swapped");
  ASSERT_NE(swapped, nullptr);
  EXPECT_EQ(swapped->backend, "host");
  EXPECT_EQ(swapped->note, "a bitcast between layouts moves elements: it runs on the host");
  if (CudaDriver::Get().ok()) RunOnTheGpuAndCompare(**module, **executable);
}

// An output fusion (dot + bias + relu) is the dot as a cuBLAS GEMM and the rest as a PTX
// epilogue reading the fusion's parameters and the GEMM's result.
TEST(CudaExecutableTest, AnOutputFusionIsAGemmAndAPtxEpilogue) {
  if (!PtxCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR to lower PTX with";
  auto module = ir::ParseHloModule(R"(HloModule m
fused {
  bias_in = f32[32] parameter(0)
  x_in = f32[8,64] parameter(1)
  w_in = f32[64,32] parameter(2)
  d = f32[8,32] dot(x_in, w_in), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[8,32] broadcast(bias_in), dimensions={1}
  s = f32[8,32] add(d, bb)
  z = f32[] constant(0)
  zb = f32[8,32] broadcast(z), dimensions={}
  ROOT r = f32[8,32] maximum(s, zb)
}
ENTRY main {
  x = f32[8,64] parameter(0)
  w = f32[64,32] parameter(1)
  bias = f32[32] parameter(2)
  ROOT fusion = f32[8,32] fusion(bias, x, w), kind=kOutput, calls=fused
}
)");
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CudaExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  size_t index = 0;
  const recording::KernelRecord* fusion = RecordOf(**executable, "fusion", &index);
  ASSERT_NE(fusion, nullptr);
  EXPECT_EQ(fusion->backend, "cublas") << fusion->note;
  EXPECT_EQ(fusion->note,
            "cublasSgemmStridedBatched N,N m=32 n=8 k=64, then the epilogue as a PTX kernel");
  ASSERT_NE((*executable)->gemm(index), nullptr);
  const PtxKernel* epilogue = (*executable)->ptx(index);
  ASSERT_NE(epilogue, nullptr);
  EXPECT_EQ(epilogue->inputs, 4);  // the three parameters, then the GEMM's result
  EXPECT_EQ(epilogue->outputs, 1);
  EXPECT_EQ(fusion->stages.back().name, "ptx");
  EXPECT_TRUE(std::any_of(fusion->stages.begin(), fusion->stages.end(),
                          [](const auto& stage) { return stage.name == "launch-plan"; }));
  if (CudaDriver::Get().ok()) RunOnTheGpuAndCompare(**module, **executable);
}

// Every jax fixture (forward models, training steps with while loops, sorts and conditionals)
// plans for the GPU: each kernel is PTX with launches, a cuBLAS GEMM, or the host with a reason.
// On a GPU the forward ones also run against the interpreter (the training steps' gradients
// sum many f32 GEMM products that nearly cancel: compared on the CPU path, in double).
TEST(CudaExecutableTest, JaxFixturesPlanForTheGpu) {
  if (!PtxCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR to lower PTX with";
  const std::filesystem::path data = std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "tests" / "data";
  std::vector<std::pair<std::filesystem::path, bool>> files = {
      {data / "mlp" / "before_optimizations.hlo", true},
      {data / "attention" / "before_optimizations.hlo", true},
      {data / "convnet" / "before_optimizations.hlo", true},
      {data / "training" / "bert_train_step.threefry.nometa.hlo", false},
      {data / "training" / "cond_sort.hlo", true},
      {data / "training" / "decoder_grad.hlo", false},
      {data / "training" / "scan_grad.hlo", false},
  };
  for (const auto& entry : std::filesystem::directory_iterator(data / "samples_xla"))
    files.emplace_back(entry.path(), true);
  const bool gpu = CudaDriver::Get().ok();
  int ptx_kernels = 0;
  for (const auto& [file, run] : files) {
    SCOPED_TRACE(file.filename().string());
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in) << file;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    passes::PipelineOptions pipeline;
    pipeline.target = "gpu";
    auto recording = recording::CompileAndRecord(text, pipeline, file.filename().string());
    ASSERT_TRUE(recording.ok()) << recording.message();
    auto module = recording->snapshots.back().ToModule();
    ASSERT_TRUE(module.ok()) << module.message();
    auto executable = CudaExecutable::Compile(**module);
    ASSERT_TRUE(executable.ok()) << executable.message();
    const auto& kernels = (*executable)->kernels();
    std::printf("%s: %s\n", file.filename().c_str(), (*executable)->KernelSummary().c_str());
    for (size_t i = 0; i < kernels.size(); ++i) {
      const recording::KernelRecord& kernel = kernels[i];
      if (kernel.backend == "nvptx") {
        ++ptx_kernels;
        ASSERT_NE((*executable)->ptx(i), nullptr) << kernel.kernel;
        EXPECT_FALSE((*executable)->ptx(i)->launches.empty()) << kernel.kernel;
      } else if (kernel.backend == "cublas") {
        EXPECT_NE((*executable)->gemm(i), nullptr) << kernel.kernel;
      } else {
        EXPECT_EQ(kernel.backend, "host") << kernel.kernel;
        EXPECT_FALSE(kernel.note.empty()) << kernel.kernel;
      }
    }
    if (gpu && run) {
      auto original = ir::ParseHloModule(text);
      ASSERT_TRUE(original.ok()) << original.message();
      RunOnTheGpuAndCompare(**original, **executable);
    }
  }
  EXPECT_GT(ptx_kernels, 0);
}

TEST(CudaExecutableTest, SamplesRunOnTheGpuAndMatchTheInterpreter) {
  StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (!driver.ok()) GTEST_SKIP() << driver.message();
  for (const char* name : {"mlp", "bert_encoder", "resnet_block"}) {
    SCOPED_TRACE(name);
    std::string text;
    std::unique_ptr<ir::Module> module = GpuSnapshot(name, &text);
    ASSERT_NE(module, nullptr);
    auto original = ir::ParseHloModule(text);
    ASSERT_TRUE(original.ok()) << original.message();
    auto executable = CudaExecutable::Compile(*module);
    ASSERT_TRUE(executable.ok()) << executable.message();
    RunOnTheGpuAndCompare(**original, **executable);
    std::printf("%s on the GPU: %s\n", name, (*executable)->KernelSummary().c_str());
    const auto& kernels = (*executable)->kernels();
    EXPECT_GT(std::count_if(kernels.begin(), kernels.end(),
                            [](const auto& k) { return k.backend == "nvptx"; }),
              0);
  }
}

TEST(CudaExecutableTest, HostStepsAndCublasRunBetweenDeviceKernels) {
  StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (!driver.ok()) GTEST_SKIP() << driver.message();
  auto module = ir::ParseHloModule(kMixedModule);
  ASSERT_TRUE(module.ok()) << module.message();
  auto executable = CudaExecutable::Compile(**module);
  ASSERT_TRUE(executable.ok()) << executable.message();
  RunOnTheGpuAndCompare(**module, **executable);
  // A second run reuses the loaded kernels and gives the same numbers.
  RunOnTheGpuAndCompare(**module, **executable);
}

}  // namespace
}  // namespace fusescope::runtime
