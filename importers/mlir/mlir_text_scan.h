#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_TEXT_SCAN_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_TEXT_SCAN_H_

// Small scanners over MLIR text shared by the tolerant reader and the dialect mappings:
// string literals are skipped, brackets counted, `->` is no bracket.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::ir::mlir_import {

std::string_view TrimText(std::string_view text);
bool IsValueNameChar(char c);  // the characters of `%name` after the `%`

// Position just after the string literal starting at `open` (a '"'), or text.size().
size_t SkipStringLiteral(std::string_view text, size_t open);

// Splits at commas outside brackets of any kind (including `<>`) and strings; parts trimmed,
// empty parts dropped.
std::vector<std::string_view> SplitTopLevel(std::string_view text, char separator = ',');

// The last occurrence of `token` outside brackets and strings, or npos.
size_t FindLastTopLevel(std::string_view text, std::string_view token);

// The deepest nesting of brackets of any kind (strings skipped): MLIR's parser recurses on
// each level, so text nested deeper than a bound is kept from it.
int64_t MaxBracketDepth(std::string_view text);

// The result types of an operation's text (after its name): after the last top-level `->`
// following the last top-level ` : `, or after that ` : `; `(a, b)` unwrapped.
std::vector<std::string> ResultTypesOf(std::string_view text);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_TEXT_SCAN_H_
