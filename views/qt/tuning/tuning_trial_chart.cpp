#include "views/qt/tuning/tuning_trial_chart.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace fusescope::views {
namespace {

const QColor kTrialColour(0x33, 0x66, 0xaa);
const QColor kBestColour(0x1a, 0x98, 0x50);
const QColor kFailedColour(0xd7, 0x30, 0x27);
const QColor kPickedColour(0x1f, 0x6f, 0xeb);

QScatterSeries* Scatter(const QString& name, const QColor& colour,
                        QScatterSeries::MarkerShape shape, double size) {
  auto* series = new QScatterSeries();
  series->setName(name);
  series->setMarkerShape(shape);
  series->setMarkerSize(size);
  series->setColor(colour);
  series->setBorderColor(colour.darker(130));
  return series;
}

// A step of 1, 2, 2.5 or 5 times a power of ten that puts at most `most` ticks on `span`.
double TickStep(double span, int most) {
  for (double decade = 1e-3;; decade *= 10) {
    for (double factor : {1.0, 2.0, 2.5, 5.0}) {
      if (span / (factor * decade) <= most) return factor * decade;
    }
  }
}

QString Config(const tuning::Trial& trial) {
  return trial.is_default ? QObject::tr("default (%1)").arg(QString::fromStdString(trial.config))
                          : QString::fromStdString(trial.config);
}

}  // namespace

TuningTrialChart::TuningTrialChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart()), view_(new QChartView(chart_, this)) {
  chart_->setMargins(QMargins(0, 0, 0, 0));
  chart_->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->setBackgroundRoundness(0);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  chart_->legend()->setFont(small);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumSize(280, 180);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
}

TuningTrialChart::~TuningTrialChart() = default;

int TuningTrialChart::point_count() const {
  if (!trials_) return 0;
  return static_cast<int>(trials_->count() + beyond_->count() + failed_->count());
}

void TuningTrialChart::SetPlot(std::shared_ptr<const TuningKernelPlot> plot) {
  plot_ = std::move(plot);
  picked_order_ = 0;
  Rebuild();
}

void TuningTrialChart::SetPicked(int order) {
  picked_order_ = order;
  if (!picked_) return;
  picked_->clear();
  const TuningPoint* point = PointAt(order);
  if (!point) return;
  const double y =
      !point->trial->ok ? axis_top_ * 0.97 : std::min(point->relative, axis_top_ * 0.97);
  picked_->append(static_cast<double>(point->order), y);
}

const TuningPoint* TuningTrialChart::PointAt(double order) const {
  if (!plot_) return nullptr;
  const int64_t wanted = std::llround(order);
  for (const TuningPoint& point : plot_->points) {
    if (point.order == wanted) return &point;
  }
  return nullptr;
}

