// The module generator over fixed seeds: every module it writes must verify, and both
// built-in pipelines must compile it with the verifier between passes. This is the pipeline
// fuzzer's check without libFuzzer, so that CI runs it on every change.

#include "fuzz/module_generator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "fuzz/pipeline_check.h"
#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"

namespace fusescope::fuzz {
namespace {

constexpr uint64_t kSeeds = 200;
constexpr size_t kBytesPerModule = 4096;

// Short inputs run out early and give small modules (a fusion as the root, a lone op); long
// ones give the larger graphs. Both find different bugs.
std::vector<uint8_t> BytesForSeed(uint64_t seed) {
  return SeedBytes(seed, size_t{64} << (seed % 7));
}

// Every seeded module verifies, and both pipelines compile it; half of the gpu runs go
// through the recorder.
TEST(ModuleGeneratorTest, SeededModulesSurviveBothPipelines) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const std::vector<uint8_t> bytes = BytesForSeed(seed);
    auto module = GenerateModule(bytes.data(), bytes.size());
    ASSERT_TRUE(module.ok()) << "seed " << seed << ": " << module.message();
    PipelineCheckOptions options;
    options.record = seed % 2 == 1;
    Status status = CheckBuiltinPipelines(**module, options);
    EXPECT_TRUE(status.ok()) << "seed " << seed << ": " << status.message() << "\n"
                             << GenerateModuleText(bytes.data(), bytes.size());
  }
}

// The seeds reach the operations the passes treat specially; a generator change that stops
// producing one of them must show up here, not as silently lost coverage.
TEST(ModuleGeneratorTest, SeedsCoverTheOpcodes) {
  std::set<std::string> seen;
  std::set<std::string> kinds;
  bool multi_output_fusion = false;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const std::vector<uint8_t> bytes = SeedBytes(seed, kBytesPerModule);
    auto module = GenerateModule(bytes.data(), bytes.size());
    ASSERT_TRUE(module.ok()) << module.message();
    for (const auto& computation : (*module)->computations()) {
      for (const auto& instruction : computation->instructions()) {
        seen.insert(std::string(instruction->opcode_name()));
        if (instruction->opcode() != ir::Opcode::kFusion) continue;
        kinds.insert(std::string(instruction->attribute("kind").value_or("")));
        multi_output_fusion = multi_output_fusion || instruction->shape().IsTuple();
      }
    }
  }
  for (const char* opcode : {"abs",
                             "add",
                             "compare",
                             "select",
                             "clamp",
                             "convert",
                             "bitcast-convert",
                             "broadcast",
                             "reshape",
                             "transpose",
                             "slice",
                             "dynamic-slice",
                             "dynamic-update-slice",
                             "concatenate",
                             "pad",
                             "reverse",
                             "iota",
                             "dot",
                             "convolution",
                             "reduce",
                             "reduce-window",
                             "gather",
                             "scatter",
                             "sort",
                             "topk",
                             "tuple",
                             "get-tuple-element",
                             "while",
                             "conditional",
                             "call",
                             "custom-call",
                             "rng-bit-generator",
                             "batch-norm-training",
                             "batch-norm-inference",
                             "batch-norm-grad",
                             "select-and-scatter",
                             "map",
                             "opt-barrier",
                             "all-reduce",
                             "constant",
                             "fusion",
                             "parameter"}) {
    EXPECT_TRUE(seen.count(opcode)) << opcode << " never generated";
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"kInput", "kLoop", "kOutput"}));
  EXPECT_TRUE(multi_output_fusion);
}

// The same bytes describe the same module, so a crashing input reproduces.
TEST(ModuleGeneratorTest, SameBytesSameText) {
  const std::vector<uint8_t> bytes = SeedBytes(7, kBytesPerModule);
  EXPECT_EQ(GenerateModuleText(bytes.data(), bytes.size()),
            GenerateModuleText(bytes.data(), bytes.size()));
}

// Running out of bytes (here: having none) still describes a valid module.
TEST(ModuleGeneratorTest, EmptyInputIsAValidModule) {
  auto module = GenerateModule(nullptr, 0);
  ASSERT_TRUE(module.ok()) << module.message();
  EXPECT_TRUE(CheckBuiltinPipelines(**module).ok());
}

// The modules of bugs the fuzzer found, kept as HLO text in its corpus, compile with both
// pipelines.
TEST(ModuleGeneratorTest, CorpusModulesSurviveBothPipelines) {
  const std::filesystem::path corpus =
      std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "fuzz" / "corpus" / "pipeline";
  int modules = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".hlo") continue;
    ++modules;
    auto module = ir::ParseHloFile(entry.path().string());
    ASSERT_TRUE(module.ok()) << module.message();
    Status status = CheckBuiltinPipelines(**module, {.record = true});
    EXPECT_TRUE(status.ok()) << entry.path().filename() << ": " << status.message();
  }
  EXPECT_GE(modules, 7);
}

}  // namespace
}  // namespace fusescope::fuzz
