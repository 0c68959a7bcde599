// Our fusion counts next to XLA's on the same JAX modules (tests/data/xla_fusion_counts.json,
// written by scripts/gen_fixtures.py from XLA:CPU's own compilation). The numbers are
// printed side by side, not required to be equal: XLA:CPU sends dots and convolutions to
// library custom fusions (kCustom) and wraps lone leftover ops into single-op fusions
// (fusion-wrapper), where our CPU pipeline output-fuses dots/convolutions with their
// epilogue (kOutput) and leaves lone ops bare; the simplifiers also differ. Only sanity is
// asserted.

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ir/hlo_parser.h"
#include "passes/fusion_utils.h"
#include "passes/pipeline.h"

namespace fusescope::passes {
namespace {

// Just enough JSON for the fixture: objects, arrays, strings, numbers, true/false/null.
struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json> fields;

  const Json& operator[](const std::string& key) const {
    static const Json kMissing;
    auto found = fields.find(key);
    return found == fields.end() ? kMissing : found->second;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string text) : text_(std::move(text)) {}

  bool Read(Json& out) { return Value(out) && (Skip(), at_ == text_.size()); }

 private:
  void Skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool Eat(char c) {
    Skip();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool String(std::string& out) {
    if (!Eat('"')) return false;
    while (at_ < text_.size() && text_[at_] != '"') {
      if (text_[at_] == '\\' && at_ + 1 < text_.size()) ++at_;
      out += text_[at_++];
    }
    return Eat('"');
  }
  bool Value(Json& out) {
    Skip();
    if (at_ >= text_.size()) return false;
    const char c = text_[at_];
    if (c == '{') return Object(out);
    if (c == '[') return Array(out);
    if (c == '"') {
      out.kind = Json::Kind::kString;
      return String(out.text);
    }
    for (const char* word : {"true", "false", "null"}) {
      if (text_.compare(at_, std::char_traits<char>::length(word), word) == 0) {
        out.kind = word[0] == 'n' ? Json::Kind::kNull : Json::Kind::kBool;
        out.number = word[0] == 't' ? 1 : 0;
        at_ += std::char_traits<char>::length(word);
        return true;
      }
    }
    size_t used = 0;
    out.kind = Json::Kind::kNumber;
    out.number = std::stod(text_.substr(at_, 32), &used);
    at_ += used;
    return used > 0;
  }
  bool Object(Json& out) {
    out.kind = Json::Kind::kObject;
    Eat('{');
    if (Eat('}')) return true;
    do {
      std::string key;
      if (!String(key) || !Eat(':') || !Value(out.fields[key])) return false;
    } while (Eat(','));
    return Eat('}');
  }
  bool Array(Json& out) {
    out.kind = Json::Kind::kArray;
    Eat('[');
    if (Eat(']')) return true;
    do {
      out.items.emplace_back();
      if (!Value(out.items.back())) return false;
    } while (Eat(','));
    return Eat(']');
  }

  std::string text_;
  size_t at_ = 0;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct OurCounts {
  int64_t total = 0;
  std::map<std::string, int64_t> by_kind;
  int64_t instructions = 0;
};

OurCounts CompileAndCount(const std::string& path, const std::string& target) {
  OurCounts counts;
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloFile(path);
  EXPECT_TRUE(module.ok()) << module.message();
  if (!module.ok()) return counts;
  counts.instructions = (*module)->instruction_count();
  PipelineOptions options;
  options.target = target;
  StatusOr<std::unique_ptr<Pipeline>> pipeline = MakeBuiltinPipeline(options);
  EXPECT_TRUE(pipeline.ok()) << pipeline.message();
  Status status = (*pipeline)->Run(**module);
  EXPECT_TRUE(status.ok()) << status.message();
  for (const ir::Computation* computation : FusibleComputations(**module)) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() != ir::Opcode::kFusion) continue;
      ++counts.total;
      ++counts.by_kind["k" + instruction->fusion_kind()];
    }
  }
  return counts;
}

std::string Kinds(const std::map<std::string, int64_t>& by_kind) {
  std::string text;
  for (const auto& [kind, count] : by_kind) {
    text += (text.empty() ? "" : " ") + kind + "=" + std::to_string(count);
  }
  return text.empty() ? "-" : text;
}

int64_t Count(const Json& object, const std::string& key) {
  return static_cast<int64_t>(object[key].number);
}

// Prints, per model, our CPU and GPU fusion counts next to XLA:CPU's, split by where XLA's
// fusions came from (its "fusion" pass, library custom fusions, the fusion wrapper).
TEST(XlaComparisonTest, PrintsOurFusionCountsNextToXlas) {
  const std::string root = FUSESCOPE_SOURCE_DIR;
  Json fixture;
  ASSERT_TRUE(JsonReader(ReadFile(root + "/tests/data/xla_fusion_counts.json")).Read(fixture));
  const Json& models = fixture["models"];
  ASSERT_EQ(models.kind, Json::Kind::kObject);
  ASSERT_FALSE(models.fields.empty());
  std::printf("%-10s %6s %-28s %6s | %9s %6s %7s %6s\n", "model", "ours", "ours by kind", "gpu",
              "xla:fusion", "custom", "wrapper", "total");
  for (const auto& [name, xla] : models.fields) {
    const std::string path = root + "/tests/data/" + name + "/before_optimizations.hlo";
    const OurCounts cpu = CompileAndCount(path, "cpu");
    const OurCounts gpu = CompileAndCount(path, "gpu");
    const Json& origin = xla["by_origin"];
    const int64_t xla_total = Count(xla, "fusion_count");
    std::printf("%-10s %6lld %-28s %6lld | %9lld %6lld %7lld %6lld\n", name.c_str(),
                static_cast<long long>(cpu.total), Kinds(cpu.by_kind).c_str(),
                static_cast<long long>(gpu.total),
                static_cast<long long>(Count(origin, "instruction_fusion")),
                static_cast<long long>(Count(origin, "custom")),
                static_cast<long long>(Count(origin, "wrapper")),
                static_cast<long long>(xla_total));
    // Sanity: both compilers fuse something; we never form more fusions than there were
    // instructions, nor wildly more than XLA does on the same module.
    EXPECT_GT(xla_total, 0) << name;
    EXPECT_GT(cpu.total, 0) << name;
    EXPECT_GT(gpu.total, 0) << name;
    EXPECT_LT(cpu.total, cpu.instructions) << name;
    EXPECT_LE(cpu.total, 2 * xla_total) << name;
  }
}

}  // namespace
}  // namespace fusescope::passes
