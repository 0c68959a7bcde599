// The window's teaching side: the Lesson dock and its menus, opening a lesson through a
// worker, the views a step asks for, and presenter mode.

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>

#include "passes/pipeline_option_table.h"
#include "recording/kernel_store.h"
#include "resources/lessons.h"
#include "views/lesson.h"
#include "views/qt/decisions/fusion_decisions_panel.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/inspector/inspector_panel.h"
#include "views/qt/text/ir_text_panel.h"
#include "views/qt/lesson/lesson_panel.h"
#include "views/qt/main_window.h"
#include "views/qt/passes/pass_timeline_panel.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/graph/stage_strip_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

// Dark text on white, saturated selection: readable on a projector from the back of a room.
QPalette HighContrastPalette() {
  QPalette palette;
  const QColor white(Qt::white);
  const QColor black(Qt::black);
  const QColor selection(0, 51, 204);
  for (QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive}) {
    palette.setColor(group, QPalette::Window, white);
    palette.setColor(group, QPalette::WindowText, black);
    palette.setColor(group, QPalette::Base, white);
    palette.setColor(group, QPalette::AlternateBase, QColor(235, 235, 235));
    palette.setColor(group, QPalette::Text, black);
    palette.setColor(group, QPalette::Button, QColor(230, 230, 230));
    palette.setColor(group, QPalette::ButtonText, black);
    palette.setColor(group, QPalette::Highlight, selection);
    palette.setColor(group, QPalette::HighlightedText, white);
    palette.setColor(group, QPalette::ToolTipBase, white);
    palette.setColor(group, QPalette::ToolTipText, black);
    palette.setColor(group, QPalette::Link, selection);
  }
  palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(90, 90, 90));
  palette.setColor(QPalette::Disabled, QPalette::Text, QColor(90, 90, 90));
  palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(90, 90, 90));
  return palette;
}

constexpr double kPresenterFontScale = 1.6;

// A lesson step's what-if words (`fusescope compile`'s flags, checked by the worker that
// prepared the lesson) applied to the options the lesson's recording ran with.
StatusOr<passes::PipelineOptions> WhatIfOptions(passes::PipelineOptions options,
                                                const QStringList& words) {
  for (qsizetype i = 0; i < words.size(); ++i) {
    const QString& flag = words[i];
    if (flag == QStringLiteral("--no-verify")) {
      options.verify_between_passes = false;
      continue;
    }
    if (i + 1 >= words.size()) return Status::Error(flag.toStdString() + " needs a value");
    const std::string value = words[++i].toStdString();
    if (flag == QStringLiteral("--set")) {
      FS_RETURN_IF_ERROR(passes::ApplyPipelineOptionAssignment(options, value));
    } else if (flag == QStringLiteral("--fusion-limit")) {
      FS_RETURN_IF_ERROR(passes::ApplyPipelineOptionAssignment(options, "fusion." + value));
    } else if (flag == QStringLiteral("--disable-pass")) {
      options.disabled_passes.insert(value);
    } else if (flag == QStringLiteral("--pipeline")) {
      options.target = value;
    } else if (flag == QStringLiteral("--stop-after")) {
      options.stop_after = value;
    } else {
      return Status::Error("a what-if cannot take " + flag.toStdString());
    }
  }
  return options;
}

}  // namespace

