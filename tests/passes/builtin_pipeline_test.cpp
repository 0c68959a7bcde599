#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "passes/fusion_utils.h"
#include "passes/pipeline.h"
#include "passes/provenance_util.h"
#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> PassNames(const Pipeline& pipeline) {
  std::vector<std::string> names;
  for (const auto& pass : pipeline.passes()) names.emplace_back(pass->name());
  return names;
}

std::unique_ptr<Pipeline> Make(const std::string& target, PipelineOptions options = {}) {
  options.target = target;
  StatusOr<std::unique_ptr<Pipeline>> pipeline = MakeBuiltinPipeline(options);
  EXPECT_TRUE(pipeline.ok()) << pipeline.message();
  return pipeline.ok() ? std::move(pipeline).value() : nullptr;
}

// The CPU pipeline runs XLA:CPU's passes in XLA's order under XLA's dump names.
TEST(BuiltinPipelineTest, CpuPassesInOrder) {
  auto pipeline = Make("cpu");
  ASSERT_NE(pipeline, nullptr);
  EXPECT_EQ(pipeline->name(), "cpu");
  EXPECT_THAT(PassNames(*pipeline),
              ::testing::ElementsAre("call-inliner", "algsimp", "constant-folding", "cse", "dce",
                                     "layout-assignment", "algsimp", "fusion", "cse", "dce",
                                     "scheduling", "buffer-assignment"));
}

// The GPU pipeline fuses by priority, then multi-output, then merges fusions.
TEST(BuiltinPipelineTest, GpuPassesInOrder) {
  auto pipeline = Make("gpu");
  ASSERT_NE(pipeline, nullptr);
  EXPECT_THAT(PassNames(*pipeline),
              ::testing::ElementsAre("call-inliner", "algsimp", "constant-folding", "cse", "dce",
                                     "layout-assignment", "algsimp", "priority-fusion", "cse",
                                     "dce", "multi_output_fusion", "cse", "dce", "fusion_merger",
                                     "rename-fusions", "scheduling", "buffer-assignment"));
}

// An unknown target is an error that names the known ones.
TEST(BuiltinPipelineTest, UnknownTargetIsAnError) {
  PipelineOptions options;
  options.target = "tpu";
  StatusOr<std::unique_ptr<Pipeline>> pipeline = MakeBuiltinPipeline(options);
  ASSERT_FALSE(pipeline.ok());
  EXPECT_EQ(pipeline.message(), "unknown pipeline \"tpu\" (known: cpu, gpu)");
}

// The CPU budgets differ from the GPU's unless the user set them.
TEST(BuiltinPipelineTest, CpuAndGpuBudgetsDiffer) {
  const FusionLimits defaults;
  const FusionLimits cpu = ResolveFusionLimits(defaults, FusionTarget::kCpu);
  const FusionLimits gpu = ResolveFusionLimits(defaults, FusionTarget::kGpu);
  EXPECT_EQ(gpu.max_operands_and_outputs, 64);
  EXPECT_EQ(gpu.max_reductions, 8);
  EXPECT_GT(cpu.max_operands_and_outputs, gpu.max_operands_and_outputs);
  EXPECT_EQ(cpu.max_reductions, 5);
  FusionLimits user = defaults;
  user.max_operands_and_outputs = 12;
  EXPECT_EQ(ResolveFusionLimits(user, FusionTarget::kCpu).max_operands_and_outputs, 12);
}

// Watches a pipeline run: verifies after each fusion pass and keeps the decisions.
class FusionWatcher : public PassInstrumentation {
 public:
  void BeforePass(const PassRunInfo& info, const ir::Module& module) override {
    const bool first_fusion = info.name == "fusion" || info.name == "priority-fusion";
    if (first_fusion && !before_fusion) before_fusion = module.Clone();
  }
  void AfterPass(const PassRunInfo& info, const ir::Module& module) override {
    passes_run.push_back(info.name);
    if (info.name.find("fusion") != std::string::npos || info.name == "fusion_merger") {
      Status verified = ir::VerifyModule(module);
      EXPECT_TRUE(verified.ok()) << "after " << info.name << ": " << verified.message();
      fusions_after[info.name] = CountFusions(module);
    }
  }
  void OnFusionDecision(const FusionDecisionRecord& record) override {
    decisions.push_back(record);
  }

  std::vector<std::string> passes_run;
  std::map<std::string, int64_t> fusions_after;
  std::vector<FusionDecisionRecord> decisions;
  std::unique_ptr<ir::Module> before_fusion;
};

