// Golden tests for the fusion passes: HLO text in, fused text out. Cases live in
// tests/passes/golden_fusion/*.txt, text before the first case being a comment:
//
//   === NAME
//   intent: one sentence saying what the case shows
//   passes: priority-fusion, multi_output_fusion
//   decision: PRODUCER -> CONSUMER = reason_code   (optional, repeatable)
//   --- input
//   HloModule ...
//   --- expected                                   (optional: without it nothing may change)
//   HloModule ...
//
// Modules are compared in the canonical print, so expected text may name things freely.
// Each pass must report truthfully whether it changed the module and leave it valid;
// afterwards provenance must be complete both ways. A decision line requires a recorded
// decision on that pair (names as in the input) with that reason code.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "ir/verifier.h"
#include "passes/fusion_merger.h"
#include "passes/instruction_fusion.h"
#include "passes/multi_output_fusion.h"
#include "passes/priority_fusion.h"
#include "passes/provenance_util.h"

namespace fusescope::passes {
namespace {

namespace fs = std::filesystem;

struct ExpectedDecision {
  std::string producer;
  std::string consumer;
  std::string code;
};

struct FusionGolden {
  std::string file;
  std::string name;
  std::string intent;
  std::vector<std::string> passes;
  std::vector<ExpectedDecision> decisions;
  std::string input;
  std::string expected;
};

void PrintTo(const FusionGolden& golden, std::ostream* out) {
  *out << golden.file << ": " << golden.name;
}

std::string Strip(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

// "P -> C = code"
ExpectedDecision ParseDecision(const std::string& text) {
  const size_t arrow = text.find("->");
  const size_t equals = text.find('=', arrow == std::string::npos ? 0 : arrow);
  if (arrow == std::string::npos || equals == std::string::npos) return {};
  return {Strip(text.substr(0, arrow)), Strip(text.substr(arrow + 2, equals - arrow - 2)),
          Strip(text.substr(equals + 1))};
}

void ReadHeader(const std::string& line, FusionGolden& golden) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return;
  const std::string key = Strip(line.substr(0, colon));
  const std::string value = Strip(line.substr(colon + 1));
  if (key == "intent") golden.intent = value;
  if (key == "decision") golden.decisions.push_back(ParseDecision(value));
  if (key == "passes") {
    std::stringstream list(value);
    std::string pass;
    while (std::getline(list, pass, ',')) golden.passes.push_back(Strip(pass));
  }
}

std::vector<FusionGolden> ReadGoldens(const fs::path& path) {
  std::ifstream in(path);
  std::vector<FusionGolden> goldens;
  std::string* section = nullptr;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("=== ", 0) == 0) {
      goldens.push_back({path.filename().string(), Strip(line.substr(4))});
      section = nullptr;
    } else if (goldens.empty()) {
      continue;
    } else if (line.rfind("--- input", 0) == 0) {
      section = &goldens.back().input;
    } else if (line.rfind("--- expected", 0) == 0) {
      section = &goldens.back().expected;
    } else if (section) {
      *section += line + "\n";
    } else {
      ReadHeader(line, goldens.back());
    }
  }
  return goldens;
}

std::vector<FusionGolden> AllGoldens() {
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(FUSESCOPE_SOURCE_DIR) / "tests/passes/golden_fusion")) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<FusionGolden> goldens;
  for (const fs::path& file : files) {
    for (FusionGolden& golden : ReadGoldens(file)) goldens.push_back(std::move(golden));
  }
  return goldens;
}

std::unique_ptr<Pass> MakeFusionPass(const std::string& name) {
  if (name == "fusion") return std::make_unique<InstructionFusion>();
  if (name == "priority-fusion") return std::make_unique<PriorityFusion>();
  if (name == "multi_output_fusion") return std::make_unique<MultiOutputFusion>();
  if (name == "fusion_merger") return std::make_unique<FusionMerger>();
  return nullptr;
}

std::unique_ptr<ir::Module> ParseText(const std::string& text, const std::string& what) {
  StatusOr<std::unique_ptr<ir::Module>> parsed = ir::ParseHloModule(text, what);
  EXPECT_TRUE(parsed.ok()) << parsed.message();
  return parsed.ok() ? std::move(parsed).value() : nullptr;
}

std::string CanonicalText(const ir::Module& module) {
  return ir::PrintModule(module, ir::PrintOptions::Canonical());
}

class FusionGoldenTest : public ::testing::TestWithParam<FusionGolden> {};

TEST_P(FusionGoldenTest, ProducesExpectedFusions) {
  const FusionGolden& golden = GetParam();
  ASSERT_FALSE(golden.intent.empty()) << "every case states its intent";
  ASSERT_FALSE(golden.passes.empty());
  std::unique_ptr<ir::Module> module = ParseText(golden.input, golden.name + " input");
  ASSERT_NE(module, nullptr);
  const uint64_t original = ir::Fingerprint(*module);
  const auto original_ids = InstructionIds(*module);
  const auto live = LiveInstructionIds(*module);

  FusionDecisionLog log;
  for (const std::string& name : golden.passes) {
    std::unique_ptr<Pass> pass = MakeFusionPass(name);
    ASSERT_NE(pass, nullptr) << "unknown fusion pass " << name;
    PassContext context;
    context.decisions = &log;
    context.pass_name = name;
    const uint64_t before = ir::Fingerprint(*module);
    StatusOr<bool> changed = pass->Run(*module, context);
    ASSERT_TRUE(changed.ok()) << name << ": " << changed.message();
    EXPECT_EQ(*changed, ir::Fingerprint(*module) != before) << name << " misreports a change";
    const Status verified = ir::VerifyModule(*module);
    ASSERT_TRUE(verified.ok()) << name << " broke the IR: " << verified.message();
  }
  const Status maps_back = CheckProvenance(*module, original_ids);
  EXPECT_TRUE(maps_back.ok()) << maps_back.message();
  const Status maps_forward = CheckProvenanceCovers(*module, live);
  EXPECT_TRUE(maps_forward.ok()) << maps_forward.message();

  for (const ExpectedDecision& expected : golden.decisions) {
    const bool found = std::any_of(log.records().begin(), log.records().end(),
                                   [&](const FusionDecisionRecord& record) {
                                     return record.producer_name == expected.producer &&
                                            record.consumer_name == expected.consumer &&
                                            FusionReasonCode(record.reason) == expected.code;
                                   });
    EXPECT_TRUE(found) << "no decision " << expected.producer << " -> " << expected.consumer
                       << " = " << expected.code;
  }

  if (golden.expected.empty()) {
    EXPECT_EQ(ir::Fingerprint(*module), original) << "must not change, got:\n"
                                                  << CanonicalText(*module);
    return;
  }
  std::unique_ptr<ir::Module> expected = ParseText(golden.expected, golden.name + " expected");
  ASSERT_NE(expected, nullptr);
  EXPECT_EQ(CanonicalText(*module), CanonicalText(*expected));
}

std::string GoldenName(const ::testing::TestParamInfo<FusionGolden>& test) {
  std::string name = fs::path(test.param.file).stem().string() + "_" + test.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, FusionGoldenTest, ::testing::ValuesIn(AllGoldens()), GoldenName);

}  // namespace
}  // namespace fusescope::passes
