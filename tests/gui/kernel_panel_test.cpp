// The Kernel view on a recording whose kernels are made of real MLIR 19 stages
// (tests/kernel_fixture): selecting a fusion shows its lowering timeline and the chosen stage
// as a coloured diff against the stage before; a failed lowering shows where and why; a node
// without a kernel, or a recording without any, says how to make one.

#include <gtest/gtest.h>
#include <unistd.h>

#include <QCheckBox>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTableView>
#include <QTextBlock>
#include <filesystem>

#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "recording/kernel_store.h"
#include "recording/recording_store.h"
#include "resources/samples.h"
#include "tests/gui/gui_test_support.h"
#include "tests/kernel_fixture/kernel_fixture.h"
#include "views/qt/graph/diff_colors.h"
#include "views/qt/kernel/kernel_panel.h"
#include "views/qt/kernel/kernel_stage_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

namespace fs = std::filesystem;
using testing::App;
using testing::WaitFor;

struct KernelRun {
  std::string path;
  int64_t last_pass = -1;
  std::shared_ptr<const recording::Recording> recording;
};

fs::path TestDirectory() {
  return fs::path(FUSESCOPE_BINARY_DIR) / ("kernel_panel_test." + std::to_string(getpid()));
}

// sample:mlp saved as `name`, with the fixture's kernels of its final snapshot when asked.
// One folder per process: ctest runs test cases as parallel processes.
KernelRun SaveRun(const std::string& name, bool with_kernels) {
  KernelRun run;
  passes::PipelineOptions options;
  options.target = "cpu";
  auto recording =
      recording::CompileAndRecord(resources::FindSample("mlp").text, options, "sample:mlp");
  EXPECT_TRUE(recording.ok()) << recording.message();
  if (!recording.ok()) return run;
  fs::create_directories(TestDirectory());
  run.path = (TestDirectory() / name).string();
  fs::remove(run.path);
  EXPECT_TRUE(recording::SaveRecording(*recording, run.path).ok());
  run.last_pass = static_cast<int64_t>(recording->passes.size()) - 1;
  const int last = static_cast<int>(recording->snapshots.size()) - 1;
  if (with_kernels) {
    EXPECT_TRUE(
        recording::AddKernels(run.path, last, "tile=32 vector=8",
                              fusescope::testing::FixtureKernels(recording->snapshots.back(), last))
            .ok());
  }
  run.recording = std::make_shared<const recording::Recording>(std::move(*recording));
  return run;
}

const KernelRun& WithKernels() {
  static const KernelRun run = SaveRun("kernels.fsdb", true);
  return run;
}

std::unique_ptr<MainWindow> OpenFile(const std::string& path, int64_t pass) {
  App();
  auto window = std::make_unique<MainWindow>(false);
  window->set_interactive(false);
  window->show();
  window->set_initial_pass(pass);
  window->OpenPath(QString::fromStdString(path));
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  return window;
}

int64_t IdOf(const KernelRun& run, const std::string& name) {
  const recording::InstructionRecord* record =
      run.recording->snapshots.back().FindInstruction(name);
  EXPECT_NE(record, nullptr) << name;
  return record ? record->id : -1;
}

// Selects `name` as the graph would and waits for the panel to show what it asks for.
void Select(MainWindow& window, const KernelRun& run, const std::string& name) {
  window.context()->SetSelection(Selection{IdOf(run, name), GraphSide::kAfter, -1});
  EXPECT_TRUE(WaitFor([&] { return window.IsSettled(); }));
}

QString Cell(KernelPanel* panel, int row, int column) {
  return panel->model()->index(row, column).data().toString();
}

