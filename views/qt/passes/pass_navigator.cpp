#include "views/qt/passes/pass_navigator.h"

namespace fusescope::views {
namespace {

int64_t Count(const recording::Recording& recording) {
  return static_cast<int64_t>(recording.passes.size());
}

bool Interesting(const recording::Recording& recording, int64_t pass) {
  const recording::PassRecord& record = recording.passes[static_cast<size_t>(pass)];
  return record.changed || record.failed;
}

}  // namespace

int64_t PassNavigator::Next(const recording::Recording& recording, int64_t current) {
  return current + 1 < Count(recording) ? current + 1 : current;
}

int64_t PassNavigator::Previous(const recording::Recording& recording, int64_t current) {
  return current > 0 && Count(recording) > 0 ? current - 1 : current;
}

int64_t PassNavigator::NextChanged(const recording::Recording& recording, int64_t current) {
  for (int64_t pass = current + 1; pass < Count(recording); ++pass) {
    if (Interesting(recording, pass)) return pass;
  }
  return current;
}

int64_t PassNavigator::PreviousChanged(const recording::Recording& recording, int64_t current) {
  for (int64_t pass = current - 1; pass >= 0 && pass < Count(recording); --pass) {
    if (Interesting(recording, pass)) return pass;
  }
  return current;
}

int64_t PassNavigator::First(const recording::Recording& recording) {
  return Count(recording) > 0 ? 0 : -1;
}

int64_t PassNavigator::Last(const recording::Recording& recording) { return Count(recording) - 1; }

}  // namespace fusescope::views
