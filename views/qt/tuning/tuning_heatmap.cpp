#include "views/qt/tuning/tuning_heatmap.h"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace fusescope::views {
namespace {

constexpr int kMaxCellWidth = 96;
constexpr int kMaxCellHeight = 56;
constexpr int kLegendWidth = 120;

const QColor kFailedFill(0xbb, 0xbb, 0xbb);
const QColor kEmptyFill(0xee, 0xee, 0xee);
const QColor kPickedRing(0x1f, 0x6f, 0xeb);

QString Text(const std::string& text) { return QString::fromStdString(text); }

std::string KnobValue(const tuning::Trial& trial, const std::string& knob) {
  const auto knobs = ConfigKnobs(trial);
  const auto found = knobs.find(knob);
  return found == knobs.end() ? std::string("-") : found->second;
}

QColor Mix(const QColor& a, const QColor& b, double u) {
  return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * u),
                          static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * u),
                          static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * u));
}

// Black or white, whichever reads better on `fill`.
QColor TextOn(const QColor& fill) {
  const double luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
  return luminance > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace

TuningHeatmap::TuningHeatmap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QColor TuningHeatmap::HeatColour(double relative, double best, double slowest) {
  // Fast green through yellow to slow red, as `fusescope tune --plot` draws it.
  const QColor fast(26, 152, 80), middle(254, 224, 139), slow(215, 48, 39);
  double t = slowest > best && best > 0 ? std::log(relative / best) / std::log(slowest / best) : 0;
  t = std::clamp(t, 0.0, 1.0);
  return t < 0.5 ? Mix(fast, middle, t * 2) : Mix(middle, slow, (t - 0.5) * 2);
}

void TuningHeatmap::SetPlot(std::shared_ptr<const TuningKernelPlot> plot) {
  plot_ = std::move(plot);
  picked_ = 0;
  updateGeometry();
  update();
}

void TuningHeatmap::SetPicked(int order) {
  picked_ = order;
  update();
}

QSize TuningHeatmap::sizeHint() const { return {360, 240}; }

QSize TuningHeatmap::minimumSizeHint() const { return {200, 140}; }

TuningHeatmap::Geometry TuningHeatmap::Layout() const {
  Geometry geometry;
  if (!plot_ || plot_->x_values.empty() || plot_->y_values.empty()) return geometry;
  const QFontMetrics metrics(font());
  int label_width = 0;
  for (const std::string& value : plot_->y_values) {
    label_width =
        std::max(label_width, metrics.horizontalAdvance(Text(plot_->y_knob + "=" + value)));
  }
  const int left = label_width + 10, top = 4, right = 8;
  // The x values, the x knob's name and the legend's two lines below the cells.
  const int bottom = metrics.height() * 4 + 18;
  const int nx = static_cast<int>(plot_->x_values.size());
  const int ny = static_cast<int>(plot_->y_values.size());
  geometry.cell_width = std::clamp((width() - left - right) / nx, 1, kMaxCellWidth);
  geometry.cell_height = std::clamp((height() - top - bottom) / ny, 1, kMaxCellHeight);
  geometry.grid = QRect(left, top, geometry.cell_width * nx, geometry.cell_height * ny);
  return geometry;
}

QRect TuningHeatmap::CellRect(int x_index, int y_index) const {
  if (!plot_ || x_index < 0 || y_index < 0 || x_index >= static_cast<int>(plot_->x_values.size()) ||
      y_index >= static_cast<int>(plot_->y_values.size()))
    return {};
  const Geometry geometry = Layout();
  return QRect(geometry.grid.left() + geometry.cell_width * x_index,
               geometry.grid.top() + geometry.cell_height * y_index, geometry.cell_width,
               geometry.cell_height);
}

std::pair<int, int> TuningHeatmap::CellAt(const QPoint& point) const {
  const Geometry geometry = Layout();
  if (!plot_ || !geometry.grid.contains(point)) return {-1, -1};
  return {(point.x() - geometry.grid.left()) / geometry.cell_width,
          (point.y() - geometry.grid.top()) / geometry.cell_height};
}

int TuningHeatmap::TrialOf(int x_index, int y_index) const {
  if (CellRect(x_index, y_index).isEmpty()) return 0;
  const std::string& x = plot_->x_values[static_cast<size_t>(x_index)];
  const std::string& y = plot_->y_values[static_cast<size_t>(y_index)];
  const TuningCell* cell = plot_->Cell(x, y);
  if (!cell || cell->trials == 0) return 0;
  for (const TuningPoint& point : plot_->points) {
    if (cell->best_trial ? point.trial == cell->best_trial
                         : KnobValue(*point.trial, plot_->x_knob) == x &&
                               KnobValue(*point.trial, plot_->y_knob) == y)
      return static_cast<int>(point.order);
  }
  return 0;
}

double TuningHeatmap::Slowest() const {
  double slowest = plot_ ? plot_->best : 0;
  if (plot_) {
    for (const TuningCell& cell : plot_->cells) slowest = std::max(slowest, cell.best);
  }
  return slowest;
}

void TuningHeatmap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().base());
  const Geometry geometry = Layout();
  if (geometry.grid.isEmpty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, tr("No trials to place."));
    return;
  }
  painter.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics metrics(font());
  const double slowest = Slowest();
  const int nx = static_cast<int>(plot_->x_values.size());
  const int ny = static_cast<int>(plot_->y_values.size());
  QRect best_rect, picked_rect;
  const tuning::Trial* picked = nullptr;
  for (const TuningPoint& point : plot_->points) {
    if (static_cast<int>(point.order) == picked_) picked = point.trial;
  }
  const std::string picked_x = picked ? KnobValue(*picked, plot_->x_knob) : std::string();
  const std::string picked_y = picked ? KnobValue(*picked, plot_->y_knob) : std::string();
  for (int yi = 0; yi < ny; ++yi) {
    const std::string& y = plot_->y_values[static_cast<size_t>(yi)];
    const QRect label(0, geometry.grid.top() + geometry.cell_height * yi, geometry.grid.left() - 6,
                      geometry.cell_height);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter, Text(plot_->y_knob + "=" + y));
    for (int xi = 0; xi < nx; ++xi) {
      const QRect cell_rect = CellRect(xi, yi);
      const TuningCell* cell = plot_->Cell(plot_->x_values[static_cast<size_t>(xi)], y);
      QColor fill = kEmptyFill;
      QString text;
      if (cell && cell->best > 0) {
        fill = HeatColour(cell->best, plot_->best, slowest);
        text = QString::number(cell->best, 'f', 2);
      } else if (cell && cell->failed > 0) {
        fill = kFailedFill;
        text = QStringLiteral("×");
      }
      painter.fillRect(cell_rect.adjusted(0, 0, -1, -1), fill);
      painter.setPen(TextOn(fill));
      painter.drawText(cell_rect, Qt::AlignCenter, text);
      if (cell && cell->best > 0 && cell->failed > 0) {
        // Some of the cell's trials failed: a red corner.
        const QPoint corner = cell_rect.topRight() + QPoint(-1, 0);
        const QPolygon mark({corner, corner + QPoint(-8, 0), corner + QPoint(0, 8)});
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0xb0, 0x20, 0x20));
        painter.drawPolygon(mark);
        painter.setBrush(Qt::NoBrush);
      }
      if (cell && plot_->best_trial && cell->best_trial == plot_->best_trial) best_rect = cell_rect;
      if (picked && picked_x == plot_->x_values[static_cast<size_t>(xi)] && picked_y == y)
        picked_rect = cell_rect;
    }
  }
  if (!best_rect.isEmpty()) {
    painter.setPen(QPen(Qt::black, 2));
    painter.drawRect(best_rect.adjusted(1, 1, -2, -2));
  }
  if (!picked_rect.isEmpty()) {
    painter.setPen(QPen(kPickedRing, 3));
    painter.drawRect(picked_rect.adjusted(3, 3, -4, -4));
  }
  painter.setPen(palette().color(QPalette::Text));
  const int values_top = geometry.grid.bottom() + 3;
  for (int xi = 0; xi < nx; ++xi) {
    const QRect label(geometry.grid.left() + geometry.cell_width * xi, values_top,
                      geometry.cell_width, metrics.height());
    painter.drawText(label, Qt::AlignCenter, Text(plot_->x_values[static_cast<size_t>(xi)]));
  }
  const QRect knob(geometry.grid.left(), values_top + metrics.height(), geometry.grid.width(),
                   metrics.height());
  painter.drawText(knob, Qt::AlignCenter, Text(plot_->x_knob));
  // The legend: the colour scale from the best cell to the slowest, then what grey means.
  const int legend_top = knob.bottom() + 6;
  const QString fast = QString::number(plot_->best > 0 ? plot_->best : 1, 'f', 2);
  const QString slow = QString::number(slowest > 0 ? slowest : 1, 'f', 2);
  int x = geometry.grid.left();
  painter.drawText(QPoint(x, legend_top + metrics.ascent()), fast);
  x += metrics.horizontalAdvance(fast) + 4;
  QLinearGradient gradient(x, 0, x + kLegendWidth, 0);
  for (double stop : {0.0, 0.5, 1.0}) {
    gradient.setColorAt(stop, HeatColour(plot_->best * std::pow(slowest / plot_->best, stop),
                                         plot_->best, slowest));
  }
  painter.fillRect(QRect(x, legend_top + 2, kLegendWidth, metrics.height() - 4), gradient);
  x += kLegendWidth + 4;
  painter.drawText(QPoint(x, legend_top + metrics.ascent()), tr("%1 of the default").arg(slow));
  painter.drawText(
      QPoint(geometry.grid.left(), legend_top + metrics.height() + 2 + metrics.ascent()),
      tr("× every trial failed · outlined: the best"));
}