void TuningTrialChart::Rebuild() {
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  trials_ = beyond_ = failed_ = best_ = picked_ = nullptr;
  best_so_far_ = default_ = nullptr;
  if (!plot_ || plot_->points.empty()) return;
  const double n = static_cast<double>(plot_->points.size());
  double highest = 1;
  for (const TuningPoint& point : plot_->points) highest = std::max(highest, point.relative);
  const bool clipped = plot_->best > 0 && highest > 4 * plot_->best && highest > 2;
  axis_top_ = (clipped ? std::max(4 * plot_->best, 1.2) : highest) * 1.08;
  const double top_edge = axis_top_ * 0.97;

  default_ = new QLineSeries();
  default_->setName(tr("default (1.0)"));
  default_->setPen(QPen(QColor(0x55, 0x55, 0x55), 1.5, Qt::DashLine));
  default_->append(0, 1);
  default_->append(n + 1, 1);
  best_so_far_ = new QLineSeries();
  best_so_far_->setName(tr("best so far"));
  best_so_far_->setPen(QPen(kBestColour, 2));
  trials_ = Scatter(tr("trials"), kTrialColour, QScatterSeries::MarkerShapeCircle, 8);
  beyond_ =
      Scatter(tr("slower than the axis"), kTrialColour, QScatterSeries::MarkerShapeTriangle, 10);
  failed_ = Scatter(tr("failed"), kFailedColour, QScatterSeries::MarkerShapeRotatedRectangle, 10);
  best_ = Scatter(tr("best"), kBestColour, QScatterSeries::MarkerShapeCircle, 12);
  picked_ = Scatter(tr("picked"), Qt::transparent, QScatterSeries::MarkerShapeCircle, 20);
  picked_->setBorderColor(kPickedColour);
  QPen ring(kPickedColour);
  ring.setWidthF(2.5);
  picked_->setPen(ring);

  double previous_best = 0;
  for (const TuningPoint& point : plot_->points) {
    const double x = static_cast<double>(point.order);
    if (!point.trial->ok) {
      failed_->append(x, top_edge);
    } else if (point.relative > top_edge) {
      beyond_->append(x, top_edge);
    } else {
      trials_->append(x, point.relative);
    }
    if (point.trial == plot_->best_trial) best_->append(x, std::min(point.relative, top_edge));
    if (point.best_so_far <= 0) continue;
    // A step: the best so far holds until a faster trial comes.
    if (previous_best > 0 && point.best_so_far != previous_best)
      best_so_far_->append(x, std::min(previous_best, top_edge));
    best_so_far_->append(x, std::min(point.best_so_far, top_edge));
    previous_best = point.best_so_far;
  }
  if (previous_best > 0) best_so_far_->append(n + 1, std::min(previous_best, top_edge));

  auto* x_axis = new QValueAxis();
  x_axis->setTitleText(clipped ? tr("trial, in search order (axis cut at 4× the best)")
                               : tr("trial, in search order"));
  // Whole numbers at both ends: the axis labels its ends too.
  x_axis->setRange(0, n + 1);
  x_axis->setTickType(QValueAxis::TicksDynamic);
  x_axis->setTickAnchor(0);
  x_axis->setTickInterval(TickStep(n, 12));
  x_axis->setLabelFormat(QStringLiteral("%.0f"));
  x_axis->setMinorTickCount(0);
  auto* y_axis = new QValueAxis();
  y_axis->setTitleText(tr("time / default"));
  y_axis->setRange(0, axis_top_);
  y_axis->setTickType(QValueAxis::TicksDynamic);
  y_axis->setTickAnchor(0);
  y_axis->setTickInterval(TickStep(axis_top_, 6));
  y_axis->setLabelFormat(QStringLiteral("%.2f"));
  for (QValueAxis* axis : {x_axis, y_axis}) {
    QFont font = axis->labelsFont();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    axis->setLabelsFont(font);
    axis->setTitleFont(font);
  }
  chart_->addAxis(x_axis, Qt::AlignBottom);
  chart_->addAxis(y_axis, Qt::AlignLeft);
  for (QXYSeries* series : std::initializer_list<QXYSeries*>{default_, best_so_far_, trials_,
                                                             beyond_, failed_, best_, picked_}) {
    chart_->addSeries(series);
    series->attachAxis(x_axis);
    series->attachAxis(y_axis);
    // Series with nothing to show stay out of the legend, and so does the ring.
    const bool in_legend = series != picked_ && series->count() > 0;
    for (QLegendMarker* marker : chart_->legend()->markers(series)) marker->setVisible(in_legend);
  }
  for (QScatterSeries* series : {trials_, beyond_, failed_, best_, picked_}) {
    connect(series, &QScatterSeries::clicked, this, [this](const QPointF& point) {
      emit trialClicked(static_cast<int>(std::lround(point.x())));
    });
    connect(series, &QScatterSeries::hovered, this,
            [this](const QPointF& point, bool state) { ShowToolTip(point.x(), state); });
  }
  SetPicked(picked_order_);
}

void TuningTrialChart::ShowToolTip(double order, bool hovered) {
  const TuningPoint* point = hovered ? PointAt(order) : nullptr;
  if (!point) {
    QToolTip::hideText();
    return;
  }
  const tuning::Trial& trial = *point->trial;
  QString text = tr("<b>Trial %1</b>: %2").arg(point->order).arg(Config(trial).toHtmlEscaped());
  if (trial.ok) {
    text += tr("<br>%1 µs, %2 of the default")
                .arg(trial.median_us, 0, 'f', 1)
                .arg(point->relative, 0, 'f', 3);
    if (trial.baseline_us > 0)
      text += tr(" (paired default %1 µs)").arg(trial.baseline_us, 0, 'f', 1);
    if (!trial.verdict.empty())
      text += tr("<br>output %1").arg(QString::fromStdString(trial.verdict));
  } else {
    text += tr("<br><span style=\"color:#b02020\">failed: %1</span>")
                .arg(QString::fromStdString(trial.error).toHtmlEscaped());
  }
  QToolTip::showText(QCursor::pos(), text + tr("<br><i>click: its lowering in the Kernel view</i>"),
                     view_);
}

}  // namespace fusescope::views
