#include "views/qt/passes/pass_actions.h"

#include <QAction>
#include <QWidget>

#include "views/qt/icons.h"
#include "views/qt/passes/pass_navigator.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {

PassActions::PassActions(WorkbenchContext* context, QWidget* window)
    : QObject(window), context_(context) {
  next_ = Make(tr("&Next Pass"), "step-next", QKeySequence(Qt::Key_F10), window);
  previous_ =
      Make(tr("&Previous Pass"), "step-prev", QKeySequence(Qt::SHIFT | Qt::Key_F10), window);
  next_changed_ = Make(tr("Next &Changed Pass"), "step-change", QKeySequence(Qt::Key_F11), window);
  previous_changed_ =
      Make(tr("Previous C&hanged Pass"), "", QKeySequence(Qt::SHIFT | Qt::Key_F11), window);
  first_ = Make(tr("&First Pass"), "", QKeySequence(Qt::CTRL | Qt::Key_Home), window);
  last_ = Make(tr("&Last Pass"), "", QKeySequence(Qt::CTRL | Qt::Key_End), window);
  setupConnections();
  UpdateEnabled();
  context_->AddObserver(this, this);
}

QAction* PassActions::Make(const QString& text, const QString& icon, const QKeySequence& key,
                           QWidget* window) {
  auto* action = new QAction(text, this);
  if (!icon.isEmpty()) action->setIcon(Icons::Get(icon));
  action->setShortcut(key);
  action->setShortcutContext(Qt::WindowShortcut);
  action->setToolTip(QStringLiteral("%1 (%2)").arg(QString(text).remove('&'),
                                                   key.toString(QKeySequence::NativeText)));
  window->addAction(action);
  return action;
}

template <typename Step>
void PassActions::Go(Step step) {
  const recording::Recording* recording = context_->recording();
  if (!recording) return;
  const int64_t current = context_->requested_pass();
  const int64_t target = step(*recording, current);
  if (target != current) context_->SetPass(target);
  UpdateEnabled();
}

void PassActions::setupConnections() {
  connect(next_, &QAction::triggered, this, [this] { Go(&PassNavigator::Next); });
  connect(previous_, &QAction::triggered, this, [this] { Go(&PassNavigator::Previous); });
  connect(next_changed_, &QAction::triggered, this, [this] { Go(&PassNavigator::NextChanged); });
  connect(previous_changed_, &QAction::triggered, this,
          [this] { Go(&PassNavigator::PreviousChanged); });
  connect(first_, &QAction::triggered, this,
          [this] { Go([](const auto& r, int64_t) { return PassNavigator::First(r); }); });
  connect(last_, &QAction::triggered, this,
          [this] { Go([](const auto& r, int64_t) { return PassNavigator::Last(r); }); });
}

void PassActions::UpdateEnabled() {
  const recording::Recording* recording = context_->recording();
  const int64_t current = context_->requested_pass();
  auto can = [&](auto step) { return recording && step(*recording, current) != current; };
  next_->setEnabled(can(&PassNavigator::Next));
  previous_->setEnabled(can(&PassNavigator::Previous));
  next_changed_->setEnabled(can(&PassNavigator::NextChanged));
  previous_changed_->setEnabled(can(&PassNavigator::PreviousChanged));
  first_->setEnabled(recording && current > 0);
  last_->setEnabled(recording && current < PassNavigator::Last(*recording));
}

void PassActions::OnRecordingLoaded(const WorkbenchContext&) { UpdateEnabled(); }

void PassActions::OnPassChanged(const WorkbenchContext&) { UpdateEnabled(); }

}  // namespace fusescope::views
