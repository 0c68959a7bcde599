#include "views/view_focus.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <unordered_map>

namespace fusescope::views {
namespace {

// Cells of half a window: every block of 2 × 2 cells is one window, and blocks overlap by
// half a window, which finds a dense region within a linear pass over the targets.
class CellGrid {
 public:
  CellGrid(const Rect& bounds, double width, double height)
      : origin_{bounds.x, bounds.y}, cell_width_(width / 2), cell_height_(height / 2) {}

  void Add(const Point& p) { ++counts_[Key(Column(p), Row(p))]; }

  // Top-left cell (column, row) of the fullest 2 × 2 block.
  std::pair<int64_t, int64_t> FullestBlock() const {
    std::tuple<int, int64_t, int64_t> best{-1, 0, 0};  // count, then the smallest row, column
    for (const auto& [key, count] : counts_) {
      const int64_t column = key >> 32;
      const int64_t row = static_cast<int32_t>(key & 0xffffffff);
      for (int64_t top = row - 1; top <= row; ++top) {
        for (int64_t left = column - 1; left <= column; ++left) {
          const int total = Count(left, top) + Count(left + 1, top) + Count(left, top + 1) +
                            Count(left + 1, top + 1);
          const auto& [best_total, best_top, best_left] = best;
          if (total > best_total ||
              (total == best_total && std::tie(top, left) < std::tie(best_top, best_left))) {
            best = {total, top, left};
          }
        }
      }
    }
    return {std::get<2>(best), std::get<1>(best)};
  }

  bool InBlock(const Point& p, std::pair<int64_t, int64_t> block) const {
    const int64_t column = Column(p);
    const int64_t row = Row(p);
    return column >= block.first && column <= block.first + 1 && row >= block.second &&
           row <= block.second + 1;
  }

 private:
  static int64_t Key(int64_t column, int64_t row) {
    return (column << 32) | static_cast<uint32_t>(static_cast<int32_t>(row));
  }
  int64_t Column(const Point& p) const {
    return static_cast<int64_t>(std::floor((p.x - origin_.x) / cell_width_));
  }
  int64_t Row(const Point& p) const {
    return static_cast<int64_t>(std::floor((p.y - origin_.y) / cell_height_));
  }
  int Count(int64_t column, int64_t row) const {
    auto found = counts_.find(Key(column, row));
    return found == counts_.end() ? 0 : found->second;
  }

  Point origin_;
  double cell_width_;
  double cell_height_;
  std::unordered_map<int64_t, int> counts_;
};

// `rect` cut to at most `width` × `height` around its middle.
Rect CutAroundMiddle(const Rect& rect, double width, double height) {
  const Point middle = rect.center();
  const double w = std::min(rect.width, width);
  const double h = std::min(rect.height, height);
  return {middle.x - w / 2, middle.y - h / 2, w, h};
}

}  // namespace

Rect Bounds(const std::vector<Rect>& rects) {
  if (rects.empty()) return {};
  double left = rects.front().x;
  double top = rects.front().y;
  double right = rects.front().right();
  double bottom = rects.front().bottom();
  for (const Rect& rect : rects) {
    left = std::min(left, rect.x);
    top = std::min(top, rect.y);
    right = std::max(right, rect.right());
    bottom = std::max(bottom, rect.bottom());
  }
  return {left, top, right - left, bottom - top};
}

Rect DensestWindow(const std::vector<Rect>& targets, double width, double height) {
  const Rect all = Bounds(targets);
  if (targets.empty() || width <= 0 || height <= 0) return {};
  if (all.width <= width && all.height <= height) return all;
  CellGrid grid(all, width, height);
  for (const Rect& target : targets) grid.Add(target.center());
  const auto block = grid.FullestBlock();
  std::vector<Rect> inside;
  for (const Rect& target : targets) {
    if (grid.InBlock(target.center(), block)) inside.push_back(target);
  }
  return CutAroundMiddle(Bounds(inside), width, height);
}

Rect TopWindow(const std::vector<Rect>& nodes, double width, double height) {
  const Rect all = Bounds(nodes);
  if (nodes.empty() || width <= 0 || height <= 0) return {};
  // The first row: the nodes whose top is level with the picture's top (within a quarter of
  // the topmost node's height, so that a rank of nodes of other heights lying a little lower
  // does not count). Reading starts there, so the window holds its densest part even when a
  // fuller cluster lies lower down or further right.
  const auto topmost = std::min_element(
      nodes.begin(), nodes.end(), [](const Rect& a, const Rect& b) { return a.y < b.y; });
  const double tolerance = std::max(1.0, topmost->height / 4);
  std::vector<Rect> first_row;
  for (const Rect& node : nodes) {
    if (node.y < all.y + tolerance) first_row.push_back(node);
  }
  const double centre = DensestWindow(first_row, width, height).center().x;
  const double w = std::min(width, all.width);
  const double left = std::clamp(centre - w / 2, all.x, all.right() - w);
  return {left, all.y, w, std::min(height, all.height)};
}

}  // namespace fusescope::views
