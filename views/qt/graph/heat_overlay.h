#ifndef FUSESCOPE_VIEWS_QT_GRAPH_HEAT_OVERLAY_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_HEAT_OVERLAY_H_

// A profile's time painted onto the two graphs of a pass: each node's share of the profile's
// total, on a sequential scale from pale yellow (no time) to dark red (the hottest node of
// either side). Built by the profile panel from one attribution for both sides, so the two
// graphs of a pass are comparable.

#include <QColor>
#include <QString>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "views/qt/selection.h"

namespace fusescope::views {

struct HeatOverlay {
  // Per side (GraphSide::kBefore, kAfter): instruction id -> share of the profile's total.
  std::unordered_map<int64_t, double> share[2];
  // Whether a side's times are estimates (not the profiled snapshot's measured kernels).
  bool estimate[2] = {true, true};
  double max_share = 0;  // over both sides
  int64_t pass = -1;     // whose two graphs the shares are of
  QString profile_label;

  const std::unordered_map<int64_t, double>& of(GraphSide side) const {
    return share[side == GraphSide::kBefore ? 0 : 1];
  }
  bool estimated(GraphSide side) const { return estimate[side == GraphSide::kBefore ? 0 : 1]; }
  // Where `share` falls on the scale, in [0, 1].
  double Fraction(double node_share) const;
};

class HeatScale {
 public:
  // `fraction` in [0, 1]: 0 the coldest colour, 1 the hottest.
  static QColor Color(double fraction);
  // Black or white, whichever reads on `fill`.
  static QColor TextOn(const QColor& fill);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_HEAT_OVERLAY_H_
