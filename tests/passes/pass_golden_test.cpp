// Golden tests for the graph passes: HLO text in, checked text out. Cases live in
// tests/passes/golden/*.txt:
//
//   === NAME
//   intent: one sentence saying what the case shows
//   passes: algsimp, dce
//   stat: peak_bytes=64          (optional, repeatable: a figure some pass must report)
//   --- input
//   HloModule ...
//   --- expected                 (optional: without it the module must not change)
//   HloModule ...
//
// Both sides are compared in the canonical print (stable names), so the expected text may
// use any names. Every pass must tell the truth about whether it changed the module and leave
// it valid; afterwards every instruction maps back to an original one, and every original
// instruction that contributed to the result maps forward to something.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "ir/verifier.h"
#include "passes/algebraic_simplifier.h"
#include "passes/buffer_assignment.h"
#include "passes/constant_folding.h"
#include "passes/cse.h"
#include "passes/dce.h"
#include "passes/layout_assignment.h"
#include "passes/provenance_util.h"
#include "passes/scheduler.h"

namespace fusescope::passes {
namespace {

namespace fs = std::filesystem;

struct GoldenCase {
  std::string file;
  std::string name;
  std::string intent;
  std::vector<std::string> passes;
  std::vector<std::pair<std::string, std::string>> stats;
  std::string input;
  std::string expected;  // empty: must not change
};

void PrintTo(const GoldenCase& c, std::ostream* out) { *out << c.file << ": " << c.name; }

std::string Trim(std::string text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string> SplitList(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, separator)) {
    item = Trim(item);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

void ReadHeaderLine(const std::string& line, GoldenCase& c) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return;
  const std::string key = Trim(line.substr(0, colon));
  const std::string value = Trim(line.substr(colon + 1));
  if (key == "intent") c.intent = value;
  if (key == "passes") c.passes = SplitList(value, ',');
  if (key == "stat") {
    const size_t equals = value.find('=');
    c.stats.emplace_back(Trim(value.substr(0, equals)), Trim(value.substr(equals + 1)));
  }
}

std::vector<GoldenCase> ReadCases(const fs::path& path) {
  std::ifstream in(path);
  std::vector<GoldenCase> cases;
  std::string line;
  std::string* section = nullptr;
  while (std::getline(in, line)) {
    if (line.starts_with("=== ")) {
      cases.push_back({path.filename().string(), Trim(line.substr(4))});
      section = nullptr;
    } else if (cases.empty()) {
      continue;  // file comment
    } else if (line.starts_with("--- input")) {
      section = &cases.back().input;
    } else if (line.starts_with("--- expected")) {
      section = &cases.back().expected;
    } else if (section != nullptr) {
      *section += line + "\n";
    } else {
      ReadHeaderLine(line, cases.back());
    }
  }
  return cases;
}

std::vector<GoldenCase> AllCases() {
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(FUSESCOPE_SOURCE_DIR) / "tests/passes/golden")) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<GoldenCase> cases;
  for (const fs::path& file : files) {
    for (GoldenCase& c : ReadCases(file)) cases.push_back(std::move(c));
  }
  return cases;
}

std::unique_ptr<Pass> MakePass(const std::string& name) {
  if (name == "algsimp") return std::make_unique<AlgebraicSimplifier>();
  if (name == "constant-folding") return std::make_unique<ConstantFolding>();
  if (name == "cse") return std::make_unique<Cse>();
  if (name == "dce") return std::make_unique<Dce>();
  if (name == "layout-assignment") return std::make_unique<LayoutAssignment>();
  if (name == "buffer-assignment") return std::make_unique<BufferAssignment>();
  if (name == "scheduling") return std::make_unique<Scheduler>();
  return nullptr;
}

std::unique_ptr<ir::Module> Parse(const std::string& text, const std::string& what) {
  auto parsed = ir::ParseHloModule(text, what);
  EXPECT_TRUE(parsed.ok()) << parsed.message();
  return parsed.ok() ? std::move(parsed).value() : nullptr;
}

std::string Canonical(const ir::Module& module) {
  return ir::PrintModule(module, ir::PrintOptions::Canonical());
}

class PassGoldenTest : public testing::TestWithParam<GoldenCase> {};

TEST_P(PassGoldenTest, ProducesExpectedText) {
  const GoldenCase& c = GetParam();
  ASSERT_FALSE(c.intent.empty()) << "every case states its intent";
  ASSERT_FALSE(c.passes.empty());
  std::unique_ptr<ir::Module> module = Parse(c.input, c.name + " input");
  ASSERT_NE(module, nullptr);
  const uint64_t original = ir::Fingerprint(*module);
  const std::unordered_set<int64_t> original_ids = InstructionIds(*module);
  const std::unordered_set<int64_t> live = LiveInstructionIds(*module);

  std::vector<std::pair<std::string, std::string>> stats;
  for (const std::string& name : c.passes) {
    std::unique_ptr<Pass> pass = MakePass(name);
    ASSERT_NE(pass, nullptr) << "unknown pass " << name;
    PassContext context;
    const uint64_t before = ir::Fingerprint(*module);
    StatusOr<bool> changed = pass->Run(*module, context);
    ASSERT_TRUE(changed.ok()) << name << ": " << changed.message();
    EXPECT_EQ(*changed, ir::Fingerprint(*module) != before)
        << name << " misreports whether it changed the module";
    const Status verified = ir::VerifyModule(*module);
    ASSERT_TRUE(verified.ok()) << name << " broke the IR: " << verified.message();
    stats.insert(stats.end(), context.stats.begin(), context.stats.end());
  }
  const Status maps_back = CheckProvenance(*module, original_ids);
  EXPECT_TRUE(maps_back.ok()) << maps_back.message();
  const Status maps_forward = CheckProvenanceCovers(*module, live);
  EXPECT_TRUE(maps_forward.ok()) << maps_forward.message();
  for (const auto& stat : c.stats) {
    EXPECT_NE(std::find(stats.begin(), stats.end(), stat), stats.end())
        << "missing stat " << stat.first << "=" << stat.second;
  }

  if (c.expected.empty()) {
    EXPECT_EQ(ir::Fingerprint(*module), original) << "must not change, got:\n"
                                                  << Canonical(*module);
    return;
  }
  std::unique_ptr<ir::Module> expected = Parse(c.expected, c.name + " expected");
  ASSERT_NE(expected, nullptr);
  EXPECT_EQ(Canonical(*module), Canonical(*expected));
}

std::string CaseName(const testing::TestParamInfo<GoldenCase>& info) {
  std::string name = fs::path(info.param.file).stem().string() + "_" + info.param.name;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, PassGoldenTest, testing::ValuesIn(AllCases()), CaseName);

}  // namespace
}  // namespace fusescope::passes
