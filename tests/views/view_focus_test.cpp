#include "views/view_focus.h"

#include <gtest/gtest.h>

namespace fusescope::views {
namespace {

Rect Node(double x, double y) { return {x, y, 100, 40}; }

bool Holds(const Rect& window, const Rect& node) {
  const Point c = node.center();
  return c.x >= window.x && c.x <= window.right() && c.y >= window.y && c.y <= window.bottom();
}

// What fits is shown whole: the caller zooms to it.
TEST(ViewFocusTest, SmallChangeIsItsBounds) {
  const Rect window = DensestWindow({Node(0, 0), Node(200, 100)}, 800, 600);
  EXPECT_DOUBLE_EQ(window.x, 0);
  EXPECT_DOUBLE_EQ(window.y, 0);
  EXPECT_DOUBLE_EQ(window.width, 300);
  EXPECT_DOUBLE_EQ(window.height, 140);
}

// A change larger than the window: the window goes where most of it is, at the window's
// size, not shrunk to show all of it.
TEST(ViewFocusTest, LargeChangeShowsItsDensestPart) {
  std::vector<Rect> changed = {Node(0, 0), Node(5000, 0)};
  for (int i = 0; i < 6; ++i) changed.push_back(Node(3000 + 120 * (i % 3), 2000 + 60 * (i / 3)));
  const Rect window = DensestWindow(changed, 800, 600);
  EXPECT_LE(window.width, 800);
  EXPECT_LE(window.height, 600);
  int held = 0;
  for (const Rect& node : changed) held += Holds(window, node) ? 1 : 0;
  EXPECT_EQ(held, 6);
  EXPECT_FALSE(Holds(window, changed[0]));
}

// Equally dense parts: the first (topmost) wins.
TEST(ViewFocusTest, TiesGoToTheTop) {
  const std::vector<Rect> changed = {Node(0, 4000), Node(0, 0), Node(3000, 2000)};
  const Rect window = DensestWindow(changed, 800, 600);
  EXPECT_TRUE(Holds(window, changed[1]));
  EXPECT_FALSE(Holds(window, changed[0]));
}

// Nothing changed: the top of the picture.
TEST(ViewFocusTest, TopWindowStartsAtTheTop) {
  std::vector<Rect> nodes;
  for (int row = 0; row < 50; ++row) nodes.push_back(Node(400, 100 + 80 * row));
  const Rect window = TopWindow(nodes, 800, 600);
  EXPECT_DOUBLE_EQ(window.y, 100);
  EXPECT_LE(window.height, 600);
  EXPECT_TRUE(Holds(window, nodes.front()));
  EXPECT_FALSE(Holds(window, nodes.back()));
}

// A fuller cluster just below the first row and far to its right does not pull the window
// off the first row: reading starts at the top.
TEST(ViewFocusTest, TopWindowHoldsTheFirstRowOverADenserClusterBeside) {
  std::vector<Rect> nodes = {Node(0, 100), Node(300, 100), Node(600, 100)};
  for (int i = 0; i < 12; ++i) nodes.push_back(Node(3000 + 110 * i, 115));
  for (int row = 1; row < 20; ++row) nodes.push_back(Node(300, 100 + 80 * row));
  const Rect window = TopWindow(nodes, 800, 600);
  EXPECT_DOUBLE_EQ(window.y, 100);
  EXPECT_LE(window.width, 800);
  EXPECT_LE(window.height, 600);
  int first_row_held = 0;
  for (int i = 0; i < 3; ++i) first_row_held += Holds(window, nodes[i]) ? 1 : 0;
  EXPECT_EQ(first_row_held, 3);
}

TEST(ViewFocusTest, NoTargetsNoWindow) {
  const Rect window = DensestWindow({}, 800, 600);
  EXPECT_DOUBLE_EQ(window.width, 0);
  EXPECT_DOUBLE_EQ(window.height, 0);
}

}  // namespace
}  // namespace fusescope::views
