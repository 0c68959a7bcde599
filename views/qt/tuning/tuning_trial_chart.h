#ifndef FUSESCOPE_VIEWS_QT_TUNING_TUNING_TRIAL_CHART_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TUNING_TRIAL_CHART_H_

// One kernel's trials in search order (views::TuningKernelPlot's points): each ok trial's time
// relative to the default (the default runs paired with it; below 1 is faster), the best so far
// as a step line, the default's 1.0 as a dashed line, the best trial in green, and failed trials
// as red marks along the top. A few very slow trials would flatten the rest: the axis stops at 4×
// the best and slower trials sit on the top edge as triangles, as `fusescope tune --plot` does.
// Clicking a point picks its trial; hovering one says what it was.

#include <QWidget>
#include <memory>

#include "views/tuning_plot.h"

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;

namespace fusescope::views {

class TuningTrialChart : public QWidget {
  Q_OBJECT

 public:
  explicit TuningTrialChart(QWidget* parent = nullptr);
  ~TuningTrialChart() override;

  // Shares `plot`, which holds pointers into its run's trials: the caller keeps the run.
  void SetPlot(std::shared_ptr<const TuningKernelPlot> plot);
  // Rings trial `order` (1-based, TuningPoint::order); 0: none.
  void SetPicked(int order);

  QChart* chart() const { return chart_; }
  QChartView* view() const { return view_; }
  // Ok trials within the axis (the best among them), ok trials beyond it (on the top edge),
  // failed ones (along the top), the best so far and the default's line; each x is the trial's
  // order.
  QScatterSeries* trials_series() const { return trials_; }
  QScatterSeries* beyond_series() const { return beyond_; }
  QScatterSeries* failed_series() const { return failed_; }
  QScatterSeries* best_series() const { return best_; }
  QLineSeries* best_so_far_line() const { return best_so_far_; }
  QLineSeries* default_line() const { return default_; }
  // The trials drawn: every point of the plot, once.
  int point_count() const;
  // The top of the time axis.
  double axis_top() const { return axis_top_; }

 signals:
  void trialClicked(int order);

 private:
  void Rebuild();
  void ShowToolTip(double order, bool hovered);
  const TuningPoint* PointAt(double order) const;

  std::shared_ptr<const TuningKernelPlot> plot_;
  QChart* chart_;
  QChartView* view_;
  QScatterSeries* trials_ = nullptr;
  QScatterSeries* beyond_ = nullptr;
  QScatterSeries* failed_ = nullptr;
  QScatterSeries* best_ = nullptr;
  QScatterSeries* picked_ = nullptr;
  QLineSeries* best_so_far_ = nullptr;
  QLineSeries* default_ = nullptr;
  double axis_top_ = 1;
  int picked_order_ = 0;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TUNING_TRIAL_CHART_H_
