#ifndef FUSESCOPE_VIEWS_QT_LESSON_LESSON_PANEL_H_
#define FUSESCOPE_VIEWS_QT_LESSON_LESSON_PANEL_H_

// The Lesson dock: a lesson (views/lesson.h) resolved against the open recording, one step at
// a time. It shows the lesson's title, the list of steps, the current step's text, the pass
// it stands on with what that pass does (resources/explanations.h), the fusion decision it
// shows, its question, and for a what-if step a button that runs the what-if. Going to a step
// sets the context's pass and selection and asks the window for the step's view (the Kernel
// view on a stage, the decisions table, ...). The lesson is dropped when another recording
// opens.

#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "views/lesson.h"
#include "views/qt/context_observer.h"

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace fusescope::views {

class WorkbenchContext;

class LessonPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit LessonPanel(WorkbenchContext* context, QWidget* parent = nullptr);

  // `recording` is the one the steps were resolved against (the context's, once shown).
  void SetLesson(std::shared_ptr<const Lesson> lesson, std::vector<ResolvedStep> steps,
                 const recording::Recording* recording);
  void Clear();
  bool has_lesson() const { return lesson_ != nullptr; }
  const Lesson* lesson() const { return lesson_.get(); }
  int step_count() const { return static_cast<int>(steps_.size()); }
  // -1 without a lesson.
  int current_step() const { return current_; }
  const ResolvedStep* current_resolved() const;

  QLabel* title_label() const { return title_; }
  QLabel* step_label() const { return step_title_; }
  QTextBrowser* body() const { return body_; }
  QListWidget* step_list() const { return list_; }
  QPushButton* next_button() const { return next_; }
  QPushButton* previous_button() const { return previous_; }
  QPushButton* what_if_button() const { return what_if_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;

 public slots:
  // Clamped to the steps; applies the step (pass, selection, view).
  void GoTo(int index);
  void Next();
  void Previous();

 signals:
  void stepShown(int index);
  // The view the step names; `kernel` and `stage` set for the Kernel view.
  void viewRequested(fusescope::views::LessonView view, const QString& kernel,
                     const QString& stage);
  // The step's what-if options, as `fusescope compile` takes them.
  void whatIfRequested(const QStringList& options);

 private:
  QString StepHtml(int index) const;
  void UpdateButtons();

  WorkbenchContext* context_;
  std::shared_ptr<const Lesson> lesson_;
  std::vector<ResolvedStep> steps_;
  const recording::Recording* recording_ = nullptr;
  int current_ = -1;

  QLabel* title_;
  QListWidget* list_;
  QLabel* step_title_;
  QTextBrowser* body_;
  QPushButton* previous_;
  QPushButton* next_;
  QPushButton* what_if_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_LESSON_LESSON_PANEL_H_
