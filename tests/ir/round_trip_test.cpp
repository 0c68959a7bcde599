// Every HLO file in tests/data and resources/samples, found at run time: it parses, printing
// is a fixed point, and a file XLA wrote prints back as XLA wrote it (modulo whitespace).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"

namespace fusescope::ir {
namespace {

namespace fs = std::filesystem;

struct HloFile {
  std::string path;
  bool written_by_xla;  // tests/data holds only what XLA printed itself
};

void PrintTo(const HloFile& file, std::ostream* out) { *out << file.path; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool IsHloText(const fs::path& path) {
  const std::string extension = path.extension().string();
  if (extension == ".hlo") return true;
  if (extension != ".txt") return false;
  return ReadFile(path.string()).starts_with("HloModule");
}

std::vector<HloFile> FindHloFiles() {
  std::vector<HloFile> files;
  const fs::path source(FUSESCOPE_SOURCE_DIR);
  for (const auto& [folder, by_xla] : {std::pair{source / "tests" / "data", true},
                                       std::pair{source / "resources" / "samples", false}}) {
    if (!fs::exists(folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      // xla_gpu_fusion_dump's snapshots are our printer's, in XLA's file layout.
      if (entry.path().string().find("xla_gpu_fusion_dump") != std::string::npos) continue;
      if (entry.is_regular_file() && IsHloText(entry.path())) {
        files.push_back({entry.path().string(), by_xla});
      }
    }
  }
  std::sort(files.begin(), files.end(),
            [](const HloFile& a, const HloFile& b) { return a.path < b.path; });
  return files;
}

std::string WithoutWhitespace(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out += c;
  }
  return out;
}

// Whether two computations define the same instruction name (XLA's canonical form writes
// tmp_0 in each). Module names are unique, so the parser renames such repeats, like XLA's
// parser does, and the text cannot print back as written.
bool RepeatsInstructionNames(const std::string& text) {
  std::set<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t equals = line.find(" = ");
    if (!line.starts_with("  ") || equals == std::string::npos) continue;
    std::string name = line.substr(0, equals);
    name.erase(0, name.find_first_not_of(' '));
    if (name.starts_with("ROOT ")) name.erase(0, 5);
    if (name.starts_with("%")) name.erase(0, 1);
    if (!names.insert(name).second) return true;
  }
  return false;
}

// The first place two texts differ, with some context, for readable failures.
std::string FirstDifference(const std::string& a, const std::string& b) {
  const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  const size_t at = static_cast<size_t>(ia - a.begin());
  const size_t from = at > 80 ? at - 80 : 0;
  return "at " + std::to_string(at) + ":\n  expected ..." + a.substr(from, 160) +
         "\n  printed  ..." + b.substr(from, 160);
}

std::unique_ptr<Module> ParseOrFail(const std::string& text, const std::string& name) {
  auto module = ParseHloModule(text, name);
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

class RoundTripTest : public ::testing::TestWithParam<HloFile> {};

TEST_P(RoundTripTest, PrintingIsAFixedPoint) {
  auto module = ParseHloFile(GetParam().path);
  ASSERT_TRUE(module.ok()) << module.message();
  const std::string printed = PrintModule(**module);
  auto reparsed = ParseOrFail(printed, "printed");
  ASSERT_NE(reparsed, nullptr);
  const std::string reprinted = PrintModule(*reparsed);
  EXPECT_EQ(printed, reprinted) << FirstDifference(printed, reprinted);
  EXPECT_EQ((*module)->instruction_count(), reparsed->instruction_count());
}

TEST_P(RoundTripTest, XlaTextPrintsBackModuloWhitespace) {
  if (!GetParam().written_by_xla) GTEST_SKIP() << "not written by XLA";
  const std::string original = ReadFile(GetParam().path);
  if (RepeatsInstructionNames(original)) GTEST_SKIP() << "names repeat across computations";
  auto module = ParseOrFail(original, GetParam().path);
  ASSERT_NE(module, nullptr);
  const std::string expected = WithoutWhitespace(original);
  const std::string printed = WithoutWhitespace(PrintModule(*module));
  EXPECT_EQ(expected, printed) << FirstDifference(expected, printed);
}

TEST_P(RoundTripTest, CanonicalFormIsAFixedPointAndKeepsTheFingerprint) {
  auto module = ParseHloFile(GetParam().path);
  ASSERT_TRUE(module.ok()) << module.message();
  const std::string canonical = PrintModule(**module, PrintOptions::Canonical());
  auto reparsed = ParseOrFail(canonical, "canonical");
  ASSERT_NE(reparsed, nullptr);
  EXPECT_EQ(canonical, PrintModule(*reparsed, PrintOptions::Canonical()));
  EXPECT_EQ(Fingerprint(**module), Fingerprint(*reparsed));
}

TEST_P(RoundTripTest, PrintedIdsReadBackAsTheSameIds) {
  auto module = ParseHloFile(GetParam().path);
  ASSERT_TRUE(module.ok()) << module.message();
  PrintOptions options;
  options.print_ids = true;
  auto reparsed = ParseOrFail(PrintModule(**module, options), "with ids");
  ASSERT_NE(reparsed, nullptr);
  for (const auto& computation : (*module)->computations()) {
    for (const auto& instruction : computation->instructions()) {
      const Instruction* copy = reparsed->FindInstructionById(instruction->id());
      ASSERT_NE(copy, nullptr) << instruction->name();
      EXPECT_EQ(copy->name(), instruction->name());
    }
  }
}

std::string TestName(const ::testing::TestParamInfo<HloFile>& info) {
  std::string relative = fs::relative(info.param.path, FUSESCOPE_SOURCE_DIR).string() + "_" +
                         std::to_string(info.index);
  for (char& c : relative) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return relative;
}

INSTANTIATE_TEST_SUITE_P(Files, RoundTripTest, ::testing::ValuesIn(FindHloFiles()), TestName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RoundTripTest);

TEST(RoundTripFiles, FindsTheRealXlaFiles) {
  const std::vector<HloFile> files = FindHloFiles();
  EXPECT_GE(std::count_if(files.begin(), files.end(),
                          [](const HloFile& file) { return file.written_by_xla; }),
            10);
}

}  // namespace
}  // namespace fusescope::ir
