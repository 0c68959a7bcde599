// The what-if experiment in the workbench: the What If dialog starts at the open recording's
// options and refuses values the option table refuses; a what-if on the BERT sample with a
// fusion budget of 8 operands compiles B in a worker, keeps A open, and the What If dock
// lists the fusions that differ with B's refusals; a row selects its fusion on the graph;
// B opens as the main recording and saves as a .fsdb file; a running what-if cancels.

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <tuple>

#include "recording/recording_store.h"
#include "tests/gui/gui_test_support.h"
#include "views/qt/what_if/what_if_dialog.h"
#include "views/qt/what_if/what_if_fusion_model.h"
#include "views/qt/what_if/what_if_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::App;
using testing::OpenWindow;
using testing::WaitFor;

QListWidgetItem* PassItem(const WhatIfDialog& dialog, const QString& name) {
  const QList<QListWidgetItem*> found = dialog.pass_list()->findItems(name, Qt::MatchExactly);
  return found.isEmpty() ? nullptr : found.front();
}

// Every field starts at A's value: target, passes (a disabled one unchecked) and options.
TEST(WhatIfTest, DialogStartsAtTheRecordingsOptions) {
  App();
  std::shared_ptr<const recording::Recording> sample = testing::SampleRecording("bert_encoder");
  ASSERT_NE(sample, nullptr);
  passes::PipelineOptions a = sample->options;
  a.target = "gpu";
  a.fusion.max_operands_and_outputs = 12;
  a.fusion.multi_output = false;
  a.gpu_device.peak_tflops = 19.5;
  a.disabled_passes = {"cse"};
  WhatIfDialog dialog(a);

  EXPECT_EQ(dialog.target_box()->currentData().toString(), "gpu");
  ASSERT_NE(PassItem(dialog, "priority-fusion"), nullptr);  // the gpu pipeline's passes
  ASSERT_NE(PassItem(dialog, "cse"), nullptr);
  EXPECT_EQ(PassItem(dialog, "cse")->checkState(), Qt::Unchecked);
  EXPECT_EQ(PassItem(dialog, "dce")->checkState(), Qt::Checked);
  auto* operands = qobject_cast<QSpinBox*>(dialog.editor("fusion.max_operands"));
  ASSERT_NE(operands, nullptr);
  EXPECT_EQ(operands->value(), 12);
  auto* multi_output = qobject_cast<QCheckBox*>(dialog.editor("fusion.multi_output"));
  ASSERT_NE(multi_output, nullptr);
  EXPECT_FALSE(multi_output->isChecked());
  auto* tflops = qobject_cast<QDoubleSpinBox*>(dialog.editor("gpu.peak_tflops"));
  ASSERT_NE(tflops, nullptr);
  EXPECT_DOUBLE_EQ(tflops->value(), 19.5);
  EXPECT_EQ(dialog.editor("no.such.option"), nullptr);

  StatusOr<passes::PipelineOptions> b = dialog.options();
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->target, "gpu");
  EXPECT_EQ(b->fusion.max_operands_and_outputs, 12);
  EXPECT_EQ(b->gpu_device.peak_tflops, 19.5);
  EXPECT_EQ(b->disabled_passes, std::set<std::string>{"cse"});
  EXPECT_TRUE(dialog.ok_button()->isEnabled());
  EXPECT_EQ(dialog.message()->text(), "B: same options");

  // What the user changes becomes B and is named.
  operands->setValue(8);
  PassItem(dialog, "dce")->setCheckState(Qt::Unchecked);
  b = dialog.options();
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->fusion.max_operands_and_outputs, 8);
  EXPECT_EQ(b->disabled_passes, (std::set<std::string>{"cse", "dce"}));
  EXPECT_EQ(dialog.message()->text(), "B: fusion.max_operands=8, without dce");
}

