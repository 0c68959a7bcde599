#include "importers/mlir/mlir_text_scan.h"

#include <algorithm>
#include <cctype>

namespace fusescope::ir::mlir_import {
namespace {

// Walks `text` calling visit(position, depth) for every character outside strings, with the
// bracket depth before it.
template <typename Visit>
void WalkTopLevel(std::string_view text, Visit visit) {
  int depth = 0;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      i = SkipStringLiteral(text, i);
      continue;
    }
    if (c == ')' || c == ']' || c == '}' || (c == '>' && (i == 0 || text[i - 1] != '-'))) {
      if (depth > 0) --depth;
    }
    visit(i, depth);
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    ++i;
  }
}

}  // namespace

std::string_view TrimText(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

bool IsValueNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

size_t SkipStringLiteral(std::string_view text, size_t open) {
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

std::vector<std::string_view> SplitTopLevel(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  auto add = [&](size_t end) {
    std::string_view part = TrimText(text.substr(start, end - start));
    if (!part.empty()) parts.push_back(part);
  };
  WalkTopLevel(text, [&](size_t i, int depth) {
    if (depth == 0 && text[i] == separator) {
      add(i);
      start = i + 1;
    }
  });
  add(text.size());
  return parts;
}

size_t FindLastTopLevel(std::string_view text, std::string_view token) {
  size_t found = std::string_view::npos;
  WalkTopLevel(text, [&](size_t i, int depth) {
    if (depth == 0 && text.substr(i, token.size()) == token) found = i;
  });
  return found;
}

int64_t MaxBracketDepth(std::string_view text) {
  int64_t depth = 0;
  int64_t deepest = 0;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      i = SkipStringLiteral(text, i);
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') deepest = std::max(deepest, ++depth);
    if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) --depth;
    ++i;
  }
  return deepest;
}

std::vector<std::string> ResultTypesOf(std::string_view text) {
  std::string_view types;
  const size_t colon = FindLastTopLevel(text, " : ");
  if (colon != std::string_view::npos) {
    types = text.substr(colon + 3);
    const size_t arrow = FindLastTopLevel(types, "->");
    if (arrow != std::string_view::npos) {
      types = types.substr(arrow + 2);
    } else {
      // `: tensor<4x8xf32> into tensor<32xf32>`, `: index to i32`: the result type is last.
      for (std::string_view keyword : {" into ", " to "}) {
        const size_t at = FindLastTopLevel(types, keyword);
        if (at != std::string_view::npos) {
          types = types.substr(at + keyword.size());
          break;
        }
      }
    }
  } else {
    const size_t arrow = FindLastTopLevel(text, "->");
    if (arrow == std::string_view::npos) return {};
    types = text.substr(arrow + 2);
  }
  types = TrimText(types);
  if (!types.empty() && types.front() == '(') {
    // `(tensor<f32>, tensor<i32>) reducer(...)`: the list up to its matching bracket.
    size_t close = std::string_view::npos;
    int depth = 0;
    for (size_t i = 0; i < types.size() && close == std::string_view::npos; ++i) {
      if (types[i] == '"') {
        i = SkipStringLiteral(types, i) - 1;
        continue;
      }
      if (types[i] == '(') ++depth;
      if (types[i] == ')' && --depth == 0) close = i;
    }
    if (close != std::string_view::npos) types = types.substr(1, close - 1);
  }
  std::vector<std::string> result;
  for (std::string_view part : SplitTopLevel(types)) {
    // A result type may carry attributes (`tensor<4xf32> {jax.result_info = ""}`).
    const size_t brace = FindLastTopLevel(part, " {");
    if (brace != std::string_view::npos) part = TrimText(part.substr(0, brace));
    // ... or be followed by the names of regions (`tensor<4xf32> reducer(...)`, `cond do`):
    // a type has no space outside its brackets.
    std::vector<std::string_view> words = SplitTopLevel(part, ' ');
    if (!words.empty()) part = words.front();
    result.emplace_back(part);
  }
  return result;
}

}  // namespace fusescope::ir::mlir_import
