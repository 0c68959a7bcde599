#include "views/qt/workers/worker_report_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "views/qt/workers/worker_failure.h"

namespace fusescope::views {

WorkerReportBanner::WorkerReportBanner(QWidget* parent)
    : QFrame(parent),
      headline_(new QLabel(this)),
      details_(new QLabel(this)),
      save_(new QPushButton(tr("Save Reproducer…"), this)),
      dismiss_(new QToolButton(this)) {
  setObjectName(QStringLiteral("worker_report"));
  // Translucent red over the window colour reads on light and dark palettes alike.
  setStyleSheet(
      QStringLiteral("#worker_report { background: rgba(220, 50, 47, 38); "
                     "border-bottom: 2px solid rgba(220, 50, 47, 170); }"));
  auto* icon = new QLabel(this);
  icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(32, 32));
  icon->setAlignment(Qt::AlignTop);
  QFont bold = headline_->font();
  bold.setBold(true);
  headline_->setFont(bold);
  headline_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  save_->setToolTip(
      tr("Save the input model, the worker's command line and its last output "
         "to a folder, to reproduce the failure outside the workbench"));
  dismiss_->setText(QStringLiteral("✕"));
  dismiss_->setAutoRaise(true);
  dismiss_->setToolTip(tr("Dismiss"));
  auto* text = new QVBoxLayout;
  text->addWidget(headline_);
  text->addWidget(details_);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(10, 6, 6, 6);
  layout->addWidget(icon);
  layout->addLayout(text, 1);
  layout->addWidget(save_, 0, Qt::AlignVCenter);
  layout->addWidget(dismiss_, 0, Qt::AlignTop);
  connect(save_, &QPushButton::clicked, this, &WorkerReportBanner::saveReproducerRequested);
  connect(dismiss_, &QToolButton::clicked, this, &QWidget::hide);
  hide();
}

void WorkerReportBanner::Show(std::shared_ptr<const WorkerFailure> failure, bool kept_recording) {
  failure_ = std::move(failure);
  headline_->setText(failure_->Message());
  QStringList details;
  const QString error = failure_->outcome().LastErrorLine();
  if (!error.isEmpty() && !headline_->text().contains(error)) {
    details << tr("Last output: %1").arg(error);
  }
  details << (kept_recording ? tr("The last good recording is still shown below.")
                             : tr("Nothing was loaded."));
  details_->setText(details.join(QStringLiteral("   ·   ")));
  // The worker's own words, for who wants them before saving a reproducer.
  const QStringList& lines = failure_->outcome().error_lines;
  const QString tail = lines.mid(std::max<qsizetype>(0, lines.size() - 15)).join('\n');
  details_->setToolTip(
      tail.isEmpty()
          ? QString()
          : tr("<p>The worker's last output:</p><pre>%1</pre>").arg(tail.toHtmlEscaped()));
  show();
}

}  // namespace fusescope::views
