#ifndef FUSESCOPE_VIEWS_QT_PASS_NAVIGATOR_H_
#define FUSESCOPE_VIEWS_QT_PASS_NAVIGATOR_H_

// Debugger-like stepping through a recording's passes. Each function returns the pass to go
// to, or `current` when there is nowhere to go.

#include <cstdint>

#include "recording/recording.h"

namespace fusescope::views {

class PassNavigator {
 public:
  static int64_t Next(const recording::Recording& recording, int64_t current);
  static int64_t Previous(const recording::Recording& recording, int64_t current);
  // The next / previous pass that changed the module (or failed: that is a change too).
  static int64_t NextChanged(const recording::Recording& recording, int64_t current);
  static int64_t PreviousChanged(const recording::Recording& recording, int64_t current);
  static int64_t First(const recording::Recording& recording);
  static int64_t Last(const recording::Recording& recording);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_PASS_NAVIGATOR_H_
