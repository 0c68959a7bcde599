#include "views/qt/passes/pass_navigator.h"

#include <gtest/gtest.h>

namespace fusescope::views {
namespace {

recording::Recording WithPasses(const std::vector<bool>& changed) {
  recording::Recording recording;
  for (size_t i = 0; i < changed.size(); ++i) {
    recording::PassRecord pass;
    pass.index = static_cast<int64_t>(i);
    pass.name = "p" + std::to_string(i);
    pass.changed = changed[i];
    recording.passes.push_back(pass);
  }
  return recording;
}

// Stepping stops at both ends instead of wrapping.
TEST(PassNavigatorTest, StepsWithinBounds) {
  const recording::Recording recording = WithPasses({false, true, false});
  EXPECT_EQ(PassNavigator::Next(recording, 0), 1);
  EXPECT_EQ(PassNavigator::Next(recording, 2), 2);
  EXPECT_EQ(PassNavigator::Previous(recording, 0), 0);
  EXPECT_EQ(PassNavigator::Previous(recording, 2), 1);
  EXPECT_EQ(PassNavigator::Last(recording), 2);
}

// "Next change" skips passes that changed nothing, and stays put when none follows.
TEST(PassNavigatorTest, JumpsToChangedPasses) {
  const recording::Recording recording = WithPasses({true, false, false, true, false});
  EXPECT_EQ(PassNavigator::NextChanged(recording, 0), 3);
  EXPECT_EQ(PassNavigator::NextChanged(recording, 3), 3);
  EXPECT_EQ(PassNavigator::PreviousChanged(recording, 3), 0);
  EXPECT_EQ(PassNavigator::PreviousChanged(recording, 0), 0);
}

// A failed pass counts as a change: it is where a user wants to stop.
TEST(PassNavigatorTest, FailedPassIsAStop) {
  recording::Recording recording = WithPasses({false, false, false});
  recording.passes[2].failed = true;
  EXPECT_EQ(PassNavigator::NextChanged(recording, 0), 2);
}

}  // namespace
}  // namespace fusescope::views
