#include "recording/snapshot_source.h"

#include <cctype>
#include <string_view>

namespace fusescope::recording {
namespace {

bool IsSymbolChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

// Whether the line at `begin` starts (after indentation) with `operation`, then optional
// visibility words, then `@symbol` not followed by more of a symbol.
bool HeadsOperation(std::string_view line, std::string_view operation, std::string_view symbol) {
  // MLIR prints builtin.module as `module`.
  if (operation == "builtin.module" && HeadsOperation(line, "module", symbol)) return true;
  size_t at = line.find_first_not_of(' ');
  if (at == std::string_view::npos || line.substr(at, operation.size()) != operation) return false;
  at += operation.size();
  if (at >= line.size() || line[at] != ' ') return false;
  const std::string target = "@" + std::string(symbol);
  for (size_t found = line.find(target, at); found != std::string_view::npos;
       found = line.find(target, found + 1)) {
    const size_t end = found + target.size();
    const bool whole = end >= line.size() || !IsSymbolChar(line[end]);
    const std::string_view between = line.substr(at, found - at);
    // Only visibility words may stand between the operation and its symbol.
    if (whole && between.find_first_of("(){}=:<>\"") == std::string_view::npos) return true;
  }
  return false;
}

// The end (past its newline) of the operation whose header line starts at `begin`: the first
// line end at which the brace depth is back to zero.
size_t OperationEnd(const std::string& text, size_t begin) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (c == '\n' && depth <= 0) return i + 1;
  }
  return text.size();
}

// Blank lines a section ends with separate it from the next header, not part of its IR.
std::string WithoutTrailingBlankLines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text + "\n";
}

std::string Indented(const std::string& text, std::string_view indent) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) out += indent;
    out.append(text, at, end - at);
    out += '\n';
    at = end + 1;
  }
  return out;
}

}  // namespace

std::optional<std::string> SpliceOperation(const std::string& text, const std::string& operation,
                                           const std::string& symbol,
                                           const std::string& replacement) {
  for (size_t begin = 0; begin < text.size();) {
    size_t end_of_line = text.find('\n', begin);
    if (end_of_line == std::string::npos) end_of_line = text.size();
    const std::string_view line(text.data() + begin, end_of_line - begin);
    if (HeadsOperation(line, operation, symbol)) {
      const size_t end = OperationEnd(text, begin);
      const std::string_view indent = line.substr(0, line.find_first_not_of(' '));
      std::string body = WithoutTrailingBlankLines(replacement);
      // The section prints its operation alone, from column 0.
      while (!body.empty() && body.front() == '\n') body.erase(body.begin());
      return text.substr(0, begin) + Indented(body, indent) + text.substr(end);
    }
    begin = end_of_line + 1;
  }
  return std::nullopt;
}

std::optional<std::string> FullSourceText(const std::vector<SnapshotSource>& sources,
                                          size_t index) {
  if (index >= sources.size() || sources[index].empty()) return std::nullopt;
  size_t whole = index + 1;
  for (size_t j = index + 1; j-- > 0;) {
    if (!sources[j].empty() && !sources[j].scoped()) {
      whole = j;
      break;
    }
  }
  if (whole > index) return sources[index].text;  // no whole IR before it: the scope alone
  std::string text = sources[whole].text;
  for (size_t k = whole + 1; k <= index; ++k) {
    const SnapshotSource& source = sources[k];
    if (source.empty() || !source.scoped()) continue;
    if (auto spliced =
            SpliceOperation(text, source.scope_operation, source.scope_symbol, source.text)) {
      text = std::move(*spliced);
    } else {
      // Not printed before (a log of function passes shows each function as a pass first
      // reaches it): it joins the text where the importer puts it, at the end.
      text = WithoutTrailingBlankLines(std::move(text)) + "\n" +
             WithoutTrailingBlankLines(source.text);
    }
  }
  return text;
}

}  // namespace fusescope::recording
