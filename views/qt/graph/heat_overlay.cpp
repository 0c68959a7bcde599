#include "views/qt/graph/heat_overlay.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace fusescope::views {
namespace {

// ColorBrewer's YlOrRd: sequential, and readable by the colour-blind.
constexpr std::array<QRgb, 6> kStops = {0xffffcc, 0xfed976, 0xfeb24c, 0xfd8d3c, 0xf03b20, 0xbd0026};

}  // namespace

double HeatOverlay::Fraction(double node_share) const {
  if (max_share <= 0 || node_share <= 0) return 0;
  return std::clamp(node_share / max_share, 0.0, 1.0);
}

QColor HeatScale::Color(double fraction) {
  const double at = std::clamp(fraction, 0.0, 1.0) * (kStops.size() - 1);
  const size_t low = std::min(static_cast<size_t>(std::floor(at)), kStops.size() - 2);
  const double mix = at - static_cast<double>(low);
  const QColor a(kStops[low]);
  const QColor b(kStops[low + 1]);
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - mix) + b.redF() * mix),
                          static_cast<float>(a.greenF() * (1 - mix) + b.greenF() * mix),
                          static_cast<float>(a.blueF() * (1 - mix) + b.blueF() * mix));
}

QColor HeatScale::TextOn(const QColor& fill) {
  const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
  return luminance < 0.45 ? QColor(Qt::white) : QColor(Qt::black);
}

}  // namespace fusescope::views
