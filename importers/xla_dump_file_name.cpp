#include "importers/xla_dump_file_name.h"

#include <algorithm>
#include <array>
#include <vector>

namespace fusescope::ir {

namespace {

constexpr std::string_view kPrefix = "module_";
// Longer than any module count and short enough for int64_t.
constexpr size_t kMaxIdDigits = 18;

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int64_t ToInt(std::string_view digits) {
  int64_t value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

std::vector<std::string_view> SplitDots(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

std::string Join(const std::vector<std::string_view>& parts, size_t begin, size_t end) {
  std::string joined;
  for (size_t i = begin; i < end; ++i) {
    if (i > begin) joined += '.';
    joined += parts[i];
  }
  return joined;
}

bool StripSuffix(std::string_view& text, std::string_view suffix) {
  if (!text.ends_with(suffix)) return false;
  text.remove_suffix(suffix.size());
  return true;
}

// Reports XLA writes next to the optimized module, named after it with a dash.
struct ReportSuffix {
  std::string_view suffix;
  std::string_view what;
};
constexpr std::array<ReportSuffix, 4> kReports = {{
    {"-buffer-assignment-values", "buffer assignment values"},
    {"-buffer-assignment", "buffer assignment report"},
    {"-memory-usage-report", "memory usage report"},
    {"-live-range", "live range report"},
}};

struct Extension {
  std::string_view extension;
  std::string_view what;
};
constexpr std::array<Extension, 9> kExtensions = {{
    {".ll", "LLVM IR"},
    {".mlir", "MLIR"},
    {".textproto", "text proto"},
    {".pb", "binary proto"},
    {".o", "object file"},
    {".ptx", "PTX"},
    {".json", "JSON"},
    {".dot", "Graphviz graph"},
    {".html", "HTML"},
}};

// `<name>.NNNN.<pipeline>.after_<pass>[.before_<next>]`: fills `result` and returns true.
bool ParsePassStem(std::string_view stem, XlaDumpFileName& result) {
  const std::vector<std::string_view> parts = SplitDots(stem);
  for (size_t i = 1; i + 2 < parts.size(); ++i) {
    if (parts[i].size() < 4 || parts[i].size() > kMaxIdDigits || !AllDigits(parts[i])) continue;
    if (parts[i + 1].empty() || !parts[i + 2].starts_with("after_")) continue;
    size_t next = i + 3;
    while (next < parts.size() && !parts[next].starts_with("before_")) ++next;
    std::string pass = Join(parts, i + 2, next).substr(std::string_view("after_").size());
    std::string next_pass =
        next < parts.size()
            ? Join(parts, next, parts.size()).substr(std::string_view("before_").size())
            : std::string();
    if (pass.empty()) return false;
    result.kind = XlaDumpFileName::Kind::kPass;
    result.module_name = Join(parts, 0, i);
    result.ordinal = ToInt(parts[i]);
    result.pipeline = std::string(parts[i + 1]);
    result.pass = std::move(pass);
    result.next_pass = std::move(next_pass);
    return true;
  }
  return false;
}

// The text files: snapshots, and the reports named after the optimized module.
void ParseTextStem(std::string_view stem, XlaDumpFileName& result) {
  // Pass names come first: a pass could be called "..._after_optimizations" or end like a
  // report ("x-live-range") too, and only pass snapshots have an ordinal.
  if (ParsePassStem(stem, result)) return;
  for (const ReportSuffix& report : kReports) {
    if (stem.ends_with(report.suffix)) {
      stem.remove_suffix(report.suffix.size());
      const size_t dot = stem.rfind('.');
      result.module_name = std::string(stem.substr(0, dot == std::string_view::npos ? 0 : dot));
      result.what = report.what;
      return;
    }
  }
  std::string_view name = stem;
  if (StripSuffix(name, ".before_optimizations") && !name.empty()) {
    result.kind = XlaDumpFileName::Kind::kBeforeOptimizations;
    result.module_name = std::string(name);
    return;
  }
  name = stem;
  if (StripSuffix(name, "_after_optimizations")) {
    const size_t dot = name.rfind('.');
    if (dot != std::string_view::npos && dot > 0 && dot + 1 < name.size()) {
      result.kind = XlaDumpFileName::Kind::kAfterOptimizations;
      result.module_name = std::string(name.substr(0, dot));
      result.platform = std::string(name.substr(dot + 1));
      return;
    }
  }
  const size_t dot = stem.find('.');
  result.module_name = std::string(stem.substr(0, dot));
  result.what = "text file of no known kind";
}

}  // namespace

std::optional<XlaDumpFileName> ParseXlaDumpFileName(std::string_view file_name) {
  if (!file_name.starts_with(kPrefix)) return std::nullopt;
  std::string_view rest = file_name.substr(kPrefix.size());
  const size_t dot = rest.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > kMaxIdDigits) return std::nullopt;
  const std::string_view digits = rest.substr(0, dot);
  if (!AllDigits(digits)) return std::nullopt;
  rest.remove_prefix(dot + 1);
  if (rest.empty()) return std::nullopt;

  XlaDumpFileName result;
  result.module_id = ToInt(digits);
  std::string_view stem = rest;
  if (StripSuffix(stem, ".txt")) {
    ParseTextStem(stem, result);
  } else {
    result.what = "not HLO text";
    for (const Extension& extension : kExtensions) {
      if (rest.ends_with(extension.extension)) result.what = extension.what;
    }
    if (rest.ends_with(".debug_options")) result.what = "debug options";
    result.module_name = std::string(rest.substr(0, rest.find('.')));
  }
  // A snapshot without a module name cannot be grouped; call it what it is.
  if (result.module_name.empty() && result.IsHloSnapshot()) {
    result = XlaDumpFileName{};
    result.module_id = ToInt(digits);
    result.what = "text file of no known kind";
  }
  return result;
}

}  // namespace fusescope::ir
