#ifndef FUSESCOPE_VIEWS_QT_GRAPH_HEAT_LEGEND_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_HEAT_LEGEND_H_

// The key to the heat overlay: the colour scale from no time to the hottest node's share,
// the profile it shows, and whether each side's times are measured or estimated.

#include <QWidget>
#include <memory>

#include "views/qt/graph/heat_overlay.h"

namespace fusescope::views {

class HeatLegend : public QWidget {
  Q_OBJECT

 public:
  explicit HeatLegend(QWidget* parent = nullptr);

  void SetHeat(std::shared_ptr<const HeatOverlay> heat);
  // What the legend says beside the scale; for tests.
  QString Caption() const;

  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::shared_ptr<const HeatOverlay> heat_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_HEAT_LEGEND_H_