// A fusion lowered to assembly: every stage in order with its lines and what it changed; the
// unchanged canonicalize is marked so; the last stage (asm) is shown first.
TEST(KernelPanelTest, SelectingAFusionShowsItsStages) {
  const KernelRun& run = WithKernels();
  auto window = OpenFile(run.path, run.last_pass);
  KernelPanel* panel = window->kernel_panel();
  testing::ModelChecker checker(panel->model());
  Select(*window, run, "broadcast_maximum_fusion");
  ASSERT_NE(panel->timeline(), nullptr);
  const std::vector<recording::KernelStage> stages = fusescope::testing::BroadcastMaximumStages();
  ASSERT_EQ(panel->model()->rowCount(), static_cast<int>(stages.size()));
  for (size_t i = 0; i < stages.size(); ++i) {
    EXPECT_EQ(Cell(panel, static_cast<int>(i), KernelStageModel::kStage),
              QString::fromStdString(stages[i].name));
  }
  EXPECT_EQ(Cell(panel, 2, KernelStageModel::kStage), "canonicalize");
  EXPECT_EQ(Cell(panel, 2, KernelStageModel::kChange), "no change");
  EXPECT_FALSE(panel->model()->index(2, 0).data(KernelStageModel::kChangedRole).toBool());
  EXPECT_EQ(Cell(panel, 3, KernelStageModel::kLines), "16");
  EXPECT_EQ(Cell(panel, 3, KernelStageModel::kChange), "+15 −10");
  EXPECT_TRUE(panel->model()->index(3, 0).data(KernelStageModel::kChangedRole).toBool());
  EXPECT_EQ(panel->current_stage(), static_cast<int>(stages.size()) - 1);
  EXPECT_TRUE(panel->header()->text().contains("broadcast_maximum_fusion"));
  EXPECT_TRUE(panel->header()->text().contains("mlir-cpu"));
  EXPECT_TRUE(panel->header()->text().contains("tile=32 vector=8"));
  EXPECT_TRUE(panel->header()->text().contains("compiled in 18.40 ms"));
  EXPECT_FALSE(panel->placeholder()->isVisible());
  EXPECT_TRUE(panel->stage_view()->isVisible());
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// The loops stage as a diff: the loop nest added in green, the linalg.generic removed in red;
// unchecking the toggle shows the stage's own text.
TEST(KernelPanelTest, StageShowsAsColouredDiffOrPlainText) {
  const KernelRun& run = WithKernels();
  auto window = OpenFile(run.path, run.last_pass);
  KernelPanel* panel = window->kernel_panel();
  Select(*window, run, "broadcast_maximum_fusion");
  ASSERT_NE(panel->timeline(), nullptr);
  const int loops = panel->timeline()->FindStage("convert-linalg-to-loops");
  ASSERT_GT(loops, 0);
  panel->SelectStage(loops);
  const QString shown = panel->text_view()->toPlainText();
  EXPECT_TRUE(shown.contains("+   scf.for %arg2 = %c0 to %c32 step %c1 {")) << shown.toStdString();
  EXPECT_TRUE(shown.contains("-     linalg.generic {indexing_maps")) << shown.toStdString();
  bool saw_added = false, saw_removed = false;
  for (QTextBlock block = panel->text_view()->document()->begin(); block.isValid();
       block = block.next()) {
    const QColor background = block.blockFormat().background().color();
    if (block.text().startsWith("+ ")) {
      EXPECT_EQ(background, DiffColors::Tint(ir::DiffStatus::kAdded)) << block.text().toStdString();
      saw_added = true;
    } else if (block.text().startsWith("- ")) {
      EXPECT_EQ(background, DiffColors::Tint(ir::DiffStatus::kRemoved));
      saw_removed = true;
    } else {
      EXPECT_FALSE(block.blockFormat().hasProperty(QTextFormat::BackgroundBrush));
    }
  }
  EXPECT_TRUE(saw_added);
  EXPECT_TRUE(saw_removed);

  panel->diff_toggle()->setChecked(false);
  const std::string text =
      fusescope::testing::BroadcastMaximumStages()[static_cast<size_t>(loops)].text;
  EXPECT_EQ(panel->text_view()->toPlainText().trimmed().toStdString(),
            QString::fromStdString(text).trimmed().toStdString());
  // Ignoring indentation, the function re-indented out of its module keeps its lines.
  panel->diff_toggle()->setChecked(true);
  const auto count = [panel](QChar mark) {
    int lines = 0;
    for (const QString& line : panel->text_view()->toPlainText().split('\n')) {
      lines += line.startsWith(mark);
    }
    return lines;
  };
  const int removed_exact = count('-');
  ASSERT_GT(removed_exact, 0);
  panel->indentation_toggle()->setChecked(true);
  EXPECT_LT(count('-'), removed_exact);
  EXPECT_TRUE(
      panel->text_view()->toPlainText().contains("\n  func.func @broadcast_maximum_fusion"));
  panel->indentation_toggle()->setChecked(false);
  EXPECT_EQ(count('-'), removed_exact);
  // The first stage has nothing before it: plain, toggle off.
  panel->diff_toggle()->setChecked(true);
  panel->SelectStage(0);
  EXPECT_FALSE(panel->diff_toggle()->isEnabled());
  EXPECT_TRUE(panel->text_view()->toPlainText().startsWith("#map = affine_map"));

  // Find walks the matches and says when there is none.
  panel->SelectStage(panel->timeline()->FindStage("asm"));
  EXPECT_TRUE(panel->Find("maxss"));
  EXPECT_EQ(panel->text_view()->textCursor().selectedText(), "maxss");
  EXPECT_FALSE(panel->Find("no such instruction"));
}

// A lowering that failed: the header says where and why, the timeline ends in the failed
// stage, and the stages before it are kept.
TEST(KernelPanelTest, FailedLoweringShowsStageAndError) {
  const KernelRun& run = WithKernels();
  auto window = OpenFile(run.path, run.last_pass);
  KernelPanel* panel = window->kernel_panel();
  Select(*window, run, "add_reduce_fusion");
  ASSERT_NE(panel->timeline(), nullptr);
  EXPECT_TRUE(panel->header()->text().contains("Lowering failed at convert-to-llvm"));
  EXPECT_TRUE(panel->header()->text().contains("failed to legalize operation"));
  const int last = panel->model()->rowCount() - 1;
  EXPECT_EQ(last, static_cast<int>(fusescope::testing::AddReduceStages().size()));
  EXPECT_TRUE(panel->model()->index(last, 0).data(KernelStageModel::kFailedRole).toBool());
  EXPECT_EQ(Cell(panel, last, KernelStageModel::kStage), "convert-to-llvm");
  EXPECT_EQ(Cell(panel, last, KernelStageModel::kChange), "failed");
  panel->SelectStage(last);
  EXPECT_TRUE(panel->text_view()->toPlainText().contains("failed to legalize operation"));
}

// A library call has no stages: said in the header. A node without a kernel gets the
// placeholder naming it and how to compile.
TEST(KernelPanelTest, NodesWithoutStagesOrKernelsSaySo) {
  const KernelRun& run = WithKernels();
  auto window = OpenFile(run.path, run.last_pass);
  KernelPanel* panel = window->kernel_panel();
  Select(*window, run, "dot.28");
  ASSERT_NE(panel->timeline(), nullptr);
  EXPECT_TRUE(panel->header()->text().contains("openblas"));
  EXPECT_TRUE(panel->header()->text().contains("cblas_sgemm"));
  EXPECT_TRUE(panel->header()->text().contains("No lowering stages"));
  EXPECT_EQ(panel->model()->rowCount(), 0);

  Select(*window, run, "reduce.36");
  EXPECT_TRUE(panel->placeholder()->isVisible());
  EXPECT_TRUE(
      panel->placeholder()->text().startsWith("No kernel recorded for reduce.36: run "
                                              "`fusescope run "))
      << panel->placeholder()->text().toStdString();
  EXPECT_TRUE(panel->placeholder()->text().contains("--device cpu"));
}

// A fused instruction selected inside a fusion's box shows its fusion's kernel, and says so.
TEST(KernelPanelTest, FusedInstructionShowsItsFusionsKernel) {
  const KernelRun& run = WithKernels();
  auto window = OpenFile(run.path, run.last_pass);
  const recording::Snapshot& snapshot = run.recording->snapshots.back();
  const recording::InstructionRecord* fusion = snapshot.FindInstruction("broadcast_maximum_fusion");
  ASSERT_NE(fusion, nullptr);
  const recording::ComputationSnapshot* fused = snapshot.FindComputation(fusion->fused_computation);
  ASSERT_NE(fused, nullptr);
  ASSERT_FALSE(fused->instructions.empty());
  const recording::InstructionRecord& inner = *fused->instructions.back();
  window->context()->SetSelection(Selection{inner.id, GraphSide::kAfter, -1});
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  KernelPanel* panel = window->kernel_panel();
  ASSERT_NE(panel->timeline(), nullptr);
  EXPECT_EQ(panel->timeline()->kernel().kernel, "broadcast_maximum_fusion");
  EXPECT_TRUE(panel->header()->text().contains(
      QString::fromStdString("the kernel of the fusion that holds " + inner.name)))
      << panel->header()->text().toStdString();
}

// A recording without kernel tables: the panel says there are none and how to make them.
TEST(KernelPanelTest, RecordingWithoutKernels) {
  const KernelRun run = SaveRun("no_kernels.fsdb", false);
  auto window = OpenFile(run.path, run.last_pass);
  KernelPanel* panel = window->kernel_panel();
  EXPECT_TRUE(panel->kernels().empty());
  window->context()->SetSelection(Selection{});
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  EXPECT_TRUE(panel->placeholder()->text().contains("No kernels in this recording"));
  Select(*window, run, "broadcast_maximum_fusion");
  EXPECT_TRUE(panel->placeholder()->text().startsWith(
      "No kernel recorded for broadcast_maximum_fusion: run `fusescope run "));
}

// Focusing a kernel by name selects its node everywhere and the stage asked for; the dock is
// in the View menu.
TEST(KernelPanelTest, FocusKernelSelectsNodeAndStage) {
  const KernelRun& run = WithKernels();
  auto window = OpenFile(run.path, 2);
  ASSERT_TRUE(window->FocusKernel("broadcast_maximum_fusion", "one-shot-bufferize"));
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled() && window->kernel_panel()->timeline(); }));
  KernelPanel* panel = window->kernel_panel();
  EXPECT_EQ(window->context()->selection().instruction_id, IdOf(run, "broadcast_maximum_fusion"));
  EXPECT_EQ(window->context()->pass_view()->pass_index(), run.last_pass);
  EXPECT_EQ(Cell(panel, panel->current_stage(), KernelStageModel::kStage), "one-shot-bufferize");
  EXPECT_FALSE(window->FocusKernel("nope"));
  bool in_menu = false;
  for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
    if (dock->widget() != panel) continue;
    EXPECT_TRUE(dock->isVisible());
    for (QAction* action : window->menuBar()->actions()) {
      if (action->menu() && action->menu()->actions().contains(dock->toggleViewAction()))
        in_menu = true;
    }
  }
  EXPECT_TRUE(in_menu);
}