QString TuningHeatmap::CellToolTip(int x_index, int y_index) const {
  const std::string& x = plot_->x_values[static_cast<size_t>(x_index)];
  const std::string& y = plot_->y_values[static_cast<size_t>(y_index)];
  const TuningCell* cell = plot_->Cell(x, y);
  QString text = QStringLiteral("<b>%1=%2 %3=%4</b>")
                     .arg(Text(plot_->x_knob), Text(x), Text(plot_->y_knob), Text(y));
  if (!cell || cell->trials == 0) return text + tr("<br>no trial");
  text += tr("<br>%1 trial(s), %2 failed").arg(cell->trials).arg(cell->failed);
  if (cell->best_trial) {
    text += tr("<br>fastest: %1<br>%2 µs, %3 of the default")
                .arg(Text(cell->best_trial->is_default ? "default" : cell->best_trial->config)
                         .toHtmlEscaped())
                .arg(cell->best_trial->median_us, 0, 'f', 1)
                .arg(cell->best, 0, 'f', 3);
  }
  return text + tr("<br><i>click: its lowering in the Kernel view</i>");
}

bool TuningHeatmap::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const auto [xi, yi] = CellAt(help->pos());
    if (xi >= 0) {
      QToolTip::showText(help->globalPos(), CellToolTip(xi, yi), this, CellRect(xi, yi));
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

void TuningHeatmap::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  const auto [xi, yi] = CellAt(event->position().toPoint());
  const int order = xi >= 0 ? TrialOf(xi, yi) : 0;
  if (order > 0) emit trialClicked(order);
}

}  // namespace fusescope::views
