// Provenance through the graph passes on real modules: after algsimp, constant folding,
// CSE, DCE, layout assignment, scheduling and buffer assignment have run over every sample
// model and every HLO file in tests/data, each instruction still maps to at least one
// instruction of the module as it was read, every instruction that contributed to the
// result is still answered for by some instruction, and no pass misreports whether it
// changed the module.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/hlo_parser.h"
#include "ir/verifier.h"
#include "passes/algebraic_simplifier.h"
#include "passes/buffer_assignment.h"
#include "passes/constant_folding.h"
#include "passes/cse.h"
#include "passes/dce.h"
#include "passes/layout_assignment.h"
#include "passes/pipeline.h"
#include "passes/provenance_util.h"
#include "passes/scheduler.h"
#include "resources/samples.h"

namespace fusescope::passes {
namespace {

namespace fs = std::filesystem;

struct ModuleSource {
  std::string name;
  std::string text;
};

void PrintTo(const ModuleSource& source, std::ostream* out) { *out << source.name; }

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<ModuleSource> AllModules() {
  std::vector<ModuleSource> sources;
  for (const resources::SampleModel& sample : resources::SampleModels()) {
    sources.push_back({"sample " + std::string(sample.name), std::string(sample.text)});
  }
  const fs::path data = fs::path(FUSESCOPE_SOURCE_DIR) / "tests" / "data";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(data)) {
    if (entry.is_regular_file() && entry.path().extension() == ".hlo") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    sources.push_back({fs::relative(file, data).string(), ReadFile(file)});
  }
  return sources;
}

// Fails the test for any pass whose change flag disagrees with the measured change.
class HonestyCheck : public PassInstrumentation {
 public:
  void AfterPass(const PassRunInfo& info, const ir::Module&) override {
    EXPECT_FALSE(info.change_flag_lies())
        << info.name << " reported changed=" << info.reported_changed;
  }
};

class ProvenanceTest : public ::testing::TestWithParam<ModuleSource> {};

TEST_P(ProvenanceTest, EveryInstructionKeepsAnOriginalId) {
  StatusOr<std::unique_ptr<ir::Module>> parsed = ir::ParseHloModule(GetParam().text);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  ir::Module& module = **parsed;
  const std::unordered_set<int64_t> original = InstructionIds(module);
  const std::unordered_set<int64_t> live = LiveInstructionIds(module);

  PipelineOptions options;
  // XLA's canonical text repeats instruction names across computations, which the verifier
  // refuses; such inputs still go through the passes, just without the checker.
  options.verify_between_passes = ir::VerifyModule(module).ok();
  Pipeline pipeline("graph passes", options);
  pipeline.Add<AlgebraicSimplifier>();
  pipeline.Add<ConstantFolding>();
  pipeline.Add<Cse>();
  pipeline.Add<Dce>();
  pipeline.Add<LayoutAssignment>();
  pipeline.Add<AlgebraicSimplifier>();
  pipeline.Add<Dce>();
  pipeline.Add<Scheduler>();
  pipeline.Add<BufferAssignment>();
  HonestyCheck honesty;
  pipeline.AddInstrumentation(&honesty);
  const Status status = pipeline.Run(module);
  ASSERT_TRUE(status.ok()) << status.message();

  const Status maps_back = CheckProvenance(module, original);
  EXPECT_TRUE(maps_back.ok()) << maps_back.message();
  const Status maps_forward = CheckProvenanceCovers(module, live);
  EXPECT_TRUE(maps_forward.ok()) << maps_forward.message();
}

std::string SourceName(const ::testing::TestParamInfo<ModuleSource>& info) {
  std::string name = info.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Modules, ProvenanceTest, ::testing::ValuesIn(AllModules()), SourceName);

}  // namespace
}  // namespace fusescope::passes
