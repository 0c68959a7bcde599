#include "importers/mlir/mlir_log_splitter.h"

#include <cctype>

namespace fusescope::ir::mlir_import {
namespace {

constexpr std::string_view kHeaderStart = "// -----// IR Dump ";
constexpr std::string_view kHeaderEnd = "//----- //";

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

bool ConsumePrefix(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// `('func.func' operation: @main)` at the end of the header text.
void TakeScope(std::string_view& text, MlirLogSection& section) {
  if (text.empty() || text.back() != ')') return;
  const size_t open = text.rfind("('");
  if (open == std::string_view::npos) return;
  std::string_view scope = text.substr(open + 2, text.size() - open - 3);
  const size_t quote = scope.find('\'');
  if (quote == std::string_view::npos) return;
  section.scope_operation = std::string(scope.substr(0, quote));
  const size_t at = scope.find('@', quote);
  if (at != std::string_view::npos) section.scope_symbol = std::string(scope.substr(at + 1));
  text = Trim(text.substr(0, open));
}

// `Name (arg)`, `Name: arg{options}`, `Name Failed (arg)`, or just `Name`.
void TakePass(std::string_view text, MlirLogSection& section) {
  std::string_view argument;
  if (!text.empty() && text.back() == ')') {
    const size_t open = text.rfind(" (");
    if (open != std::string_view::npos) {
      argument = text.substr(open + 2, text.size() - open - 3);
      text = text.substr(0, open);
    }
  } else if (const size_t colon = text.find(": "); colon != std::string_view::npos) {
    argument = Trim(text.substr(colon + 2));
    text = text.substr(0, colon);
  }
  text = Trim(text);
  constexpr std::string_view kFailed = " Failed";
  if (text.size() > kFailed.size() && text.substr(text.size() - kFailed.size()) == kFailed) {
    section.failed = true;
    text = Trim(text.substr(0, text.size() - kFailed.size()));
  }
  if (const size_t brace = argument.find('{'); brace != std::string_view::npos) {
    section.pass_options = std::string(argument.substr(brace));
    argument = argument.substr(0, brace);
  }
  section.pass_name = std::string(text);
  section.pass_argument = std::string(Trim(argument));
}

bool IsDiagnosticLine(std::string_view line) {
  // `path:12:34: error: ...`; the path may hold colons of its own only before the numbers.
  for (std::string_view kind : {": error: ", ": warning: ", ": note: ", ": remark: "}) {
    const size_t at = line.find(kind);
    if (at == std::string_view::npos || at == 0) continue;
    std::string_view position = line.substr(0, at);
    int numbers = 0;
    for (int i = 0; i < 2; ++i) {
      const size_t colon = position.rfind(':');
      if (colon == std::string_view::npos) break;
      std::string_view digits = position.substr(colon + 1);
      if (digits.empty()) break;
      bool all_digits = true;
      for (char c : digits) all_digits = all_digits && std::isdigit(static_cast<unsigned char>(c));
      if (!all_digits) break;
      ++numbers;
      position = position.substr(0, colon);
    }
    if (numbers == 2 && !position.empty()) return true;
  }
  return false;
}

}  // namespace

std::string MlirLogSection::DisplayName() const {
  std::string name = pass_name;
  if (!pass_argument.empty()) name += (name.empty() ? "" : " ") + ("(" + pass_argument + ")");
  if (name.empty()) name = "unnamed pass";
  if (before) name += " [before]";
  return name;
}

bool ParseMlirLogHeader(std::string_view line, MlirLogSection& section) {
  line = Trim(line);
  if (!ConsumePrefix(line, kHeaderStart)) return false;
  if (line.size() < kHeaderEnd.size() ||
      line.substr(line.size() - kHeaderEnd.size()) != kHeaderEnd) {
    return false;
  }
  line = Trim(line.substr(0, line.size() - kHeaderEnd.size()));
  if (ConsumePrefix(line, "Before ")) {
    section.before = true;
  } else if (!ConsumePrefix(line, "After ")) {
    return false;
  }
  TakeScope(line, section);
  TakePass(line, section);
  return true;
}

MlirLog SplitMlirLog(std::string_view text) {
  MlirLog log;
  std::vector<std::string> pending_diagnostics;
  bool in_diagnostics = false;
  int64_t line_number = 0;
  size_t position = 0;
  while (position < text.size()) {
    size_t end = text.find('\n', position);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(position, end - position);
    ++line_number;
    MlirLogSection header;
    if (line.size() > kHeaderStart.size() && ParseMlirLogHeader(line, header)) {
      if (!log.sections.empty() && !in_diagnostics) log.sections.back().body_end = position;
      header.header_line = line_number;
      header.body_begin = end < text.size() ? end + 1 : end;
      header.body_end = text.size();
      header.diagnostics = std::move(pending_diagnostics);
      pending_diagnostics.clear();
      log.sections.push_back(std::move(header));
      in_diagnostics = false;
    } else if (!log.sections.empty() && (in_diagnostics || IsDiagnosticLine(line))) {
      if (!in_diagnostics) log.sections.back().body_end = position;
      in_diagnostics = true;
      std::string_view kept = line;
      if (!kept.empty() && kept.back() == '\r') kept.remove_suffix(1);
      pending_diagnostics.emplace_back(kept);
    }
    position = end + 1;
  }
  log.trailing_diagnostics = std::move(pending_diagnostics);
  return log;
}

bool LooksLikeMlirLog(std::string_view prefix) {
  size_t position = 0;
  while (position < prefix.size()) {
    size_t end = prefix.find('\n', position);
    if (end == std::string_view::npos) end = prefix.size();
    MlirLogSection section;
    if (ParseMlirLogHeader(prefix.substr(position, end - position), section)) return true;
    position = end + 1;
  }
  return false;
}

}  // namespace fusescope::ir::mlir_import
