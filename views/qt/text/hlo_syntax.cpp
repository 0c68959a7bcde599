#include "views/qt/text/hlo_syntax.h"

namespace fusescope::views {
namespace {

bool IsWordChar(QChar c) {
  return c.isLetterOrNumber() || c == '_' || c == '.' || c == '-' || c == '%' || c == '$';
}

bool IsTypeName(QStringView word) {
  static const char* const kTypes[] = {"pred", "s1",  "s2",   "s4",    "s8",       "s16",
                                       "s32",  "s64", "u1",   "u2",    "u4",       "u8",
                                       "u16",  "u32", "u64",  "bf16",  "f16",      "f32",
                                       "f64",  "c64", "c128", "token", "f8e4m3fn", "f8e5m2"};
  for (const char* type : kTypes) {
    if (word == QLatin1String(type)) return true;
  }
  return false;
}

bool IsKeyword(QStringView word) {
  return word == QLatin1String("ROOT") || word == QLatin1String("ENTRY") ||
         word == QLatin1String("HloModule");
}

class Scanner {
 public:
  explicit Scanner(QStringView line) : line_(line) {}

  std::vector<HloSyntax::Token> Run() {
    while (pos_ < line_.size()) Step();
    return std::move(tokens_);
  }

 private:
  QChar At(qsizetype i) const { return i < line_.size() ? line_[i] : QChar(); }

  void Emit(qsizetype start, qsizetype end, HloSyntax::Kind kind) {
    if (end <= start) return;
    if (!tokens_.empty() && tokens_.back().kind == kind &&
        tokens_.back().start + tokens_.back().length == start) {
      tokens_.back().length += static_cast<int>(end - start);
      return;
    }
    tokens_.push_back({static_cast<int>(start), static_cast<int>(end - start), kind});
  }

  void Step() {
    const QChar c = line_[pos_];
    if (c == '"') return String();
    if (c == '/' && At(pos_ + 1) == '*') return Comment();
    if (c.isDigit() || (c == '-' && At(pos_ + 1).isDigit())) return Number();
    if (IsWordChar(c)) return Word();
    Emit(pos_, pos_ + 1, HloSyntax::Kind::kPlain);
    ++pos_;
  }

  void String() {
    qsizetype end = pos_ + 1;
    while (end < line_.size() && line_[end] != '"') end += line_[end] == '\\' ? 2 : 1;
    end = std::min(end + 1, line_.size());
    Emit(pos_, end, HloSyntax::Kind::kString);
    pos_ = end;
  }

  void Comment() {
    qsizetype end = line_.indexOf(QLatin1String("*/"), pos_ + 2);
    end = end < 0 ? line_.size() : end + 2;
    Emit(pos_, end, HloSyntax::Kind::kComment);
    pos_ = end;
  }

  void Number() {
    qsizetype end = pos_ + 1;
    while (end < line_.size() && (line_[end].isLetterOrNumber() || line_[end] == '.')) ++end;
    Emit(pos_, end, HloSyntax::Kind::kNumber);
    pos_ = end;
  }

  // A type runs on through its dimensions and layout: "f32[8,16]{1,0}".
  qsizetype TypeEnd(qsizetype end) const {
    for (QChar open : {QChar('['), QChar('{')}) {
      if (At(end) != open) continue;
      const QChar close = open == '[' ? ']' : '}';
      const qsizetype found = line_.indexOf(close, end);
      if (found < 0) return line_.size();
      end = found + 1;
    }
    return end;
  }

  void Word() {
    qsizetype end = pos_;
    while (end < line_.size() && IsWordChar(line_[end])) ++end;
    const QStringView word = line_.mid(pos_, end - pos_);
    HloSyntax::Kind kind = HloSyntax::Kind::kPlain;
    if (IsKeyword(word)) {
      kind = HloSyntax::Kind::kKeyword;
    } else if (IsTypeName(word) && (At(end) == '[' || At(end) == ' ' || At(end) == ')')) {
      kind = HloSyntax::Kind::kType;
      end = TypeEnd(end);
    } else if (At(end) == '(') {
      kind = HloSyntax::Kind::kOpcode;
    } else if (At(end) == '=') {
      kind = HloSyntax::Kind::kAttribute;
    } else if (word.startsWith('%') || (At(end) == ' ' && At(end + 1) == '=')) {
      kind = HloSyntax::Kind::kName;
    } else if (pos_ > 0 && (line_[pos_ - 1] == '(' || line_[pos_ - 1] == ' ') &&
               word.contains('.')) {
      kind = HloSyntax::Kind::kName;
    }
    Emit(pos_, end, kind);
    pos_ = end;
  }

  QStringView line_;
  qsizetype pos_ = 0;
  std::vector<HloSyntax::Token> tokens_;
};

}  // namespace

std::vector<HloSyntax::Token> HloSyntax::Tokenize(QStringView line) { return Scanner(line).Run(); }

QColor HloSyntax::Color(Kind kind, const QPalette& palette) {
  const bool dark = palette.color(QPalette::Base).lightness() < 128;
  switch (kind) {
    case Kind::kPlain:
      return palette.color(QPalette::Text);
    case Kind::kKeyword:
      return dark ? QColor(0xc6, 0x92, 0xf0) : QColor(0x7b, 0x1f, 0xa2);
    case Kind::kName:
      return dark ? QColor(0x82, 0xb8, 0xf5) : QColor(0x1a, 0x5f, 0xb4);
    case Kind::kType:
      return dark ? QColor(0x6f, 0xcf, 0xb2) : QColor(0x00, 0x7a, 0x6c);
    case Kind::kOpcode:
      return dark ? QColor(0xf0, 0xb4, 0x6a) : QColor(0xa8, 0x4b, 0x00);
    case Kind::kAttribute:
      return dark ? QColor(0xa8, 0xa8, 0xa8) : QColor(0x6a, 0x6a, 0x6a);
    case Kind::kString:
      return dark ? QColor(0xd7, 0xa0, 0x8c) : QColor(0x9c, 0x3b, 0x2a);
    case Kind::kNumber:
      return dark ? QColor(0xb5, 0xce, 0xa8) : QColor(0x3a, 0x7d, 0x22);
    case Kind::kComment:
      return dark ? QColor(0x80, 0x80, 0x80) : QColor(0x90, 0x90, 0x90);
  }
  return palette.color(QPalette::Text);
}

}  // namespace fusescope::views