// A value typed past an option's range, or an emptied field, is refused with the key and
// what it accepts, and OK stays off until the value is one the option takes.
TEST(WhatIfTest, DialogRefusesABadValue) {
  App();
  WhatIfDialog dialog(passes::PipelineOptions{});
  dialog.show();
  auto* operands = qobject_cast<QSpinBox*>(dialog.editor("fusion.max_operands"));
  ASSERT_NE(operands, nullptr);
  operands->selectAll();
  QTest::keyClicks(operands, "0");
  EXPECT_FALSE(dialog.ok_button()->isEnabled());
  EXPECT_FALSE(dialog.options().ok());
  EXPECT_EQ(dialog.message()->text(),
            "fusion.max_operands needs an integer from 1 to 1000000, got '0'");

  operands->selectAll();
  QTest::keyClick(operands, Qt::Key_Backspace);
  EXPECT_FALSE(dialog.ok_button()->isEnabled());
  EXPECT_EQ(dialog.message()->text(),
            "fusion.max_operands needs an integer from 1 to 1000000, got nothing");

  QTest::keyClicks(operands, "8");
  EXPECT_TRUE(dialog.ok_button()->isEnabled());
  EXPECT_EQ(dialog.message()->text(), "B: fusion.max_operands=8");

  auto* tflops = qobject_cast<QDoubleSpinBox*>(dialog.editor("gpu.peak_tflops"));
  ASSERT_NE(tflops, nullptr);
  tflops->selectAll();
  QTest::keyClicks(tflops, "0");
  EXPECT_FALSE(dialog.ok_button()->isEnabled());
  EXPECT_EQ(dialog.message()->text(),
            "gpu.peak_tflops needs a number from 0.001 to 100000 (TFLOP/s), got '0'");
}

const WhatIfFusionModel::Row* FirstDiffering(const WhatIfFusionModel& model) {
  for (const WhatIfFusionModel::Row& row : model.rows()) {
    if (row.category == WhatIfFusionModel::Category::kDiffers) return &row;
  }
  return nullptr;
}

// B with a budget of 8 operands on BERT: compiled in a worker, A stays open, and the dock
// lists the fusions of A that B builds smaller with B's refusals for the operand budget.
TEST(WhatIfTest, SmallerOperandBudgetListsTheDifferingFusions) {
  auto window = OpenWindow("bert_encoder");
  const std::shared_ptr<const recording::Recording> a = window->context()->shared_recording();
  ASSERT_NE(a, nullptr);
  WhatIfPanel* panel = window->what_if_panel();
  testing::ModelChecker checker(panel->fusion_model());
  std::shared_ptr<const recording::Recording> ready_b;
  int ready = 0;
  QObject::connect(window.get(), &MainWindow::whatIfReady, window.get(),
                   [&](std::shared_ptr<const recording::Recording> b) {
                     ready_b = std::move(b);
                     ++ready;
                   });
  passes::PipelineOptions options = a->options;
  options.fusion.max_operands_and_outputs = 8;
  window->RunWhatIf(options);
  EXPECT_TRUE(panel->busy());
  EXPECT_TRUE(panel->progress_bar()->isVisible());
  ASSERT_TRUE(WaitFor([&] { return ready > 0; }));
  EXPECT_EQ(ready, 1);
  EXPECT_FALSE(panel->busy());
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();

  const std::shared_ptr<const WhatIfResult>& result = panel->result();
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(ready_b, result->b);
  EXPECT_EQ(window->context()->recording(), a.get());
  EXPECT_EQ(result->a, a);
  EXPECT_EQ(result->b->options.fusion.max_operands_and_outputs, 8);
  EXPECT_EQ(result->b_title, "fusion.max_operands=8");
  EXPECT_TRUE(panel->title()->text().contains("fusion.max_operands=8"));

  ASSERT_EQ(panel->options_table()->rowCount(), 1);
  EXPECT_EQ(panel->options_table()->item(0, 0)->text(), "fusion.max_operands");
  EXPECT_EQ(panel->options_table()->item(0, 1)->text(), "64");
  EXPECT_EQ(panel->options_table()->item(0, 2)->text(), "8");
  EXPECT_EQ(panel->pass_table()->rowCount(), static_cast<int>(a->passes.size()));

  const WhatIfFusionModel::Row* row = FirstDiffering(*panel->fusion_model());
  ASSERT_NE(row, nullptr);
  EXPECT_FALSE(row->match.fusion_a.empty());
  EXPECT_FALSE(row->match.fusion_b.empty());
  const int index = static_cast<int>(row - panel->fusion_model()->rows().data());
  const QString why =
      panel->fusion_model()->index(index, WhatIfFusionModel::kWhy).data().toString();
  EXPECT_TRUE(why.startsWith("B refused ")) << why.toStdString();
  EXPECT_TRUE(why.contains("limit is 8")) << why.toStdString();

  // A row selects its fusion of A on the graph, on a pass that has it.
  panel->fusion_table()->selectRow(index);
  EXPECT_EQ(window->context()->selection().instruction_id, row->match.fusion_a_id);
  EXPECT_TRUE(panel->details()->toPlainText().contains("too_many_operands"))
      << panel->details()->toPlainText().toStdString();
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  const recording::Snapshot* shown = a->SnapshotAfter(window->context()->requested_pass());
  ASSERT_NE(shown, nullptr);
  EXPECT_NE(shown->FindInstruction(row->match.fusion_a_id), nullptr);

  // B saves as a recording that reads back with its options.
  QTemporaryDir dir;
  const QString path = dir.filePath("b.fsdb");
  QSignalSpy saved(panel, &WhatIfPanel::savedB);
  panel->SaveB(path);
  ASSERT_TRUE(WaitFor([&] { return !saved.isEmpty(); }));
  EXPECT_EQ(saved.front().at(1).toString(), QString());
  auto loaded = recording::LoadRecording(path.toStdString());
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_EQ(loaded->options.fusion.max_operands_and_outputs, 8);

  // B opens as the main recording; the comparison stays, and rows now select B's fusions.
  QTest::mouseClick(panel->open_b_button(), Qt::LeftButton);
  ASSERT_TRUE(WaitFor([&] { return window->context()->recording() == result->b.get(); }));
  EXPECT_TRUE(window->context()->title().startsWith("B: "));
  EXPECT_EQ(panel->result(), result);
  const QModelIndex cell = panel->fusion_model()->index(index, WhatIfFusionModel::kFusionB);
  panel->fusion_table()->scrollTo(cell);
  QTest::mouseClick(panel->fusion_table()->viewport(), Qt::LeftButton, {},
                    panel->fusion_table()->visualRect(cell).center());
  EXPECT_EQ(window->context()->selection().instruction_id, row->match.fusion_b_id);
}

