#include "views/line_diff.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace fusescope::views {
namespace {

// One step of the edit script: a line kept (both indexes), removed (`before`) or added
// (`after`). Indexes are 0-based.
struct Step {
  LineChange change;
  int before;
  int after;
};

// Myers' divide and conquer over lines numbered by content: find the middle snake of the
// shortest edit script, then solve both halves. Linear space; O((N+M)D) time.
class Differ {
 public:
  Differ(const std::vector<int>& before, const std::vector<int>& after) : a_(before), b_(after) {}

  std::vector<Step> Run() {
    Diff(0, static_cast<int>(a_.size()), 0, static_cast<int>(b_.size()));
    return std::move(steps_);
  }

 private:
  void Diff(int a0, int a1, int b0, int b1) {
    while (a0 < a1 && b0 < b1 && a_[a0] == b_[b0])
      steps_.push_back({LineChange::kSame, a0++, b0++});
    int suffix = 0;
    while (a1 - suffix > a0 && b1 - suffix > b0 && a_[a1 - 1 - suffix] == b_[b1 - 1 - suffix]) {
      ++suffix;
    }
    a1 -= suffix;
    b1 -= suffix;
    if (a0 == a1) {
      for (int j = b0; j < b1; ++j) steps_.push_back({LineChange::kAdded, -1, j});
    } else if (b0 == b1) {
      for (int i = a0; i < a1; ++i) steps_.push_back({LineChange::kRemoved, i, -1});
    } else {
      Bisect(a0, a1, b0, b1);
    }
    for (int i = 0; i < suffix; ++i) steps_.push_back({LineChange::kSame, a1 + i, b1 + i});
  }

  void Bisect(int a0, int a1, int b0, int b1) {
    const int n = a1 - a0;
    const int m = b1 - b0;
    const int max_d = (n + m + 1) / 2;
    const int offset = max_d;
    const int length = 2 * max_d + 2;
    std::vector<int> forward(static_cast<size_t>(length), -1);
    std::vector<int> backward(static_cast<size_t>(length), -1);
    forward[static_cast<size_t>(offset + 1)] = 0;
    backward[static_cast<size_t>(offset + 1)] = 0;
    const int delta = n - m;
    // With an odd delta the paths meet on a forward step, else on a backward one.
    const bool front = delta % 2 != 0;
    int k1_start = 0, k1_end = 0, k2_start = 0, k2_end = 0;
    auto at = [](std::vector<int>& v, int index) -> int& { return v[static_cast<size_t>(index)]; };
    for (int d = 0; d < max_d && work_ < kWorkBudget; ++d) {
      work_ += 2 * static_cast<int64_t>(d) + 1;
      for (int k1 = -d + k1_start; k1 <= d - k1_end; k1 += 2) {
        const int k1_offset = offset + k1;
        int x1 = (k1 == -d || (k1 != d && at(forward, k1_offset - 1) < at(forward, k1_offset + 1)))
                     ? at(forward, k1_offset + 1)
                     : at(forward, k1_offset - 1) + 1;
        int y1 = x1 - k1;
        while (x1 < n && y1 < m && a_[a0 + x1] == b_[b0 + y1]) ++x1, ++y1;
        at(forward, k1_offset) = x1;
        if (x1 > n) {
          k1_end += 2;
        } else if (y1 > m) {
          k1_start += 2;
        } else if (front) {
          const int k2_offset = offset + delta - k1;
          if (k2_offset >= 0 && k2_offset < length && at(backward, k2_offset) != -1 &&
              x1 >= n - at(backward, k2_offset)) {
            Split(a0, a1, b0, b1, x1, y1);
            return;
          }
        }
      }
      for (int k2 = -d + k2_start; k2 <= d - k2_end; k2 += 2) {
        const int k2_offset = offset + k2;
        int x2 =
            (k2 == -d || (k2 != d && at(backward, k2_offset - 1) < at(backward, k2_offset + 1)))
                ? at(backward, k2_offset + 1)
                : at(backward, k2_offset - 1) + 1;
        int y2 = x2 - k2;
        while (x2 < n && y2 < m && a_[a1 - 1 - x2] == b_[b1 - 1 - y2]) ++x2, ++y2;
        at(backward, k2_offset) = x2;
        if (x2 > n) {
          k2_end += 2;
        } else if (y2 > m) {
          k2_start += 2;
        } else if (!front) {
          const int k1_offset = offset + delta - k2;
          if (k1_offset >= 0 && k1_offset < length && at(forward, k1_offset) != -1) {
            const int x1 = at(forward, k1_offset);
            const int y1 = offset + x1 - k1_offset;
            if (x1 >= n - x2) {
              Split(a0, a1, b0, b1, x1, y1);
              return;
            }
          }
        }
      }
    }
    // Nothing in common, or no work left to find what is: replaced whole.
    for (int i = a0; i < a1; ++i) steps_.push_back({LineChange::kRemoved, i, -1});
    for (int j = b0; j < b1; ++j) steps_.push_back({LineChange::kAdded, -1, j});
  }

  void Split(int a0, int a1, int b0, int b1, int x, int y) {
    Diff(a0, a0 + x, b0, b0 + y);
    Diff(a0 + x, a1, b0 + y, b1);
  }

