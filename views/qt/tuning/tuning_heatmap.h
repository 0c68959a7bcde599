#ifndef FUSESCOPE_VIEWS_QT_TUNING_TUNING_HEATMAP_H_
#define FUSESCOPE_VIEWS_QT_TUNING_TUNING_HEATMAP_H_

// One kernel's trials over two knobs (views::TuningKernelPlot's cells): a cell per pair of
// values, coloured by the fastest ok trial in it relative to the default, from green (the
// kernel's best) to red (its slowest cell) on a log scale, with the figure written in it; grey
// with a cross where every trial failed, blank where none ran. The best trial's cell is
// outlined, the picked trial's ringed. Clicking a cell picks its fastest trial (or, where all
// failed, its first).

#include <QWidget>
#include <memory>
#include <vector>

#include "views/tuning_plot.h"

namespace fusescope::views {

class TuningHeatmap : public QWidget {
  Q_OBJECT

 public:
  explicit TuningHeatmap(QWidget* parent = nullptr);

  // Shares `plot`, which holds pointers into its run's trials: the caller keeps the run.
  void SetPlot(std::shared_ptr<const TuningKernelPlot> plot);
  const TuningKernelPlot* plot() const { return plot_.get(); }
  // Rings the cell of trial `order` (1-based, TuningPoint::order); 0: none.
  void SetPicked(int order);
  // Where the cell of the x-th and y-th knob values is drawn; empty when there is none.
  QRect CellRect(int x_index, int y_index) const;
  // The trial a click on the cell picks (TuningPoint::order); 0 when the cell has no trial.
  int TrialOf(int x_index, int y_index) const;
  // The colour a cell of `relative` time is drawn with, `best` and `slowest` being the
  // kernel's extremes.
  static QColor HeatColour(double relative, double best, double slowest);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void trialClicked(int order);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Geometry {
    QRect grid;  // the cells
    int cell_width = 0;
    int cell_height = 0;
  };
  Geometry Layout() const;
  // The cell under `point` as (x index, y index); (-1, -1) when none.
  std::pair<int, int> CellAt(const QPoint& point) const;
  QString CellToolTip(int x_index, int y_index) const;
  double Slowest() const;

  std::shared_ptr<const TuningKernelPlot> plot_;
  int picked_ = 0;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TUNING_TUNING_HEATMAP_H_