// `fusescope gui RUN.fsdb --kernel NAME --screenshot` writes the window on that kernel; an
// unknown kernel is one error line and no file.
TEST(KernelPanelTest, ScreenshotOnAKernel) {
  const KernelRun& run = WithKernels();
  const QString out = QString::fromStdString((TestDirectory() / "kernel.png").string());
  QFile::remove(out);
  QProcess process;
  process.start(QStringLiteral(FUSESCOPE_BINARY_DIR "/app/fusescope"),
                {"gui", QString::fromStdString(run.path), "--kernel", "broadcast_maximum_fusion",
                 "--kernel-stage", "asm", "--screenshot", out});
  ASSERT_TRUE(process.waitForFinished(120000));
  EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
  EXPECT_FALSE(QImage(out).isNull());
  const QString missing = QString::fromStdString((TestDirectory() / "missing.png").string());
  process.start(
      QStringLiteral(FUSESCOPE_BINARY_DIR "/app/fusescope"),
      {"gui", QString::fromStdString(run.path), "--kernel", "nope", "--screenshot", missing});
  ASSERT_TRUE(process.waitForFinished(120000));
  EXPECT_NE(process.exitCode(), 0);
  EXPECT_TRUE(process.readAllStandardError().contains("no kernel 'nope'"));
  EXPECT_FALSE(QFile::exists(missing));
}

}  // namespace
}  // namespace fusescope::views
