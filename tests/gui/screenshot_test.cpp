// Writes screenshots of the main states into the build folder (gui_screenshots/), for a
// person to look at: the default sample as opened, a fusion pass with a fused node selected
// and its originals marked, a refused fusion decision written on its edge, the inspector on
// a fused node, a worker that crashed reported above the last good recording, an XLA dump
// compared with our gpu pipeline with an XLA-only pair selected.

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QTableView>

#include "tests/gui/gui_test_support.h"
#include "views/qt/decisions/fusion_decision_model.h"
#include "views/qt/decisions/fusion_decisions_panel.h"
#include "views/qt/graph/graph_canvas.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/workbench_context.h"
#include "views/qt/compare/xla_comparison_panel.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::ScopedEnv;
using testing::WaitFor;

QString ShotPath(const QString& name) {
  const QString folder = QStringLiteral(FUSESCOPE_BINARY_DIR "/gui_screenshots");
  QDir().mkpath(folder);
  return folder + '/' + name + ".png";
}

void Save(QWidget* window, const QString& name) {
  QTest::qWait(50);
  const QString path = ShotPath(name);
  ASSERT_TRUE(window->grab().save(path)) << path.toStdString();
  const QImage image(path);
  EXPECT_EQ(image.size(), window->size());
}

// Screenshots for the docs: a laptop-sized window keeps the files small and the text crisp
// (scaled-down captures blur and compress worse).
std::unique_ptr<MainWindow> ShotWindow() {
  auto window = OpenWindow();
  window->resize(1440, 900);
  WaitFor([&] { return window->IsSettled(); });
  return window;
}

// The fusion with the most originals: the most telling one to select.
const ir::Instruction* LargestFusion(const PassView& view) {
  const ir::Instruction* best = nullptr;
  size_t most = 0;
  for (const auto& instruction : view.module(GraphSide::kAfter)->entry()->instructions()) {
    if (instruction->opcode() != ir::Opcode::kFusion) continue;
    const size_t count = view.Counterparts(GraphSide::kAfter, instruction->id()).size();
    if (count > most) {
      most = count;
      best = instruction.get();
    }
  }
  return best;
}

TEST(ScreenshotTest, DefaultSample) {
  auto window = ShotWindow();
  ASSERT_TRUE(window->IsSettled());
  Save(window.get(), "default_sample");
}

TEST(ScreenshotTest, FusionPassWithSelection) {
  auto window = ShotWindow();
  const ir::Instruction* fusion = LargestFusion(*window->context()->pass_view());
  ASSERT_NE(fusion, nullptr);
  window->context()->SetSelection(Selection{fusion->id(), GraphSide::kAfter, -1});
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  Save(window.get(), "fusion_pass_diff");
}

TEST(ScreenshotTest, RefusedDecisionOnEdge) {
  auto window = ShotWindow();
  FusionDecisionsPanel* panel = window->decisions_panel();
  panel->verdict_box()->setCurrentIndex(panel->verdict_box()->findText("Refused"));
  panel->parentWidget()->raise();
  QTableView* table = panel->table();
  ASSERT_GT(table->model()->rowCount(), 0);
  const QModelIndex first = table->model()->index(0, FusionDecisionModel::kProducer);
  QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                    table->visualRect(first).center());
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  ASSERT_GE(window->context()->selection().decision_index, 0);
  Save(window.get(), "refused_decision");
}

TEST(ScreenshotTest, InspectorOnFusedNode) {
  auto window = ShotWindow();
  const ir::Instruction* fusion = LargestFusion(*window->context()->pass_view());
  ASSERT_NE(fusion, nullptr);
  GraphCanvas* canvas = window->graph_panel()->canvas(GraphSide::kAfter);
  GraphNodeItem* item = canvas->ItemOfInstruction(fusion->id());
  ASSERT_NE(item, nullptr);
  QTest::mouseClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier,
                    canvas->mapFromScene(item->sceneBoundingRect().center()));
  ASSERT_EQ(window->context()->selection().instruction_id, fusion->id());
  Save(window.get(), "inspector_fused_node");
}

// Recompiling crashes the worker in a late pass: the report above the graphs, the recording
// from before still shown on its fusion pass.
TEST(ScreenshotTest, WorkerCrashReport) {
  auto window = ShotWindow();
  const auto& passes = window->context()->recording()->passes;
  ASSERT_GE(passes.size(), 3u);
  ScopedEnv crash("FUSESCOPE_TEST_CRASH_IN_PASS",
                  QString::fromStdString(passes[passes.size() - 2].name));
  QSignalSpy failed(window.get(), &MainWindow::loadFailed);
  window->Recompile();
  ASSERT_TRUE(WaitFor([&] { return failed.count() > 0; }));
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  Save(window.get(), "worker_crashed");
}

TEST(ScreenshotTest, XlaVsOurs) {
  auto window = ShotWindow();
  XlaComparisonPanel* panel = window->xla_panel();
  panel->set_preferred_pipeline("gpu");
  window->OpenPath(QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/xla_dump_attention"));
  ASSERT_TRUE(WaitFor([&] {
    return window->context()->title() == "xla_dump_attention" && window->IsSettled() &&
           !panel->busy() && panel->result();
  }));
  QTableView* table = panel->table();
  for (int row = 0; row < table->model()->rowCount(); ++row) {
    if (table->model()->index(row, 1).data().toString() != "reduce_sum.21 (reduce)") continue;
    table->selectRow(row);
    break;
  }
  ASSERT_FALSE(window->context()->selection().empty());
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  Save(window.get(), "xla_vs_ours");
}

}  // namespace
}  // namespace fusescope::views
