#include "views/qt/graph/heat_legend.h"

#include <QLinearGradient>
#include <QPainter>

namespace fusescope::views {
namespace {

constexpr int kBarWidth = 160;
constexpr int kBarHeight = 10;
constexpr int kMargin = 6;

}  // namespace

HeatLegend::HeatLegend(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void HeatLegend::SetHeat(std::shared_ptr<const HeatOverlay> heat) {
  heat_ = std::move(heat);
  setVisible(heat_ != nullptr);
  setToolTip(Caption());
  update();
}

QString HeatLegend::Caption() const {
  if (!heat_) return {};
  const auto kind = [this](GraphSide side) {
    return heat_->estimated(side) ? tr("~ estimate") : tr("measured");
  };
  return tr("share of profile \"%1\" time (no time: plain); before: %2, after: %3 "
            "(estimates split each kernel's measured time over the model's ops by a roofline "
            "estimate)")
      .arg(heat_->profile_label, kind(GraphSide::kBefore), kind(GraphSide::kAfter));
}

QSize HeatLegend::sizeHint() const {
  return QSize(kBarWidth * 3, fontMetrics().height() + 2 * kMargin);
}

void HeatLegend::paintEvent(QPaintEvent*) {
  if (!heat_) return;
  QPainter painter(this);
  const int height = fontMetrics().height();
  const int middle = rect().center().y();
  int x = kMargin;
  const QString low = QStringLiteral("0%");
  painter.setPen(palette().color(QPalette::WindowText));
  painter.drawText(QRect(x, middle - height / 2, fontMetrics().horizontalAdvance(low), height),
                   Qt::AlignVCenter, low);
  x += fontMetrics().horizontalAdvance(low) + 4;
  QLinearGradient gradient(x, 0, x + kBarWidth, 0);
  for (int i = 0; i <= 10; ++i) gradient.setColorAt(i / 10.0, HeatScale::Color(i / 10.0));
  const QRect bar(x, middle - kBarHeight / 2, kBarWidth, kBarHeight);
  painter.fillRect(bar, gradient);
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawRect(bar);
  x += kBarWidth + 4;
  const QString high = QStringLiteral("%1%").arg(100 * heat_->max_share, 0, 'f', 1);
  painter.setPen(palette().color(QPalette::WindowText));
  painter.drawText(QRect(x, middle - height / 2, fontMetrics().horizontalAdvance(high), height),
                   Qt::AlignVCenter, high);
  x += fontMetrics().horizontalAdvance(high) + 12;
  const QRect caption(x, middle - height / 2, width() - x - kMargin, height);
  painter.drawText(caption, Qt::AlignVCenter | Qt::AlignLeft,
                   fontMetrics().elidedText(Caption(), Qt::ElideRight, caption.width()));
}

}  // namespace fusescope::views
