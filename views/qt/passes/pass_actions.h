#ifndef FUSESCOPE_VIEWS_QT_PASSES_PASS_ACTIONS_H_
#define FUSESCOPE_VIEWS_QT_PASSES_PASS_ACTIONS_H_

// The stepping actions, shared by the Navigate menu, the toolbar and the pass timeline, with
// a debugger's keys: F10 next pass, Shift+F10 previous, F11 next changed pass, Shift+F11
// previous changed pass, Home / End first and last (in the timeline).

#include <QObject>

#include "views/qt/context_observer.h"

class QAction;
class QWidget;

namespace fusescope::views {

class WorkbenchContext;

class PassActions : public QObject, public ContextObserver {
  Q_OBJECT

 public:
  // The shortcuts work anywhere in `window`.
  PassActions(WorkbenchContext* context, QWidget* window);

  QAction* next() const { return next_; }
  QAction* previous() const { return previous_; }
  QAction* next_changed() const { return next_changed_; }
  QAction* previous_changed() const { return previous_changed_; }
  QAction* first() const { return first_; }
  QAction* last() const { return last_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;

 private:
  QAction* Make(const QString& text, const QString& icon, const QKeySequence& key, QWidget* window);
  void setupConnections();
  template <typename Step>
  void Go(Step step);
  void UpdateEnabled();

  WorkbenchContext* context_;
  QAction* next_;
  QAction* previous_;
  QAction* next_changed_;
  QAction* previous_changed_;
  QAction* first_;
  QAction* last_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_PASSES_PASS_ACTIONS_H_