  // Diagonals visited, summed over all bisections: two unrelated texts of n lines cost about
  // n^2 / 2. Past the budget each part left is replaced whole: still a correct script, no
  // longer a shortest one, and the diff of two huge unrelated stages takes a moment, not
  // minutes.
  static constexpr int64_t kWorkBudget = 50'000'000;

  const std::vector<int>& a_;
  const std::vector<int>& b_;
  std::vector<Step> steps_;
  int64_t work_ = 0;
};

// Within each run of changes, removed lines first: how diff tools show a replaced block.
void GroupChanges(std::vector<Step>& steps) {
  size_t i = 0;
  while (i < steps.size()) {
    if (steps[i].change == LineChange::kSame) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < steps.size() && steps[end].change != LineChange::kSame) ++end;
    std::stable_partition(steps.begin() + static_cast<std::ptrdiff_t>(i),
                          steps.begin() + static_cast<std::ptrdiff_t>(end),
                          [](const Step& step) { return step.change == LineChange::kRemoved; });
    i = end;
  }
}

// A hunk's range as diff -u writes it: the count left out when it is 1.
std::string Range(int start, int count) {
  return count == 1 ? std::to_string(start) : std::to_string(start) + "," + std::to_string(count);
}

}  // namespace

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<DiffLine> DiffLines(const std::vector<std::string_view>& before,
                                const std::vector<std::string_view>& after, DiffOptions options) {
  std::unordered_map<std::string_view, int> numbers;
  auto number = [&numbers, options](const std::vector<std::string_view>& lines) {
    std::vector<int> result;
    result.reserve(lines.size());
    for (std::string_view line : lines) {
      if (options.ignore_indentation) {
        const size_t start = line.find_first_not_of(" \t");
        line = start == std::string_view::npos ? std::string_view() : line.substr(start);
      }
      result.push_back(numbers.emplace(line, static_cast<int>(numbers.size())).first->second);
    }
    return result;
  };
  const std::vector<int> a = number(before);
  const std::vector<int> b = number(after);
  std::vector<Step> steps = Differ(a, b).Run();
  GroupChanges(steps);
  std::vector<DiffLine> lines;
  lines.reserve(steps.size());
  for (const Step& step : steps) {
    DiffLine line;
    line.change = step.change;
    line.text = step.after >= 0 ? after[static_cast<size_t>(step.after)]
                                : before[static_cast<size_t>(step.before)];
    line.before_line = step.before >= 0 ? step.before + 1 : -1;
    line.after_line = step.after >= 0 ? step.after + 1 : -1;
    lines.push_back(line);
  }
  return lines;
}

std::vector<DiffLine> DiffTexts(std::string_view before, std::string_view after,
                                DiffOptions options) {
  return DiffLines(SplitLines(before), SplitLines(after), options);
}

DiffCounts CountChanges(const std::vector<DiffLine>& lines) {
  DiffCounts counts;
  for (const DiffLine& line : lines) {
    if (line.change == LineChange::kAdded) ++counts.added;
    if (line.change == LineChange::kRemoved) ++counts.removed;
  }
  return counts;
}

std::string UnifiedDiff(const std::vector<DiffLine>& lines, std::string_view before_name,
                        std::string_view after_name, int context) {
  std::vector<size_t> changes;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].change != LineChange::kSame) changes.push_back(i);
  }
  if (changes.empty()) return {};
  const size_t reach = static_cast<size_t>(std::max(context, 0));
  std::string out;
  out.append("--- ").append(before_name).append("\n+++ ").append(after_name).append("\n");
  // Lines of each text before position i, to number hunks that start with an added or
  // removed line (whose own number on the other side is -1).
  std::vector<int> before_seen(lines.size() + 1, 0), after_seen(lines.size() + 1, 0);
  for (size_t i = 0; i < lines.size(); ++i) {
    before_seen[i + 1] = before_seen[i] + (lines[i].change != LineChange::kAdded);
    after_seen[i + 1] = after_seen[i] + (lines[i].change != LineChange::kRemoved);
  }
  size_t c = 0;
  while (c < changes.size()) {
    const size_t first = changes[c];
    size_t last = first;
    while (c + 1 < changes.size() && changes[c + 1] <= last + 2 * reach + 1) last = changes[++c];
    ++c;
    const size_t begin = first > reach ? first - reach : 0;
    const size_t end = std::min(lines.size(), last + 1 + reach);
    const int before_count = before_seen[end] - before_seen[begin];
    const int after_count = after_seen[end] - after_seen[begin];
    // As diff -u: an empty side is numbered by the line before it.
    const int before_start = before_seen[begin] + (before_count > 0 ? 1 : 0);
    const int after_start = after_seen[begin] + (after_count > 0 ? 1 : 0);
    out += "@@ -" + Range(before_start, before_count) + " +" + Range(after_start, after_count) +
           " @@\n";
    for (size_t i = begin; i < end; ++i) {
      const DiffLine& line = lines[i];
      out += line.change == LineChange::kSame ? ' ' : line.change == LineChange::kAdded ? '+' : '-';
      out.append(line.text).append("\n");
    }
  }
  return out;
}

}  // namespace fusescope::views