void MainWindow::setupLessons() {
  lesson_panel_ = new LessonPanel(context_, this);
  QDockWidget* dock =
      AddDock(lesson_panel_, tr("Lesson"), "lesson", Qt::RightDockWidgetArea, "inspector");
  for (QDockWidget* other : docks_) {
    if (other->widget() == inspector_panel_) tabifyDockWidget(other, dock);
  }
  dock->hide();
  view_menu_->addAction(dock->toggleViewAction());
  connect(lesson_panel_, &LessonPanel::whatIfRequested, this, [this](const QStringList& words) {
    const recording::Recording* a = context_->recording();
    if (a == nullptr) return;
    auto b = WhatIfOptions(a->options, words);
    if (!b.ok()) {
      ReportError(tr("Could not run the what-if"), QString::fromStdString(b.message()));
      return;
    }
    RunWhatIf(*b);
  });
  // A what-if's B beside A in the stage strip (A's and B's passes interleaved, `last, B:last`).
  connect(this, &MainWindow::whatIfReady, this,
          [this](std::shared_ptr<const recording::Recording> b) {
            stage_strip_panel_->SetSecondRecording(std::move(b), tr("What if"));
          });
  connect(lesson_panel_, &LessonPanel::viewRequested, this,
          [this](LessonView view, const QString& kernel, const QString& stage) {
            ShowLessonView(static_cast<int>(view), kernel, stage);
          });

  // File ▸ Open Lesson…, Help ▸ Lessons.
  for (QMenu* menu : menuBar()->findChildren<QMenu*>()) {
    if (menu->title() == tr("&File")) {
      QAction* before = menu->actions().size() > 2 ? menu->actions()[2] : nullptr;
      auto* open = new QAction(tr("Open &Lesson…"), menu);
      connect(open, &QAction::triggered, this, &MainWindow::ShowOpenLessonDialog);
      menu->insertAction(before, open);
    }
    if (menu->title() == tr("&Help")) {
      QMenu* lessons = new QMenu(tr("&Lessons"), menu);
      for (const resources::BuiltinLesson& builtin : resources::BuiltinLessons()) {
        const QString name = QStringLiteral("lesson:") +
                             QString::fromUtf8(builtin.name.data(),
                                               static_cast<qsizetype>(builtin.name.size()));
        auto parsed = ParseLesson(builtin.text, name.toStdString());
        const QString title = parsed.ok() ? QString::fromStdString(parsed->title) : name;
        lessons->addAction(title, this, [this, name] { OpenLesson(name); });
      }
      menu->insertMenu(menu->actions().value(0), lessons);
    }
  }

  // Navigate: steps of the lesson; Page Down/Up (what presentation remotes send) in presenter
  // mode only, where no text view needs them.
  QMenu* navigate = nullptr;
  for (QMenu* menu : menuBar()->findChildren<QMenu*>()) {
    if (menu->title() == tr("&Navigate")) navigate = menu;
  }
  auto* next = new QAction(tr("Next Lesson &Step"), this);
  next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
  connect(next, &QAction::triggered, lesson_panel_, &LessonPanel::Next);
  auto* previous = new QAction(tr("Previous Lesson S&tep"), this);
  previous->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
  connect(previous, &QAction::triggered, lesson_panel_, &LessonPanel::Previous);
  auto* page_next = new QAction(tr("Next Lesson Step (remote)"), this);
  page_next->setShortcut(QKeySequence(Qt::Key_PageDown));
  connect(page_next, &QAction::triggered, lesson_panel_, &LessonPanel::Next);
  auto* page_previous = new QAction(tr("Previous Lesson Step (remote)"), this);
  page_previous->setShortcut(QKeySequence(Qt::Key_PageUp));
  connect(page_previous, &QAction::triggered, lesson_panel_, &LessonPanel::Previous);
  for (QAction* action : {next, previous, page_next, page_previous}) {
    action->setShortcutContext(Qt::WindowShortcut);
    addAction(action);
  }
  presenter_only_actions_ = {page_next, page_previous};
  for (QAction* action : presenter_only_actions_) action->setEnabled(false);
  if (navigate) {
    navigate->addSeparator();
    navigate->addAction(next);
    navigate->addAction(previous);
  }

  presenter_action_ = new QAction(tr("&Presenter Mode"), this);
  presenter_action_->setCheckable(true);
  presenter_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  presenter_action_->setToolTip(
      tr("Large fonts, high-contrast colours, the Lesson panel and one graph pane"));
  connect(presenter_action_, &QAction::toggled, this, &MainWindow::SetPresenterMode);
  view_menu_->addSeparator();
  view_menu_->addAction(presenter_action_);
}

void MainWindow::ShowOpenLessonDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Lesson"), QString(),
                                                    tr("Lessons (*.lesson);;All files (*)"));
  if (!path.isEmpty()) OpenLesson(path);
}

void MainWindow::OpenLesson(const QString& what) {
  auto lesson = LoadLesson(what.toStdString());
  if (!lesson.ok()) {
    const QString message = QString::fromStdString(lesson.message());
    ReportError(tr("Could not open the lesson"), message);
    emit loadFailed(message);
    return;
  }
  // The recording stays in this folder while the lesson is shown: the Kernel view reads the
  // lesson's kernels from it.
  lesson_folder_ = std::make_unique<QTemporaryDir>();
  if (!lesson_folder_->isValid()) {
    const QString message =
        tr("cannot create a folder for the lesson (%1)").arg(lesson_folder_->errorString());
    ReportError(tr("Could not open the lesson"), message);
    emit loadFailed(message);
    return;
  }
  pending_lesson_ = std::make_shared<Lesson>(std::move(*lesson));
  pending_lesson_path_ = lesson_folder_->filePath(QStringLiteral("lesson.fsdb"));
  loader_->PrepareLesson(what, pending_lesson_path_, QString::fromStdString(pending_lesson_->title),
                         QString::fromStdString(pending_lesson_->pipeline));
}

