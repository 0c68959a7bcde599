// MLIR files in the workbench: a pass log opens as a recording of its passes, a StableHLO
// model is compiled, a tosa model that cannot be compiled shows its graph with a warning.

#include <gtest/gtest.h>

#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "tests/gui/gui_test_support.h"
#include "views/qt/text/ir_text_model.h"
#include "views/qt/text/ir_text_panel.h"
#include "views/qt/main_window.h"
#include "views/qt/passes/pass_timeline_model.h"
#include "views/qt/passes/pass_timeline_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

const QString kMlirData = QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/mlir/");

bool OpenAndSettle(MainWindow& window, const QString& path) {
  window.OpenPath(path);
  const QString title = QFileInfo(path).fileName();
  return WaitFor([&] { return window.context()->title() == title && window.IsSettled(); });
}

TEST(MlirFilesTest, PassLogOpensAsRecordingOfItsPasses) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "mlir_opt_tosa_mlp.log"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(recording->passes.size(), 32u);
  EXPECT_EQ(recording->pipeline_name, "mlir");
  EXPECT_EQ(recording->passes[5].name, "CSE (cse)");
  EXPECT_TRUE(window->load_warnings().isEmpty());
}

// The IR panel shows an MLIR log's pass as the log printed it, diffed line by line; the pass
// table hides the times never measured here and the pipeline choice that does not apply, and
// filters passes by name and change.
TEST(MlirFilesTest, PassLogReadsAsMlirWithAReadablePassTable) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "mlir_opt_function_passes.log"));
  window->context()->SetPass(12);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  IrTextModel* text = window->text_panel()->model();
  ASSERT_GT(text->rowCount(), 10);
  QStringList lines;
  int added = 0;
  for (int row = 0; row < text->rowCount(); ++row) {
    lines << text->index(row).data().toString();
    const IrLine* line = text->Line(row);
    added += line && line->status == ir::DiffStatus::kAdded;
  }
  EXPECT_TRUE(lines.join('\n').contains("func.func @helper(")) << lines.join('\n').toStdString();
  EXPECT_TRUE(lines.join('\n').contains("linalg.generic"));
  EXPECT_FALSE(lines.join('\n').contains("HloModule"));
  EXPECT_GT(added, 0);
  const QList<QLabel*> labels = window->text_panel()->findChildren<QLabel*>();
  EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const QLabel* label) {
    return label->text().startsWith("MLIR as the log printed it: ");
  }));

  PassTimelinePanel* passes = window->timeline_panel();
  EXPECT_TRUE(passes->table()->isColumnHidden(PassTimelineModel::kTime));
  EXPECT_TRUE(passes->table()->isColumnHidden(PassTimelineModel::kFused));
  EXPECT_FALSE(passes->table()->isColumnHidden(PassTimelineModel::kName));
  EXPECT_EQ(passes->table()->textElideMode(), Qt::ElideMiddle);
  for (QAction* action : window->findChildren<QAction*>()) {
    if (action->text() == "CPU Pipeline" || action->text() == "GPU Pipeline") {
      EXPECT_FALSE(action->isVisible()) << action->text().toStdString();
    }
  }
  const int all = passes->shown()->rowCount();
  passes->filter()->setText(QStringLiteral("canonical"));
  EXPECT_GT(passes->shown()->rowCount(), 0);
  EXPECT_LT(passes->shown()->rowCount(), all);
  for (int row = 0; row < passes->shown()->rowCount(); ++row) {
    EXPECT_TRUE(passes->shown()
                    ->index(row, PassTimelineModel::kName)
                    .data()
                    .toString()
                    .startsWith("Canonicalizer"));
  }
  passes->filter()->clear();
  passes->changed_only()->setChecked(true);
  const int changed = passes->shown()->rowCount();
  EXPECT_GT(changed, 0);
  EXPECT_LT(changed, all);
  // A click on a filtered row goes to that pass, not to the row's position.
  const QModelIndex second = passes->shown()->index(1, PassTimelineModel::kName);
  passes->table()->setCurrentIndex(second);
  EXPECT_EQ(window->context()->requested_pass(),
            second.data(PassTimelineModel::kPassIndexRole).toLongLong());
}

