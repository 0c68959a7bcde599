// The Lesson panel and presenter mode, driven as a teacher would: open a built-in lesson (the
// worker prepares it), step with Next and the keyboard, see the pass, the selection and the
// view each step names, then switch presenter mode on and off.

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSplitter>
#include <QTextBrowser>

#include "tests/gui/gui_test_support.h"
#include "views/qt/decisions/fusion_decisions_panel.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/graph/graph_canvas.h"
#include "views/qt/kernel/kernel_panel.h"
#include "views/qt/lesson/lesson_panel.h"
#include "views/qt/main_window.h"
#include "views/qt/graph/stage_strip_panel.h"
#include "views/qt/what_if/what_if_fusion_model.h"
#include "views/qt/what_if/what_if_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::WaitFor;

bool DockInFront(MainWindow& window, QWidget* panel) {
  for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
    if (dock->widget() == panel) return dock->isVisible() && !dock->visibleRegion().isEmpty();
  }
  return false;
}

std::unique_ptr<MainWindow> OpenLessonWindow(const QString& lesson) {
  testing::App();
  auto window = std::make_unique<MainWindow>(/*use_settings=*/false);
  window->set_interactive(false);
  window->resize(1600, 1000);
  window->show();
  QSignalSpy ready(window.get(), &MainWindow::lessonReady);
  QSignalSpy failed(window.get(), &MainWindow::loadFailed);
  window->OpenLesson(lesson);
  EXPECT_TRUE(WaitFor([&] { return !ready.isEmpty() || !failed.isEmpty(); }));
  EXPECT_TRUE(failed.isEmpty()) << (failed.isEmpty() ? "" : failed[0][0].toString().toStdString());
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  return window;
}

TEST(LessonPanelTest, StepsSetPassSelectionAndView) {
  auto window = OpenLessonWindow("lesson:mlp_fusion");
  LessonPanel* panel = window->lesson_panel();
  WorkbenchContext* context = window->context();
  ASSERT_TRUE(panel->has_lesson());
  EXPECT_EQ(panel->step_count(), 6);
  EXPECT_EQ(panel->current_step(), 0);
  EXPECT_EQ(panel->title_label()->text(), "What fusion does to an MLP");
  EXPECT_EQ(panel->step_list()->count(), 6);
  EXPECT_TRUE(DockInFront(*window, panel));
  EXPECT_FALSE(panel->previous_button()->isEnabled());
  // Step 1: the input, dot.17 selected.
  EXPECT_EQ(context->requested_pass(), 0);
  const auto* dot = context->recording()->input().FindInstruction("dot.17");
  ASSERT_NE(dot, nullptr);
  EXPECT_EQ(context->selection().instruction_id, dot->id);

  // Step 2 with the button: the fusion pass, the fusion selected after it.
  QTest::mouseClick(panel->next_button(), Qt::LeftButton);
  EXPECT_EQ(panel->current_step(), 1);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  EXPECT_EQ(context->pass_view()->pass_index(), 7);
  const auto* fusion =
      context->recording()->SnapshotAfter(7)->FindInstruction("broadcast_maximum_fusion.1");
  ASSERT_NE(fusion, nullptr);
  EXPECT_EQ(context->selection().instruction_id, fusion->id);
  EXPECT_TRUE(panel->body()->toPlainText().contains("output fusion"));
  // The pass's explanation comes with the step that arrives at it.
  EXPECT_TRUE(panel->body()->toPlainText().contains("Producer-consumer fusion"));

  // Step 4 with the keyboard (Alt+Right twice): a refused decision, the decisions in front.
  QTest::keyClick(window.get(), Qt::Key_Right, Qt::AltModifier);
  QTest::keyClick(window.get(), Qt::Key_Right, Qt::AltModifier);
  EXPECT_EQ(panel->current_step(), 3);
  const int64_t decision = context->selection().decision_index;
  ASSERT_GE(decision, 0);
  EXPECT_EQ(context->recording()->decisions[static_cast<size_t>(decision)].producer_name,
            "exponential.35");
  EXPECT_FALSE(context->recording()->decisions[static_cast<size_t>(decision)].accepted());
  EXPECT_TRUE(DockInFront(*window, window->decisions_panel()));
  EXPECT_TRUE(panel->body()->toPlainText().contains("Refused"));
  EXPECT_TRUE(panel->body()->toPlainText().contains("Question:"));
  EXPECT_FALSE(panel->what_if_button()->isVisible());

  // Step 5 is a what-if: its button asks for the step's options.
  QSignalSpy what_if(panel, &LessonPanel::whatIfRequested);
  std::shared_ptr<const recording::Recording> b;
  QObject::connect(window.get(), &MainWindow::whatIfReady, window.get(),
                   [&](std::shared_ptr<const recording::Recording> ready) { b = std::move(ready); });
  panel->Next();
  EXPECT_TRUE(panel->what_if_button()->isVisible());
  QTest::mouseClick(panel->what_if_button(), Qt::LeftButton);
  ASSERT_EQ(what_if.size(), 1);
  EXPECT_EQ(what_if[0][0].toStringList(),
            (QStringList{"--fusion-limit", "max_instructions=3"}));

  // The window runs it: B compiled by a worker with max_instructions=3 and compared in the
  // What If dock, and offered to the stage strip beside A.
  ASSERT_TRUE(WaitFor([&] { return b != nullptr; }));
  EXPECT_EQ(b->options.fusion.max_instructions, 3);
  EXPECT_GT(window->what_if_panel()->fusion_model()->rowCount(), 0);
  EXPECT_TRUE(DockInFront(*window, window->what_if_panel()));

  // The last step cannot go further; clicking a step in the list goes there.
  panel->Next();
  panel->Next();
  EXPECT_EQ(panel->current_step(), 5);
  EXPECT_FALSE(panel->next_button()->isEnabled());
  panel->step_list()->setCurrentRow(2);
  EXPECT_EQ(panel->current_step(), 2);
}