bool MainWindow::TakeLesson(std::shared_ptr<const recording::Recording> recording,
                            const QString& title, const QString& path) {
  if (!pending_lesson_ || path != pending_lesson_path_) return false;
  std::shared_ptr<const Lesson> lesson = std::move(pending_lesson_);
  pending_lesson_.reset();
  std::vector<recording::KernelSummary> kernels;
  if (lesson->kernels) {
    auto listed = recording::ListKernels(path.toStdString());
    if (listed.ok()) kernels = std::move(*listed);
  }
  ResolveInputs inputs;
  inputs.recording = recording.get();
  inputs.kernels = &kernels;
  // The worker checked the what-if options when it prepared the lesson.
  auto steps = ResolveLesson(*lesson, inputs);
  if (!steps.ok()) {
    const QString message = QString::fromStdString(steps.message());
    ReportError(tr("Could not open the lesson"), message);
    emit loadFailed(message);
    return true;
  }
  const recording::Recording* shown = recording.get();
  ShowRecording(std::move(recording), title, path);
  // The first step is applied once the window has settled on the recording: its panels have
  // read what they read on a load (the kernels listed, the profiles that raise their dock),
  // so the step's view is the last word.
  auto once = std::make_shared<QMetaObject::Connection>();
  *once = connect(this, &MainWindow::settled, this,
                  [this, once, lesson, shown, steps = std::move(*steps)]() mutable {
                    disconnect(*once);
                    if (context_->recording() != shown) return;
                    lesson_panel_->SetLesson(lesson, std::move(steps), shown);
                    RaiseDock(lesson_panel_);
                    statusBar()->showMessage(tr("Lesson: %1 (%2 steps)")
                                                 .arg(QString::fromStdString(lesson->title))
                                                 .arg(lesson->steps.size()),
                                             6000);
                    emit lessonReady();
                  });
  return true;
}

void MainWindow::ShowLessonView(int view, const QString& kernel, const QString& stage) {
  switch (static_cast<LessonView>(view)) {
    case LessonView::kGraph:
      break;
    case LessonView::kText:
      RaiseDock(text_panel_);
      break;
    case LessonView::kDecisions:
      RaiseDock(decisions_panel_);
      break;
    case LessonView::kKernel:
      if (!kernel.isEmpty()) FocusKernel(kernel, stage);
      break;
    case LessonView::kInspector:
      RaiseDock(inspector_panel_);
      break;
    case LessonView::kPasses:
      RaiseDock(timeline_panel_);
      break;
  }
  // The lesson stays in front of the inspector it shares a dock area with.
  if (static_cast<LessonView>(view) != LessonView::kInspector) RaiseDock(lesson_panel_);
}

void MainWindow::SetPresenterMode(bool on) {
  if (on == presenter_) return;
  presenter_ = on;
  if (presenter_action_->isChecked() != on) presenter_action_->setChecked(on);
  for (QAction* action : presenter_only_actions_) action->setEnabled(on);
  if (on) {
    presenter_saved_state_ = saveState();
    presenter_saved_font_ = QApplication::font();
    presenter_saved_palette_ = QApplication::palette();
    QFont font = presenter_saved_font_;
    if (font.pointSizeF() > 0) {
      font.setPointSizeF(font.pointSizeF() * kPresenterFontScale);
    } else {
      font.setPixelSize(static_cast<int>(font.pixelSize() * kPresenterFontScale));
    }
    QApplication::setFont(font);
    QApplication::setPalette(HighContrastPalette());
    for (QDockWidget* dock : docks_) {
      dock->setVisible(dock->widget() == lesson_panel_ && lesson_panel_->has_lesson());
    }
    graph_panel_->SetSinglePane(true);
    // One graph pane: the pass's own graph, not the stage strip.
    if (stage_strip_action_ && stage_strip_action_->isChecked()) stage_strip_action_->trigger();
    // The lesson's text beside one graph, wider than a normal dock.
    for (QDockWidget* dock : docks_) {
      if (dock->widget() == lesson_panel_ && dock->isVisible()) {
        resizeDocks({dock}, {width() * 2 / 5}, Qt::Horizontal);
      }
    }
  } else {
    QApplication::setFont(presenter_saved_font_);
    QApplication::setPalette(presenter_saved_palette_);
    graph_panel_->SetSinglePane(false);
    restoreState(presenter_saved_state_);
  }
}

}  // namespace fusescope::views