std::vector<std::string> ModelFiles() {
  std::vector<std::string> files;
  const fs::path root(FUSESCOPE_SOURCE_DIR);
  for (const fs::path& dir : {root / "resources" / "samples", root / "tests" / "data"}) {
    if (!fs::exists(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".hlo") {
        files.push_back(fs::relative(entry.path(), root).string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct PipelineCase {
  std::string file;
  std::string target;
};

void PrintTo(const PipelineCase& c, std::ostream* os) { *os << c.file << " (" << c.target << ")"; }

std::vector<PipelineCase> PipelineCases() {
  std::vector<PipelineCase> cases;
  for (const std::string& file : ModelFiles()) {
    cases.push_back({file, "cpu"});
    cases.push_back({file, "gpu"});
  }
  return cases;
}

class BuiltinPipelineOnModelsTest : public ::testing::TestWithParam<PipelineCase> {};

// Every sample and real XLA module goes through each pipeline: the verifier accepts the
// module after every fusion pass, every decision is explained, each final instruction maps
// back to an original, every live original maps forward to something, and so does every
// live instruction as it was just before fusion.
TEST_P(BuiltinPipelineOnModelsTest, VerifiesAndKeepsProvenance) {
  const PipelineCase& param = GetParam();
  StatusOr<std::unique_ptr<ir::Module>> parsed =
      ir::ParseHloFile(std::string(FUSESCOPE_SOURCE_DIR) + "/" + param.file);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  std::unique_ptr<ir::Module> module = std::move(parsed).value();
  const std::unique_ptr<ir::Module> original = module->Clone();
  if (Status input = ir::VerifyModule(*module); !input.ok()) {
    GTEST_SKIP() << "input does not verify: " << input.message();
  }
  auto pipeline = Make(param.target);
  ASSERT_NE(pipeline, nullptr);
  FusionWatcher watcher;
  pipeline->AddInstrumentation(&watcher);
  Status status = pipeline->Run(*module);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(watcher.passes_run.size(), pipeline->passes().size());
  for (const FusionDecisionRecord& record : watcher.decisions) {
    EXPECT_FALSE(record.explanation.empty())
        << record.pass << ": " << record.producer_name << " -> " << record.consumer_name;
    EXPECT_GE(record.pass_index, 0);
    if (record.accepted()) {
      EXPECT_FALSE(record.fusion_name.empty()) << record.explanation;
    }
  }
  const Status maps_back = CheckProvenance(*module, InstructionIds(*original));
  EXPECT_TRUE(maps_back.ok()) << maps_back.message();
  const Status covers = CheckProvenanceCovers(*module, LiveInstructionIds(*original));
  EXPECT_TRUE(covers.ok()) << covers.message();
  ASSERT_NE(watcher.before_fusion, nullptr);
  testing::ExpectProvenanceComplete(*watcher.before_fusion, *module);
}

INSTANTIATE_TEST_SUITE_P(Models, BuiltinPipelineOnModelsTest, ::testing::ValuesIn(PipelineCases()),
                         [](const ::testing::TestParamInfo<PipelineCase>& test) {
                           std::string name = test.param.file + "_" + test.param.target;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// The CPU pipeline forms fusions on the MLP sample and records why.
TEST(BuiltinPipelineTest, CpuPipelineFusesTheMlpSample) {
  StatusOr<std::unique_ptr<ir::Module>> module =
      ir::ParseHloFile(std::string(FUSESCOPE_SOURCE_DIR) + "/resources/samples/mlp.hlo");
  ASSERT_TRUE(module.ok()) << module.message();
  auto pipeline = Make("cpu");
  FusionWatcher watcher;
  pipeline->AddInstrumentation(&watcher);
  ASSERT_TRUE(pipeline->Run(**module).ok());
  EXPECT_GT(watcher.fusions_after["fusion"], 0);
  const bool any_fusion_decision =
      std::any_of(watcher.decisions.begin(), watcher.decisions.end(),
                  [](const FusionDecisionRecord& r) { return r.pass == "fusion" && r.accepted(); });
  EXPECT_TRUE(any_fusion_decision);
}

// --fusion-limit values reach the fusion passes through the pipeline options.
TEST(BuiltinPipelineTest, HonoursFusionLimitsFromOptions) {
  PipelineOptions options;
  options.fusion.max_instructions = 2;
  for (const std::string target : {"cpu", "gpu"}) {
    StatusOr<std::unique_ptr<ir::Module>> module =
        ir::ParseHloFile(std::string(FUSESCOPE_SOURCE_DIR) + "/resources/samples/mlp.hlo");
    ASSERT_TRUE(module.ok()) << module.message();
    auto pipeline = Make(target, options);
    ASSERT_TRUE(pipeline->Run(**module).ok());
    for (const ir::Computation* computation : FusibleComputations(**module)) {
      for (const ir::Instruction* fusion : testing::Fusions(*computation)) {
        EXPECT_LE(FusedInstructionCount(*fusion), 2) << target << ": " << fusion->name();
      }
    }
  }
}

}  // namespace
}  // namespace fusescope::passes