// A what-if canceled while B compiles ends with nothing new shown and A still open.
TEST(WhatIfTest, CancelStopsTheWorker) {
  auto window = OpenWindow("mlp");
  const recording::Recording* a = window->context()->recording();
  ASSERT_NE(a, nullptr);
  WhatIfPanel* panel = window->what_if_panel();
  QSignalSpy failed(panel, &WhatIfPanel::failed);
  int ready = 0;
  QObject::connect(window.get(), &MainWindow::whatIfReady, window.get(), [&] { ++ready; });
  passes::PipelineOptions options = a->options;
  options.disabled_passes.insert("cse");
  window->RunWhatIf(options);
  ASSERT_TRUE(panel->busy());
  QTest::mouseClick(panel->cancel_button(), Qt::LeftButton);
  ASSERT_TRUE(WaitFor([&] { return !failed.isEmpty(); }));
  EXPECT_EQ(failed.front().front().toString(), "Canceled");
  EXPECT_FALSE(panel->busy());
  EXPECT_EQ(ready, 0);
  EXPECT_EQ(panel->result(), nullptr);
  EXPECT_EQ(window->context()->recording(), a);
}

QString Fusescope() { return QStringLiteral(FUSESCOPE_BINARY_DIR "/app/fusescope"); }

// `fusescope gui MODEL --what-if-set KEY=VALUE --screenshot OUT.png` takes the picture once
// the comparison shows (exit 0); a what-if whose B cannot be compiled, or a bad value, ends
// with one line on stderr and no picture.
TEST(WhatIfTest, CommandLineScreenshot) {
  ASSERT_TRUE(QFileInfo(Fusescope()).isExecutable()) << "build the fusescope target first";
  QTemporaryDir dir;
  const QString out = dir.filePath("what_if.png");
  QProcess process;
  process.start(Fusescope(), {"gui", "sample:bert_encoder", "--what-if-set",
                              "fusion.max_operands=8", "--screenshot", out});
  ASSERT_TRUE(process.waitForFinished(300000));
  EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
  EXPECT_FALSE(QImage(out).isNull());

  for (const auto& [arguments, expected, code] :
       {std::tuple<QStringList, QString, int>{
            {"--what-if-disable-pass", "no-such-pass"}, "no pass named 'no-such-pass'", 1},
        {{"--what-if-set", "fusion.max_operands=eight"},
         "--what-if-set: fusion.max_operands needs an integer from 1 to 1000000, got 'eight'",
         2}}) {
    const QString never = dir.filePath("never.png");
    process.start(Fusescope(), QStringList{"gui", "sample:mlp"} + arguments +
                                   QStringList{"--screenshot", never});
    ASSERT_TRUE(process.waitForFinished(300000));
    EXPECT_EQ(process.exitCode(), code);
    const QString error = QString::fromUtf8(process.readAllStandardError()).trimmed();
    EXPECT_EQ(error.count('\n'), 0) << error.toStdString();
    EXPECT_TRUE(error.contains(expected)) << error.toStdString();
    EXPECT_FALSE(QFileInfo::exists(never));
  }
}

}  // namespace
}  // namespace fusescope::views
