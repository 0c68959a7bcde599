// The line diff behind the Kernel view and `fusescope kernel --diff`: every line of both
// texts once and in order, a shortest script (checked against an LCS table on random texts),
// and unified hunks as diff -u writes them.

#include "views/line_diff.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace fusescope::views {
namespace {

std::string Side(const std::vector<DiffLine>& lines, LineChange dropped) {
  std::string text;
  for (const DiffLine& line : lines) {
    if (line.change != dropped) text.append(line.text).append("\n");
  }
  return text;
}

int LongestCommon(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<std::vector<int>> table(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1
                                         : std::max(table[i - 1][j], table[i][j - 1]);
    }
  }
  return table[a.size()][b.size()];
}

// Splitting: a final newline ends the last line; \r\n counts as one line end.
TEST(LineDiffTest, SplitsLines) {
  EXPECT_TRUE(SplitLines("").empty());
  EXPECT_EQ(SplitLines("a\nb\n"), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(SplitLines("a\r\n\nb"), (std::vector<std::string_view>{"a", "", "b"}));
}

// Equal texts: every line kept, nothing counted, no unified diff.
TEST(LineDiffTest, EqualTextsHaveNoChanges) {
  const auto lines = DiffTexts("x\ny\n", "x\ny\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_FALSE(CountChanges(lines).changed());
  EXPECT_EQ(lines[1].before_line, 2);
  EXPECT_EQ(lines[1].after_line, 2);
  EXPECT_EQ(UnifiedDiff(lines, "a", "b"), "");
}

// One line replaced in the middle: removed before added, numbered on their own sides.
TEST(LineDiffTest, ReplacedLineIsRemovedThenAdded) {
  const auto lines = DiffTexts("a\nb\nc\n", "a\nB\nc\nd\n");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[1].change, LineChange::kRemoved);
  EXPECT_EQ(lines[1].text, "b");
  EXPECT_EQ(lines[1].before_line, 2);
  EXPECT_EQ(lines[1].after_line, -1);
  EXPECT_EQ(lines[2].change, LineChange::kAdded);
  EXPECT_EQ(lines[2].text, "B");
  EXPECT_EQ(lines[2].after_line, 2);
  EXPECT_EQ(lines[4].change, LineChange::kAdded);
  EXPECT_EQ(lines[4].text, "d");
  const DiffCounts counts = CountChanges(lines);
  EXPECT_EQ(counts.added, 2);
  EXPECT_EQ(counts.removed, 1);
}

// The hunks diff -u prints for the same texts (checked against GNU diff 3.10).
TEST(LineDiffTest, UnifiedDiffMatchesDiffU) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    if (i == 3) after += "line three\n";
    if (i != 3 && i != 15) after += "line " + std::to_string(i) + "\n";
    if (i == 20) after += "line 21\n";
  }
  EXPECT_EQ(UnifiedDiff(DiffTexts(before, after), "before", "after"),
            "--- before\n+++ after\n"
            "@@ -1,6 +1,6 @@\n line 1\n line 2\n-line 3\n+line three\n line 4\n line 5\n line 6\n"
            "@@ -12,9 +12,9 @@\n line 12\n line 13\n line 14\n-line 15\n line 16\n line 17\n"
            " line 18\n line 19\n line 20\n+line 21\n");
  EXPECT_EQ(UnifiedDiff(DiffTexts("", "new\n"), "a", "b"), "--- a\n+++ b\n@@ -0,0 +1 @@\n+new\n");
}

// Random texts over a small alphabet: the script rebuilds both texts and is as short as an
// LCS table says it can be.
TEST(LineDiffTest, RandomTextsGetShortestScripts) {
  std::mt19937 random(7);
  const std::vector<std::string> alphabet = {"a", "b", "c", "d", "%0 = arith.addf", "}"};
  for (int round = 0; round < 300; ++round) {
    std::string before, after;
    const int n = static_cast<int>(random() % 30);
    const int m = static_cast<int>(random() % 30);
    for (int i = 0; i < n; ++i) before += alphabet[random() % alphabet.size()] + "\n";
    for (int i = 0; i < m; ++i) after += alphabet[random() % alphabet.size()] + "\n";
    const auto lines = DiffTexts(before, after);
    ASSERT_EQ(Side(lines, LineChange::kAdded), before) << round;
    ASSERT_EQ(Side(lines, LineChange::kRemoved), after) << round;
    const int common = LongestCommon(SplitLines(before), SplitLines(after));
    const DiffCounts counts = CountChanges(lines);
    ASSERT_EQ(counts.removed, n - common) << round;
    ASSERT_EQ(counts.added, m - common) << round;
  }
}

// Texts with nothing in common: all removed, then all added.
TEST(LineDiffTest, DisjointTextsAreReplacedWhole) {
  const auto lines = DiffTexts("a\nb\n", "c\nd\ne\n");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].change, LineChange::kRemoved);
  EXPECT_EQ(lines[1].change, LineChange::kRemoved);
  EXPECT_EQ(lines[2].change, LineChange::kAdded);
  EXPECT_EQ(lines[4].text, "e");
}

// Two large unrelated texts with a common line in the middle: past the work budget the
// script stays correct (both texts rebuilt, the common prefix and suffix kept).
TEST(LineDiffTest, LargeUnrelatedTextsStayCorrect) {
  std::string before = "head\n", after = "head\n";
  for (int i = 0; i < 12000; ++i) {
    before += "a" + std::to_string(i) + "\n";
    after += "b" + std::to_string(i) + "\n";
    if (i == 6000) before += "middle\n", after += "middle\n";
  }
  before += "tail\n";
  after += "tail\n";
  const auto lines = DiffTexts(before, after);
  EXPECT_EQ(Side(lines, LineChange::kAdded), before);
  EXPECT_EQ(Side(lines, LineChange::kRemoved), after);
  EXPECT_EQ(lines.front().change, LineChange::kSame);
  EXPECT_EQ(lines.back().change, LineChange::kSame);
  const DiffCounts counts = CountChanges(lines);
  EXPECT_GE(counts.added, 12000);
  EXPECT_GE(counts.removed, 12000);
}

// Ignoring indentation: a function printed alone and then inside a module, re-indented, keeps
// its lines; the kept lines are the after text's. Without the option every line changes.
TEST(LineDiffTest, IgnoringIndentationKeepsReindentedLines) {
  const std::string before = "func.func @f() {\n  return\n}\n";
  const std::string after = "module {\n  func.func @f() {\n    return\n  }\n}\n";
  const auto exact = DiffTexts(before, after);
  EXPECT_EQ(CountChanges(exact).removed, 2);  // only the closing brace is kept
  const auto loose = DiffTexts(before, after, {.ignore_indentation = true});
  const DiffCounts counts = CountChanges(loose);
  EXPECT_EQ(counts.removed, 0);
  EXPECT_EQ(counts.added, 2);
  ASSERT_EQ(loose.size(), 5u);
  EXPECT_EQ(loose[2].change, LineChange::kSame);
  EXPECT_EQ(loose[2].text, "    return");
  EXPECT_EQ(loose[2].before_line, 2);
  EXPECT_EQ(loose[2].after_line, 3);
}

}  // namespace
}  // namespace fusescope::views
