#include "views/qt/text/hlo_syntax.h"

#include <gtest/gtest.h>

#include <QString>

namespace fusescope::views {
namespace {

QString Text(const QString& line, HloSyntax::Kind kind) {
  QStringList parts;
  for (const HloSyntax::Token& token : HloSyntax::Tokenize(line)) {
    if (token.kind == kind) parts << line.mid(token.start, token.length);
  }
  return parts.join('|');
}

// An instruction line colours its name, type, opcode, attribute keys, strings and numbers.
TEST(HloSyntaxTest, ColoursTheParts) {
  const QString line =
      "  ROOT %add.3 = f32[8,16]{1,0} add(f32[8,16]{1,0} %a, %b), metadata={op_name=\"x/y\"}";
  EXPECT_EQ(Text(line, HloSyntax::Kind::kKeyword), "ROOT");
  EXPECT_EQ(Text(line, HloSyntax::Kind::kType), "f32[8,16]{1,0}|f32[8,16]{1,0}");
  EXPECT_EQ(Text(line, HloSyntax::Kind::kOpcode), "add");
  EXPECT_EQ(Text(line, HloSyntax::Kind::kAttribute), "metadata|op_name");
  EXPECT_EQ(Text(line, HloSyntax::Kind::kString), "\"x/y\"");
  EXPECT_TRUE(Text(line, HloSyntax::Kind::kName).startsWith("%add.3"));
}

// Tokens cover the line exactly, in order, so painting them reproduces the text.
TEST(HloSyntaxTest, TokensCoverTheLine) {
  const QString line = "  c.1 = f32[] constant(-1.5e3), /*index=5*/ sharding={replicated}";
  int next = 0;
  for (const HloSyntax::Token& token : HloSyntax::Tokenize(line)) {
    EXPECT_EQ(token.start, next);
    EXPECT_GT(token.length, 0);
    next = token.start + token.length;
  }
  EXPECT_EQ(next, line.size());
  EXPECT_EQ(Text(line, HloSyntax::Kind::kComment), "/*index=5*/");
  EXPECT_EQ(Text(line, HloSyntax::Kind::kNumber), "-1.5e3");
}

// An unterminated string or comment runs to the end of the line instead of looping.
TEST(HloSyntaxTest, UnterminatedPiecesEndTheLine) {
  EXPECT_EQ(Text("x = \"abc", HloSyntax::Kind::kString), "\"abc");
  EXPECT_EQ(Text("x /* abc", HloSyntax::Kind::kComment), "/* abc");
}

// Dark palettes get lighter colours than light ones.
TEST(HloSyntaxTest, ColoursFollowThePalette) {
  QPalette light;
  light.setColor(QPalette::Base, Qt::white);
  QPalette dark;
  dark.setColor(QPalette::Base, QColor(30, 30, 30));
  EXPECT_GT(HloSyntax::Color(HloSyntax::Kind::kName, dark).lightness(),
            HloSyntax::Color(HloSyntax::Kind::kName, light).lightness());
}

}  // namespace
}  // namespace fusescope::views