TEST(LessonPanelTest, KernelStepOpensTheStage) {
  auto window = OpenLessonWindow("lesson:graph_to_kernel");
  LessonPanel* panel = window->lesson_panel();
  ASSERT_TRUE(panel->has_lesson());
  panel->GoTo(3);  // Tensors become buffers
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  KernelPanel* kernels = window->kernel_panel();
  EXPECT_TRUE(DockInFront(*window, kernels));
  ASSERT_NE(kernels->timeline(), nullptr);
  EXPECT_EQ(kernels->timeline()->kernel().kernel, "subtract_exponential_fusion");
  const int stage = kernels->current_stage();
  ASSERT_GE(stage, 0);
  EXPECT_EQ(kernels->timeline()->kernel().stages[static_cast<size_t>(stage)].name,
            "one-shot-bufferize");
  // The graph stands after the pass that made the kernel's snapshot (the last).
  EXPECT_EQ(window->context()->pass_view()->pass_index(), window->context()->pass_count() - 1);
}

TEST(LessonPanelTest, PresenterModeEnlargesAndRestores) {
  auto window = OpenLessonWindow("lesson:mlp_fusion");
  const QFont font = QApplication::font();
  const QByteArray state = window->saveState();
  window->presenter_action()->trigger();
  EXPECT_TRUE(window->presenter_mode());
  EXPECT_GT(QApplication::font().pointSizeF(), font.pointSizeF() * 1.5);
  EXPECT_EQ(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
  EXPECT_EQ(QApplication::palette().color(QPalette::Text), QColor(Qt::black));
  EXPECT_TRUE(window->graph_panel()->single_pane());
  EXPECT_FALSE(window->graph_panel()->canvas(GraphSide::kBefore)->isVisible());
  EXPECT_TRUE(window->graph_panel()->canvas(GraphSide::kAfter)->isVisible());
  // Only the lesson stays docked.
  for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
    EXPECT_EQ(dock->isVisible(), dock->widget() == window->lesson_panel())
        << dock->objectName().toStdString();
  }
  // A presentation remote's Page Down steps the lesson.
  const int step = window->lesson_panel()->current_step();
  QTest::keyClick(window.get(), Qt::Key_PageDown);
  EXPECT_EQ(window->lesson_panel()->current_step(), step + 1);

  window->presenter_action()->trigger();
  EXPECT_FALSE(window->presenter_mode());
  EXPECT_EQ(QApplication::font(), font);
  EXPECT_FALSE(window->graph_panel()->single_pane());
  EXPECT_TRUE(window->graph_panel()->canvas(GraphSide::kBefore)->isVisible());
  EXPECT_EQ(window->saveState(), state);
}

TEST(LessonPanelTest, LessonThatDoesNotFitIsReported) {
  testing::App();
  QTemporaryDir folder;
  const QString path = folder.filePath("bad.lesson");
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("lesson: L\nmodel: sample:mlp\nstep: A\npass: fusion\nselect: nothing.1\ntext: t\n");
  file.close();
  MainWindow window(false);
  window.set_interactive(false);
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  window.OpenLesson(path);
  ASSERT_TRUE(WaitFor([&] { return !failed.isEmpty(); }));
  EXPECT_TRUE(failed[0][0].toString().contains(
      "bad.lesson:5:9: step 1 ('A'): no node named 'nothing.1'"))
      << failed[0][0].toString().toStdString();
  EXPECT_FALSE(window.lesson_panel()->has_lesson());
  // A syntax error never reaches a worker.
  failed.clear();
  window.OpenLesson("lesson:no_such_lesson");
  ASSERT_EQ(failed.size(), 1);
  EXPECT_TRUE(failed[0][0].toString().contains("no built-in lesson 'lesson:no_such_lesson'"));
}

}  // namespace
}  // namespace fusescope::views
