// The Compare view on a recording holding a comparison made of known figures: its table,
// charts (latency marks, throughput against batch, build, memory), each compiler's status,
// an op of the selected node followed into each compiler's kernels, and a row opening that
// compiler's own recording.

#include <gtest/gtest.h>
#include <unistd.h>

#include <QAbstractItemModelTester>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTableView>
#include <QTextBrowser>
#include <filesystem>

#include "compare/comparison_store.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "tests/gui/gui_test_support.h"
#include "views/qt/compare/compare_panel.h"
#include "views/qt/compare/comparison_row_model.h"
#include "views/qt/main_window.h"
#include "views/qt/pass_view.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

namespace fs = std::filesystem;
using testing::App;
using testing::WaitFor;

constexpr const char* kModel = R"(
HloModule two_ops
ENTRY main {
  a = f32[8,16] parameter(0), metadata={op_name="/fc/MatMul"}
  b = f32[16,4] parameter(1)
  d = f32[8,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}, metadata={op_name="/fc/MatMul"}
  ROOT e = f32[8,4] exponential(d), metadata={op_name="/act/Exp"}
})";

compare::ComparisonRow Row(const std::string& compiler, const std::string& variant,
                           const std::string& shape, int64_t batch, double base_us) {
  compare::ComparisonRow row;
  row.compiler = compiler;
  row.variant = variant;
  row.shape = shape;
  row.batch = batch;
  row.build_s = 0.5;
  row.build_peak_rss_bytes = int64_t{200} << 20;
  row.run_peak_rss_bytes = int64_t{120} << 20;
  for (int i = 0; i < 100; ++i) row.times_us.push_back(base_us + (i == 99 ? 10 * base_us : i % 3));
  row.verdict = "ok";
  row.max_abs_error = 1e-7;
  compare::SummarizeRow(row);
  return row;
}

compare::Comparison KnownComparison() {
  compare::Comparison comparison;
  comparison.model = "model.onnx";
  comparison.model_format = "onnx";
  comparison.reps = 100;
  comparison.warmup = 10;
  comparison.shapes = {{"b1", {{"batch", 1}}, 1}, {"b8", {{"batch", 8}}, 8}};
  compare::PeerOutcome ort;
  ort.compiler = "ort";
  ort.status = "ok";
  ort.dynamic_shapes = true;
  ort.kernels.push_back({"ort", "b1", "MatMul_kernel_time", 12.5, {"/fc/MatMul"}, "ORT profiling"});
  compare::PeerOutcome tvm;
  tvm.compiler = "tvm";
  tvm.status = "ok";
  tvm.unsupported_ops.push_back({"NonZero", "OpNotImplemented"});
  tvm.kernels.push_back(
      {"tvm-metaschedule", "b1", "fused_matmul_exp", 9.0, {"/fc/MatMul", "/act/Exp"}, "TVM"});
  compare::PeerOutcome iree;
  iree.compiler = "iree";
  iree.status = "not installed";
  iree.message = "not installed: bash scripts/setup_peers.sh iree";
  comparison.peers = {ort, tvm, iree};
  comparison.rows = {Row("ort", "ort", "b1", 1, 100), Row("ort", "ort", "b8", 8, 400),
                     Row("tvm", "tvm-metaschedule", "b1", 1, 80),
                     Row("tvm", "tvm-metaschedule", "b8", 8, 200)};
  compare::ComparisonRow failed = Row("tvm", "tvm-untuned", "b1", 1, 5000);
  failed.error = "OpNotImplemented: NonZero";
  failed.times_us.clear();
  compare::SummarizeRow(failed);
  comparison.rows.push_back(failed);
  return comparison;
}

class ComparePanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    App();
    dir_ = fs::path(FUSESCOPE_BINARY_DIR) / ("compare_panel_test." + std::to_string(getpid()));
    fs::create_directories(dir_);
    file_ = (dir_ / "cmp.fsdb").string();
    auto recording = recording::CompileAndRecord(kModel, passes::PipelineOptions());
    ASSERT_TRUE(recording.ok()) << recording.message();
    ASSERT_TRUE(recording::SaveRecording(*recording, file_).ok());
    tvm_file_ = (dir_ / "tvm.fsdb").string();
    ASSERT_TRUE(compare::AddComparison(file_, KnownComparison(), {{"tvm", tvm_file_}}).ok());
    auto loaded = recording::LoadRecording(file_);
    ASSERT_TRUE(loaded.ok());
    recording_ = std::make_shared<const recording::Recording>(std::move(loaded).value());
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::string file_;
  std::string tvm_file_;
  std::shared_ptr<const recording::Recording> recording_;
};

TEST_F(ComparePanelTest, ShowsTheStoredComparison) {
  WorkbenchContext context;
  ComparePanel panel(&context);
  QSignalSpy available(&panel, &ComparePanel::availabilityChanged);
  context.SetRecording(recording_, "cmp", -1, QString::fromStdString(file_));
  ASSERT_TRUE(WaitFor([&] { return context.pass_view() != nullptr; }));
  EXPECT_TRUE(panel.available());
  EXPECT_EQ(available.count(), 1);
  QAbstractItemModelTester tester(panel.model(),
                                  QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_EQ(panel.model()->rowCount(), 5);
  const QModelIndex p99 = panel.model()->index(0, ComparisonRowModel::kP99);
  // 99 calls at 100..102 us and one at 1000 us: the p99 sees the slow call, the median not.
  EXPECT_GT(panel.model()->data(p99, Qt::UserRole).toDouble(), 102);
  EXPECT_EQ(panel.model()
                ->data(panel.model()->index(0, ComparisonRowModel::kOutliers), Qt::DisplayRole)
                .toLongLong(),
            1);
  EXPECT_TRUE(panel.model()
                  ->data(panel.model()->index(4, ComparisonRowModel::kP50), Qt::DisplayRole)
                  .toString()
                  .startsWith("error: OpNotImplemented"));
  const QString compilers = panel.compilers()->toPlainText();
  EXPECT_TRUE(compilers.contains("iree: not installed")) << compilers.toStdString();
  EXPECT_TRUE(compilers.contains("cannot compile NonZero")) << compilers.toStdString();
  EXPECT_TRUE(compilers.contains("one build served every shape")) << compilers.toStdString();
}

TEST_F(ComparePanelTest, ChartsFollowTheChosenKind) {
  WorkbenchContext context;
  ComparePanel panel(&context);
  context.SetRecording(recording_, "cmp", -1, QString::fromStdString(file_));
  ASSERT_TRUE(WaitFor([&] { return context.pass_view() != nullptr; }));
  // Latency at b1: three bar sets (p50, p95, p99) over the three variants.
  auto series = panel.chart()->series();
  ASSERT_EQ(series.size(), 1);
  auto* bars = qobject_cast<QBarSeries*>(series[0]);
  ASSERT_NE(bars, nullptr);
  ASSERT_EQ(bars->barSets().size(), 3);
  EXPECT_EQ(bars->barSets()[0]->label(), "p50");
  EXPECT_EQ(bars->barSets()[0]->count(), 3);
  EXPECT_DOUBLE_EQ(bars->barSets()[0]->at(0), panel.model()->row(0).latency_us.median);
  EXPECT_DOUBLE_EQ(bars->barSets()[0]->at(2), 0);  // the untuned TVM did not run
  panel.chart_box()->setCurrentIndex(1);           // throughput against batch
  series = panel.chart()->series();
  ASSERT_EQ(series.size(), 2);  // ort and tvm-metaschedule ran at two batch sizes
  auto* line = qobject_cast<QLineSeries*>(series[0]);
  ASSERT_NE(line, nullptr);
  ASSERT_EQ(line->count(), 2);
  EXPECT_DOUBLE_EQ(line->at(0).x(), 1);
  EXPECT_DOUBLE_EQ(line->at(1).x(), 8);
  panel.chart_box()->setCurrentIndex(3);  // memory
  bars = qobject_cast<QBarSeries*>(panel.chart()->series()[0]);
  ASSERT_NE(bars, nullptr);
  EXPECT_DOUBLE_EQ(bars->barSets()[0]->at(0), 200);
  EXPECT_DOUBLE_EQ(bars->barSets()[1]->at(0), 120);
}

TEST_F(ComparePanelTest, TheSelectedNodesOpIsFollowedIntoEachCompiler) {
  WorkbenchContext context;
  ComparePanel panel(&context);
  context.SetRecording(recording_, "cmp", 0, QString::fromStdString(file_));
  ASSERT_TRUE(WaitFor([&] { return context.pass_view() != nullptr; }));
  int64_t exp_id = -1;
  for (const auto& computation : recording_->snapshots.front().computations())
    for (const auto& instruction : computation->instructions)
      if (instruction->name == "e") exp_id = instruction->id;
  ASSERT_GE(exp_id, 0);
  context.SetSelection({exp_id, GraphSide::kBefore, -1});
  const QString text = panel.followed()->text();
  EXPECT_TRUE(text.contains("/act/Exp")) << text.toStdString();
  EXPECT_TRUE(text.contains("fused_matmul_exp")) << text.toStdString();
  EXPECT_TRUE(text.contains("9.0")) << text.toStdString();
  EXPECT_FALSE(text.contains("MatMul_kernel_time")) << text.toStdString();
}

// `gui CMP.fsdb --select NAME`: the node is selected as a click would, and the Compare dock,
// brought to the front, follows its op into each compiler's kernels; an unknown name is false.
TEST_F(ComparePanelTest, SelectingANodeByNameShowsItsOpInTheCompareDock) {
  MainWindow window(false);
  window.show();
  window.OpenPath(QString::fromStdString(file_));
  ASSERT_TRUE(WaitFor([&] { return window.context()->pass_view() && window.IsSettled(); }));
  // The user closed the Compare dock.
  auto* compare_dock = window.findChild<QDockWidget*>(QStringLiteral("compare"));
  ASSERT_NE(compare_dock, nullptr);
  compare_dock->hide();
  ASSERT_FALSE(window.compare_panel()->isVisible());
  EXPECT_FALSE(window.SelectInstruction(QStringLiteral("no_such_node")));
  ASSERT_TRUE(window.SelectInstruction(QStringLiteral("e")));
  const ir::Instruction* selected = window.context()->pass_view()->Find(
      window.context()->selection().side, window.context()->selection().instruction_id);
  ASSERT_NE(selected, nullptr);
  EXPECT_EQ(selected->name(), "e");
  const QString text = window.compare_panel()->followed()->text();
  EXPECT_TRUE(text.contains("fused_matmul_exp")) << text.toStdString();
  EXPECT_TRUE(window.compare_panel()->isVisible());
}

TEST_F(ComparePanelTest, ARowOpensItsCompilersRecording) {
  WorkbenchContext context;
  ComparePanel panel(&context);
  context.SetRecording(recording_, "cmp", -1, QString::fromStdString(file_));
  ASSERT_TRUE(WaitFor([&] { return context.pass_view() != nullptr; }));
  QSignalSpy open(&panel, &ComparePanel::openRecordingRequested);
  panel.table()->sortByColumn(ComparisonRowModel::kVariant, Qt::AscendingOrder);
  for (int row = 0; row < panel.table()->model()->rowCount(); ++row)
    emit panel.table()->activated(panel.table()->model()->index(row, 0));
  // Only TVM's passes were recorded: its two ran rows and the failed one open it.
  ASSERT_EQ(open.count(), 3);
  EXPECT_EQ(open.at(0).at(0).toString().toStdString(), tvm_file_);
}

TEST_F(ComparePanelTest, ARecordingWithoutComparisonsShowsHowToMakeOne) {
  WorkbenchContext context;
  ComparePanel panel(&context);
  context.SetRecording(recording_, "unsaved");
  ASSERT_TRUE(WaitFor([&] { return context.pass_view() != nullptr; }));
  EXPECT_FALSE(panel.available());
  EXPECT_TRUE(panel.placeholder()->text().contains("fusescope compare"));
}

}  // namespace
}  // namespace fusescope::views
