#ifndef FUSESCOPE_IR_HLO_LEXER_H_
#define FUSESCOPE_IR_HLO_LEXER_H_

// A cursor over HLO text and the small scanning steps the HLO parser is built from. HLO's
// grammar is context dependent (`-inf` is a literal in `constant(-inf)`, `f32` is a type in
// `f32[8]` but may be a name elsewhere), so the parser asks for what it expects next instead
// of reading a fixed token stream. Every step is linear in what it consumes; nothing here
// allocates except the bracket stack of ScanBalanced, which is reused.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::ir {

class HloLexer {
 public:
  explicit HloLexer(std::string_view text) : text_(text) {}

  std::string_view text() const { return text_; }
  size_t offset() const { return pos_; }
  void set_offset(size_t offset) { pos_ = offset; }
  bool AtEnd() const { return pos_ >= text_.size(); }
  // The character `ahead` places after the cursor, or '\0' past the end.
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void Advance(size_t count = 1) { pos_ += count; }
  bool StartsWith(std::string_view prefix) const;

  // Skips whitespace and `/* ... */` comments (XLA writes `/*index=5*/` inside lists).
  // Returns false, with the cursor on the comment, when a comment is not terminated.
  bool SkipTrivia();
  // Skips whitespace only.
  void SkipWhitespace();
  // Whether a skipped comment was an `/*index=N*/` annotation.
  // How many `/*index=N*/` comments were skipped so far.
  int64_t index_comment_count() const { return index_comments_; }

  // Consumes `c` if it is the next character.
  bool Consume(char c);
  // Consumes `word` if it comes next and is not followed by a name character.
  bool ConsumeWord(std::string_view word);

  // Characters of instruction and computation names: `%Reshape_2-0-Cast.1`, `constant.11..sunk`.
  static bool IsNameChar(char c);
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  // Consumes a run of name characters; empty when there is none.
  std::string_view ScanName();
  // Consumes characters up to (not including) the first whitespace or one of `stops`.
  std::string_view ScanUntil(std::string_view stops);

  // A "..." string with backslash escapes, quotes included in `span`. False, with the cursor
  // on the opening quote, when it is not terminated.
  bool ScanQuoted(std::string_view* span);

  enum class IntStatus { kOk, kNone, kOutOfRange };
  // A decimal integer with an optional '-'. On kNone the cursor does not move.
  IntStatus ScanInt(int64_t* value);

  // Consumes a balanced span: (), [] and {} nest, "..." strings (with backslash escapes)
  // are skipped whole. At nesting depth 0 the span ends before a closing bracket that has no
  // opener in the span, at the end of the text, in kAttributeValue mode before a ',' or a
  // line break (spaces inside a value are kept: `mesh['a'=2] {'a'}`), and in kWord mode before
  // a ',' or any blank. Trailing blanks are not part of the span. An error is an unclosed
  // bracket or string (reported at its opening) or a mismatched closing bracket.
  enum class SpanMode { kAttributeValue, kWord, kUntilClose };
  struct SpanError {
    size_t offset;
    std::string message;
  };
  std::optional<SpanError> ScanBalanced(SpanMode mode, std::string_view* span);

  // 1-based line and column of `offset` (linear; meant for error messages).
  std::pair<int64_t, int64_t> LineColumn(size_t offset) const;

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int64_t index_comments_ = 0;
  std::vector<std::pair<char, size_t>> open_brackets_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_HLO_LEXER_H_
