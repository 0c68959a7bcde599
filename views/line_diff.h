#ifndef FUSESCOPE_VIEWS_LINE_DIFF_H_
#define FUSESCOPE_VIEWS_LINE_DIFF_H_

// A line diff of two texts (Myers' O((N+M)D) algorithm in linear space): what the kernel
// level shows between two lowering stages, as coloured lines in the Kernel view and as a
// unified diff in `fusescope kernel --diff`. No Qt.

#include <string>
#include <string_view>
#include <vector>

namespace fusescope::views {

enum class LineChange { kSame, kRemoved, kAdded };

struct DiffLine {
  LineChange change = LineChange::kSame;
  // A view into the text it came from, without the newline: a kept line's is the after
  // text's (they differ when indentation is ignored).
  std::string_view text;
  int before_line = -1;   // 1-based line in the before text; -1 for an added line
  int after_line = -1;    // 1-based line in the after text; -1 for a removed line
};

// The lines of `text`; a final newline ends the last line rather than starting an empty one.
std::vector<std::string_view> SplitLines(std::string_view text);

struct DiffOptions {
  // Lines that differ only in leading whitespace are the same line: MLIR prints a function
  // alone after a function pass and inside its module after a module pass, indented anew.
  bool ignore_indentation = false;
};

// A shortest edit script from `before` to `after`, every line of both once, in order: within
// a change, removed lines come before added ones. The views point into the inputs' texts.
// Bounded work: past some 10^7 steps (two unrelated texts of several thousand lines) what is
// left is replaced whole, still a correct script but no longer a shortest one.
std::vector<DiffLine> DiffLines(const std::vector<std::string_view>& before,
                                const std::vector<std::string_view>& after,
                                DiffOptions options = {});
std::vector<DiffLine> DiffTexts(std::string_view before, std::string_view after,
                                DiffOptions options = {});

struct DiffCounts {
  int added = 0;
  int removed = 0;
  bool changed() const { return added > 0 || removed > 0; }
};
DiffCounts CountChanges(const std::vector<DiffLine>& lines);

// `diff -u` style: "--- before_name", "+++ after_name", then hunks "@@ -a,b +c,d @@" with
// `context` unchanged lines around each change. Empty when the texts are equal.
std::string UnifiedDiff(const std::vector<DiffLine>& lines, std::string_view before_name,
                        std::string_view after_name, int context = 3);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_LINE_DIFF_H_