// A folder of numbered MLIR stage files opens as a recording of one pass per stage, in
// numeric order, and the IR panel shows each stage's own text.
TEST(MlirFilesTest, StageFolderOpensAsRecordingOfItsStages) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "stages"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  ASSERT_EQ(recording->passes.size(), 5u);
  EXPECT_EQ(recording->passes[4].name, "llvm (10_llvm)");
  EXPECT_TRUE(window->load_warnings().isEmpty());
  window->context()->SetPass(4);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  IrTextModel* text = window->text_panel()->model();
  QStringList lines;
  for (int row = 0; row < text->rowCount(); ++row) lines << text->index(row).data().toString();
  EXPECT_TRUE(lines.join('\n').contains("llvm.func @mlp")) << lines.join('\n').toStdString();
}

// A folder TVM's DumpIR wrote opens as a recording of TVM's passes; the IR panel shows the
// stage's own TVMScript, diffed against the stage before.
TEST(MlirFilesTest, TvmDumpFolderOpensAsRecordingOfItsPasses) {
  auto window = OpenWindow();
  ASSERT_TRUE(
      OpenAndSettle(*window, QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/tvm_dumpir/mlp")));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  ASSERT_EQ(recording->passes.size(), 36u);
  EXPECT_EQ(recording->passes[7].name, "FuseOps");
  EXPECT_TRUE(window->load_warnings().isEmpty());
  window->context()->SetPass(7);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  IrTextModel* text = window->text_panel()->model();
  QStringList lines;
  int added = 0;
  for (int row = 0; row < text->rowCount(); ++row) {
    lines << text->index(row).data().toString();
    const IrLine* line = text->Line(row);
    added += line && line->status == ir::DiffStatus::kAdded;
  }
  EXPECT_TRUE(lines.join('\n').contains("def fused_matmul_add_relu("))
      << lines.join('\n').toStdString();
  EXPECT_GT(added, 0);
  const QList<QLabel*> labels = window->text_panel()->findChildren<QLabel*>();
  EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const QLabel* label) {
    return label->text().startsWith("TVMScript as TVM printed it: ");
  }));
  EXPECT_TRUE(window->timeline_panel()->table()->isColumnHidden(PassTimelineModel::kTime));
}

// A folder of iree-compile's --mlir-print-ir-tree-dir dumps opens as one recording.
TEST(MlirFilesTest, PrintIrTreeOpensAsRecordingOfItsDumps) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window,
                            QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/iree/print_ir_tree")));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(recording->passes.size(), 52u);
  EXPECT_TRUE(window->load_warnings().isEmpty());
}

// A log opened on a late pass shows that pass's row in the table, and the Passes dock is
// widened to the names (MLIR's `ClassName (argument)`), as far as 2/5 of the window.
TEST(MlirFilesTest, PassTableOpensOnItsPassAndFitsItsNames) {
  auto window = OpenWindow();
  window->resize(1600, 1000);
  window->set_initial_pass(40);
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "iree_stablehlo_abi.log"));
  ASSERT_TRUE(WaitFor([&] { return window->context()->requested_pass() == 40; }));
  PassTimelinePanel* passes = window->timeline_panel();
  QTableView* table = passes->table();
  ASSERT_TRUE(WaitFor([&] {
    return table->currentIndex().isValid() &&
           table->viewport()->rect().contains(table->visualRect(table->currentIndex()));
  }));
  EXPECT_EQ(table->currentIndex().data(PassTimelineModel::kPassIndexRole).toLongLong(), 40);
  const int wanted = std::min(passes->WidthForNames(), window->width() * 2 / 5);
  EXPECT_GT(passes->WidthForNames(), 380);  // wider than the default dock
  ASSERT_TRUE(WaitFor([&] { return passes->width() >= wanted - 8; }))
      << passes->width() << " < " << wanted;
}

TEST(MlirFilesTest, TosaModelShowsItsGraphWithAWarning) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "tosa_mlp.mlir"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_TRUE(recording->passes.empty());
  EXPECT_GT(recording->input().instruction_count(), 5);
  ASSERT_EQ(window->load_warnings().size(), 1);
  EXPECT_TRUE(window->load_warnings().front().contains("shown as a graph, not compiled"));
}

TEST(MlirFilesTest, StablehloModelIsCompiled) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "stablehlo_matmul_tanh.mlir"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_FALSE(recording->passes.empty());
  EXPECT_FALSE(recording->failed());
}

}  // namespace
}  // namespace fusescope::views
