#include "views/qt/profile/roofline_view.h"

#include <QChart>
#include <QChartView>
#include <QFutureWatcher>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <limits>

#include "views/qt/workers/worker_pool.h"

namespace fusescope::views {

struct RooflineView::Chart {
  QChart* chart = nullptr;
  QChartView* view = nullptr;
  QScatterSeries* selected = nullptr;  // the selection's ring; null when nothing is drawn
};

namespace {

double Intensity(const RooflineKernel& kernel) { return kernel.flops / kernel.bytes; }
double Achieved(const RooflineKernel& kernel) { return kernel.flops / kernel.seconds; }

// A power of ten at or below / above `value`.
double FloorDecade(double value) { return std::pow(10.0, std::floor(std::log10(value))); }
double CeilDecade(double value) { return std::pow(10.0, std::ceil(std::log10(value))); }

QLogValueAxis* LogAxis(const QString& title, double low, double high) {
  auto* axis = new QLogValueAxis();
  axis->setTitleText(title);
  axis->setBase(10);
  axis->setLabelFormat(QStringLiteral("%g"));
  axis->setRange(low, high);
  axis->setMinorTickCount(0);
  QFont font = axis->labelsFont();
  font.setPointSizeF(font.pointSizeF() * 0.8);
  axis->setLabelsFont(font);
  axis->setTitleFont(font);
  return axis;
}

}  // namespace

RooflineView::RooflineView(QWidget* parent)
    : QWidget(parent),
      chart_(std::make_unique<Chart>()),
      note_(new QLabel(this)),
      calibrate_(new QPushButton(tr("Measure This Machine"), this)) {
  chart_->chart = new QChart();
  // The note above says what the marks are; a legend would take height the chart needs.
  chart_->chart->legend()->hide();
  chart_->chart->setMargins(QMargins(0, 0, 0, 0));
  chart_->chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->chart->setBackgroundRoundness(0);
  chart_->view = new QChartView(chart_->chart, this);
  chart_->view->setRenderHint(QPainter::Antialiasing);
  note_->setWordWrap(true);
  note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  calibrate_->setToolTip(
      tr("Measure peak FLOP/s and memory bandwidth (about a second) and cache them"));
  calibrate_->hide();
  connect(calibrate_, &QPushButton::clicked, this, &RooflineView::Calibrate);
  auto* bar = new QHBoxLayout();
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(note_, 1);
  bar->addWidget(calibrate_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(bar);
  layout->addWidget(chart_->view, 1);
}

RooflineView::~RooflineView() = default;

void RooflineView::SetKernels(std::vector<RooflineKernel> kernels) {
  kernels_ = std::move(kernels);
  if (!kernels_.empty() && !looked_for_machine_) ReadCachedMachine();
  Rebuild();
}

void RooflineView::ReadCachedMachine() {
  looked_for_machine_ = true;
  auto cached = profiler::LoadCachedMachine(profiler::DefaultCacheDirectory());
  if (cached.ok()) machine_ = *cached;
}

void RooflineView::SetMachine(std::optional<profiler::MachineInfo> machine) {
  looked_for_machine_ = true;
  machine_ = std::move(machine);
  Rebuild();
}

std::optional<std::pair<double, double>> RooflineView::PointOf(int64_t instruction_id) const {
  for (const RooflineKernel& kernel : placed_) {
    if (kernel.instruction_id == instruction_id) {
      return std::make_pair(Intensity(kernel), Achieved(kernel));
    }
  }
  return std::nullopt;
}

void RooflineView::Rebuild() {
  QChart* chart = chart_->chart;
  chart->removeAllSeries();
  chart_->selected = nullptr;
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
  placed_.clear();
  for (const RooflineKernel& kernel : kernels_) {
    if (kernel.flops > 0 && kernel.bytes > 0 && kernel.seconds > 0) placed_.push_back(kernel);
  }
  const size_t unplaced = kernels_.size() - placed_.size();
  calibrate_->setVisible(!machine_ && !kernels_.empty());
  QString note;
  if (kernels_.empty()) {
    note = tr("No kernels to place.");
  } else if (machine_) {
    note = tr("Kernels (points, median time) under the roofs of %1: peak %2 GFLOP/s, "
              "bandwidth %3 GB/s (FP32).")
               .arg(QString::fromStdString(machine_->cpu_model))
               .arg(machine_->peak_flops * 1e-9, 0, 'f', 1)
               .arg(machine_->memory_bandwidth * 1e-9, 0, 'f', 1);
  } else {
    note = tr("Kernels (points, median time). No machine figures cached: no roofs.");
  }
  if (unplaced > 0) note += tr(" %1 kernel(s) without FLOPs are not shown.").arg(unplaced);
  note_->setText(note);
  if (placed_.empty()) return;

  auto* points = new QScatterSeries();
  points->setName(tr("kernels (median time)"));
  points->setMarkerSize(9);
  double low_x = std::numeric_limits<double>::max(), high_x = 0;
  double low_y = std::numeric_limits<double>::max(), high_y = 0;
  for (const RooflineKernel& kernel : placed_) {
    const double x = Intensity(kernel), y = Achieved(kernel);
    points->append(x, y);
    low_x = std::min(low_x, x);
    high_x = std::max(high_x, x);
    low_y = std::min(low_y, y);
    high_y = std::max(high_y, y);
  }
  QLineSeries* roof = nullptr;
  double ridge = 0;
  if (machine_ && machine_->peak_flops > 0 && machine_->memory_bandwidth > 0) {
    ridge = machine_->peak_flops / machine_->memory_bandwidth;
    low_x = std::min(low_x, ridge / 10);
    high_x = std::max(high_x, ridge * 10);
  }
  // A margin, so that a point on a decade is not cut in half by the frame.
  constexpr double kMargin = 1.5;
  const double x0 = FloorDecade(low_x / kMargin), x1 = CeilDecade(high_x * kMargin);
  if (ridge > 0) {
    roof = new QLineSeries();
    roof->append(x0, x0 * machine_->memory_bandwidth);
    roof->append(ridge, machine_->peak_flops);
    roof->append(x1, machine_->peak_flops);
    low_y = std::min(low_y, x0 * machine_->memory_bandwidth);
    high_y = std::max(high_y, machine_->peak_flops);
  }
  QLogValueAxis* x_axis = LogAxis(tr("FLOP/byte"), x0, x1);
  QLogValueAxis* y_axis =
      LogAxis(tr("FLOP/s"), FloorDecade(low_y / kMargin), CeilDecade(high_y * kMargin));
  chart->addAxis(x_axis, Qt::AlignBottom);
  chart->addAxis(y_axis, Qt::AlignLeft);
  if (roof) {
    chart->addSeries(roof);
    roof->attachAxis(x_axis);
    roof->attachAxis(y_axis);
  }
  chart->addSeries(points);
  points->attachAxis(x_axis);
  points->attachAxis(y_axis);
  connect(points, &QScatterSeries::clicked, this,
          [this](const QPointF& point) { PointClicked(point.x(), point.y()); });
  connect(points, &QScatterSeries::hovered, this,
          [this](const QPointF& point, bool state) { ShowToolTip(point.x(), point.y(), state); });
  auto* selected = new QScatterSeries();
  selected->setMarkerSize(16);
  selected->setColor(Qt::transparent);
  selected->setBorderColor(QColor(0x1f, 0x6f, 0xeb));
  QPen ring = selected->pen();
  ring.setWidthF(2.5);
  ring.setColor(QColor(0x1f, 0x6f, 0xeb));
  selected->setPen(ring);
  chart->addSeries(selected);
  selected->attachAxis(x_axis);
  selected->attachAxis(y_axis);
  chart_->selected = selected;
  UpdateSelectedMark();
}

void RooflineView::SetSelected(int64_t instruction_id) {
  selected_ = instruction_id;
  UpdateSelectedMark();
}

void RooflineView::UpdateSelectedMark() {
  if (!chart_->selected) return;
  chart_->selected->clear();
  if (const auto point = PointOf(selected_)) chart_->selected->append(point->first, point->second);
}

const RooflineKernel* RooflineView::Nearest(double intensity, double achieved) const {
  const RooflineKernel* best = nullptr;
  double best_distance = std::numeric_limits<double>::max();
  for (const RooflineKernel& kernel : placed_) {
    const double dx = std::log10(Intensity(kernel)) - std::log10(intensity);
    const double dy = std::log10(Achieved(kernel)) - std::log10(achieved);
    if (dx * dx + dy * dy < best_distance) {
      best_distance = dx * dx + dy * dy;
      best = &kernel;
    }
  }
  return best;
}

void RooflineView::ShowToolTip(double intensity, double achieved, bool hovered) {
  const RooflineKernel* kernel = hovered ? Nearest(intensity, achieved) : nullptr;
  if (!kernel) {
    QToolTip::hideText();
    return;
  }
  QString text = tr("<b>%1</b><br>%2 FLOP/byte, %3 GFLOP/s, median %4 µs")
                     .arg(kernel->name)
                     .arg(Intensity(*kernel), 0, 'g', 3)
                     .arg(Achieved(*kernel) * 1e-9, 0, 'g', 3)
                     .arg(kernel->seconds * 1e6, 0, 'f', 2);
  if (machine_) {
    const profiler::RooflinePoint point =
        profiler::PlaceOnRoofline(*machine_, kernel->flops, kernel->bytes, kernel->seconds);
    text += tr("<br>%1% of the roof (%2 bound)")
                .arg(100 * point.fraction_of_roof, 0, 'f', 1)
                .arg(point.memory_bound ? tr("memory") : tr("compute"));
  }
  QToolTip::showText(QCursor::pos(), text, chart_->view);
}

// The clicked point is one of ours: the nearest kernel in log space.
void RooflineView::PointClicked(double intensity, double achieved) {
  if (const RooflineKernel* kernel = Nearest(intensity, achieved)) {
    emit kernelClicked(kernel->instruction_id);
  }
}

void RooflineView::Calibrate() {
  calibrate_->setEnabled(false);
  note_->setText(tr("Measuring this machine…"));
  using Result = StatusOr<profiler::MachineInfo>;
  auto* watcher = new QFutureWatcher<Result>(this);
  connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher] {
    const Result result = watcher->result();
    watcher->deleteLater();
    calibrate_->setEnabled(true);
    if (!result.ok()) {
      note_->setText(
          tr("Could not measure the machine: %1").arg(QString::fromStdString(result.message())));
      emit machineMeasured(false);
      return;
    }
    SetMachine(*result);
    emit machineMeasured(true);
  });
  watcher->setFuture(QtConcurrent::run(WorkerPool::Instance(), []() -> Result {
    auto measured = profiler::Calibrate();
    if (measured.ok()) {
      // A cache that cannot be written only means measuring again next time.
      (void)profiler::SaveMachine(*measured, profiler::DefaultCacheDirectory());
    }
    return measured;
  }));
}

}  // namespace fusescope::views
