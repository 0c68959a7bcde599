#include "ir/hlo_lexer.h"

#include <algorithm>
#include <limits>

namespace fusescope::ir {
namespace {

char ClosingBracket(char open) {
  switch (open) {
    case '(':
      return ')';
    case '[':
      return ']';
    case '{':
      return '}';
    default:
      return '\0';
  }
}

bool IsClosingBracket(char c) { return c == ')' || c == ']' || c == '}'; }

}  // namespace

bool HloLexer::StartsWith(std::string_view prefix) const {
  return text_.substr(std::min(pos_, text_.size())).starts_with(prefix);
}

bool HloLexer::SkipTrivia() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (IsSpace(c)) {
      ++pos_;
      continue;
    }
    if (c != '/' || Peek(1) != '*') return true;
    const size_t end = text_.find("*/", pos_ + 2);
    if (end == std::string_view::npos) return false;
    if (text_.substr(pos_ + 2).starts_with("index=")) ++index_comments_;
    pos_ = end + 2;
  }
  return true;
}

void HloLexer::SkipWhitespace() {
  while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
}

bool HloLexer::Consume(char c) {
  if (Peek() != c || AtEnd()) return false;
  ++pos_;
  return true;
}

bool HloLexer::ConsumeWord(std::string_view word) {
  if (!StartsWith(word) || IsNameChar(Peek(word.size()))) return false;
  pos_ += word.size();
  return true;
}

bool HloLexer::IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_' || c == '.' ||
         c == '-';
}

std::string_view HloLexer::ScanName() {
  const size_t start = pos_;
  while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view HloLexer::ScanUntil(std::string_view stops) {
  const size_t start = pos_;
  while (pos_ < text_.size() && !IsSpace(text_[pos_]) &&
         stops.find(text_[pos_]) == std::string_view::npos) {
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

bool HloLexer::ScanQuoted(std::string_view* span) {
  const size_t start = pos_;
  size_t p = pos_ + 1;
  while (p < text_.size() && text_[p] != '"') p += text_[p] == '\\' ? 2 : 1;
  if (p >= text_.size()) return false;
  pos_ = p + 1;
  *span = text_.substr(start, pos_ - start);
  return true;
}

HloLexer::IntStatus HloLexer::ScanInt(int64_t* value) {
  const size_t start = pos_;
  size_t p = pos_;
  const bool negative = p < text_.size() && text_[p] == '-';
  if (negative) ++p;
  if (p >= text_.size() || !IsDigit(text_[p])) return IntStatus::kNone;
  // Accumulate as a negative number so that INT64_MIN stays representable.
  int64_t result = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  bool overflow = false;
  for (; p < text_.size() && IsDigit(text_[p]); ++p) {
    const int digit = text_[p] - '0';
    if (result < (kMin + digit) / 10) overflow = true;
    if (!overflow) result = result * 10 - digit;
  }
  if (!negative && !overflow && result == kMin) overflow = true;
  pos_ = p;
  if (overflow) {
    pos_ = start;
    return IntStatus::kOutOfRange;
  }
  *value = negative ? result : -result;
  return IntStatus::kOk;
}

std::optional<HloLexer::SpanError> HloLexer::ScanBalanced(SpanMode mode, std::string_view* span) {
  const size_t start = pos_;
  open_brackets_.clear();
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '"') {
      std::string_view quoted;
      if (!ScanQuoted(&quoted)) return SpanError{pos_, "unterminated string"};
      continue;
    }
    if (const char close = ClosingBracket(c)) {
      open_brackets_.emplace_back(close, pos_++);
      continue;
    }
    if (IsClosingBracket(c)) {
      if (open_brackets_.empty()) break;
      if (open_brackets_.back().first != c) {
        return SpanError{pos_, std::string("mismatched '") + c + "', expected '" +
                                   open_brackets_.back().first + "'"};
      }
      open_brackets_.pop_back();
      ++pos_;
      continue;
    }
    if (open_brackets_.empty() && mode != SpanMode::kUntilClose &&
        (c == ',' || c == '\n' || c == '\r' || (mode == SpanMode::kWord && IsSpace(c)))) {
      break;
    }
    ++pos_;
  }
  if (!open_brackets_.empty()) {
    const auto [close, where] = open_brackets_.front();
    return SpanError{
        where, std::string("unbalanced '") + text_[where] + "' (no matching '" + close + "')"};
  }
  size_t end = pos_;
  while (end > start && (text_[end - 1] == ' ' || text_[end - 1] == '\t')) --end;
  *span = text_.substr(start, end - start);
  return std::nullopt;
}

std::pair<int64_t, int64_t> HloLexer::LineColumn(size_t offset) const {
  offset = std::min(offset, text_.size());
  const std::string_view before = text_.substr(0, offset);
  const int64_t line = 1 + std::count(before.begin(), before.end(), '\n');
  const size_t line_start = before.rfind('\n');
  const size_t column = line_start == std::string_view::npos ? offset : offset - line_start - 1;
  return {line, static_cast<int64_t>(column) + 1};
}

}  // namespace fusescope::ir
