// The Tuning dock on a recording with a real tuning run of sample:mlp (tuning::KernelTuner, each
// trial compiled, judged and timed; stored with AddTuningRun): the kernels with the figures
// `fusescope tune --list` prints, a kernel's trials on the chart and the heatmap, knob combos that
// rebuild the heatmap, a picked trial's kernel compiled into the Kernel view, and Tune… running
// `fusescope tune` in a worker process, cancelled or not, with the runs read again after.

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QProcess>
#include <QProgressBar>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTimer>
#include <filesystem>
#include <set>

#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "resources/samples.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/cpu/kernel_config.h"
#include "runtime/seeded_inputs.h"
#include "tests/gui/gui_test_support.h"
#include "tuning/kernel_tuner.h"
#include "tuning/tuning_store.h"
#include "views/kernel_timeline.h"
#include "views/qt/kernel/kernel_panel.h"
#include "views/qt/kernel/kernel_stage_model.h"
#include "views/qt/tuning/tune_controller.h"
#include "views/qt/tuning/tune_dialog.h"
#include "views/qt/tuning/tuning_heatmap.h"
#include "views/qt/tuning/tuning_kernel_model.h"
#include "views/qt/tuning/tuning_panel.h"
#include "views/qt/tuning/tuning_trial_chart.h"
#include "views/qt/workbench_context.h"
#include "views/tuning_plot.h"

namespace fusescope::views {
namespace {

namespace fs = std::filesystem;
using testing::App;
using testing::WaitFor;

// The kernel no snapshot has: its trial fails in the tuner itself ("no kernel named ..."), a
// failed trial as `tune --trial` would report it for a kernel name gone stale.
constexpr char kMissingKernel[] = "no_such_fusion";

struct TunedRecording {
  std::string path;
  std::shared_ptr<const recording::Recording> recording;
  tuning::TuningRun run;  // as stored and read back
  // The kernel with the slowest default among those whose lowering was searched (tile and
  // vector; a lone dot has only its library).
  std::string loop_kernel;
};

fs::path TestDirectory() {
  return fs::path(FUSESCOPE_BINARY_DIR) / ("tuning_panel_test." + std::to_string(getpid()));
}

// sample:mlp compiled and saved, its final snapshot tuned over tile x vector (two timed runs a
// trial), plus one trial of a kernel that does not exist. Made once per process (ctest runs the
// cases as parallel processes, each with its own folder).
const TunedRecording& Tuned() {
  static const TunedRecording tuned = [] {
    TunedRecording made;
    passes::PipelineOptions options;
    options.target = "cpu";
    auto recording =
        recording::CompileAndRecord(resources::FindSample("mlp").text, options, "sample:mlp");
    EXPECT_TRUE(recording.ok()) << recording.message();
    if (!recording.ok()) return made;
    fs::create_directories(TestDirectory());
    made.path = (TestDirectory() / "tuned.fsdb").string();
    fs::remove(made.path);
    EXPECT_TRUE(recording::SaveRecording(*recording, made.path).ok());
    const int64_t snapshot = static_cast<int64_t>(recording->snapshots.size()) - 1;
    auto module = recording->snapshots.back().ToModule();
    EXPECT_TRUE(module.ok()) << module.message();
    auto inputs = runtime::SeededInputs(*(*module)->entry(), 3);
    EXPECT_TRUE(inputs.ok()) << inputs.message();
    tuning::TunerOptions tuner_options;
    tuner_options.reps = 2;
    tuner_options.warmup = 0;
    auto tuner = tuning::KernelTuner::Create(**module, *inputs, snapshot, tuner_options);
    EXPECT_TRUE(tuner.ok()) << tuner.message();
    if (!tuner.ok()) return made;
    tuning::TuneRequest request;
    request.space = *tuning::SearchSpace::Parse("tile=0,16 vector=4,8");
    request.coverage = 1.0;
    auto run = (*tuner)->Tune(request);
    EXPECT_TRUE(run.ok()) << run.message();
    if (!run.ok()) return made;
    run->trials.push_back(
        (*tuner)->RunTrial(kMissingKernel, *runtime::KernelConfig::Parse("tile=16 vector=4")));
    run->machine = "test";
    run->created_at = "2025-01-01T00:00:00Z";
    auto id = tuning::AddTuningRun(made.path, *run);
    EXPECT_TRUE(id.ok()) << id.message();
    auto runs = tuning::LoadTuningRuns(made.path);
    EXPECT_TRUE(runs.ok() && runs->size() == 1u);
    if (!runs.ok() || runs->empty()) return made;
    made.run = runs->front();
    for (const std::string& kernel : TunedKernels(made.run)) {
      for (const tuning::Trial& trial : made.run.trials) {
        if (made.loop_kernel.empty() && trial.kernel == kernel &&
            trial.config.find("tile=16") != std::string::npos)
          made.loop_kernel = kernel;
      }
    }
    made.recording = std::make_shared<const recording::Recording>(std::move(*recording));
    return made;
  }();
  return tuned;
}

std::unique_ptr<MainWindow> OpenFile(const std::string& path) {
  App();
  auto window = std::make_unique<MainWindow>(false);
  window->set_interactive(false);
  window->show();
  window->OpenPath(QString::fromStdString(path));
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  return window;
}

// With FUSESCOPE_SCREENSHOT_DIR set, saves the window there as NAME, to look at.
void SaveScreenshot(QWidget& window, const char* name) {
  const QString folder = qEnvironmentVariable("FUSESCOPE_SCREENSHOT_DIR");
  if (!folder.isEmpty()) window.grab().save(QDir(folder).filePath(QString::fromLatin1(name)));
}

// A copy of the tuned recording, for a test that adds runs to it.
std::string CopyOfTuned(const std::string& name) {
  const std::string path = (TestDirectory() / name).string();
  fs::remove(path);
  fs::copy_file(Tuned().path, path);
  return path;
}

#define REQUIRE_TUNED()                                                             \
  if (!runtime::KernelCompilerAvailable())                                          \
    GTEST_SKIP() << "this build has no MLIR kernel compiler: nothing can be tuned"; \
  ASSERT_FALSE(Tuned().loop_kernel.empty()) << "the tuning run of sample:mlp was not made"

QString Text(const std::string& text) { return QString::fromStdString(text); }

int64_t IdOf(const std::string& kernel) {
  const recording::InstructionRecord* record =
      Tuned().recording->snapshots[static_cast<size_t>(Tuned().run.snapshot_index)].FindInstruction(
          kernel);
  return record ? record->id : -1;
}

// The row of `kernel` in the panel's model; -1 when absent.
int RowOf(TuningPanel& panel, const std::string& kernel) { return panel.model()->RowOf(kernel); }

QVariant Cell(TuningPanel& panel, int row, int column, int role = Qt::DisplayRole) {
  return panel.model()->index(row, column).data(role);
}

// Opening a recording with a tuning run brings the Tuning dock up with the run's kernels, each
// with the figures of tuning::BestPerKernel, the hottest first.
TEST(TuningPanelTest, ListsEachKernelWithTheFiguresOfBestPerKernel) {
  REQUIRE_TUNED();
  auto window = OpenFile(Tuned().path);
  TuningPanel* panel = window->tuning_panel();
  testing::ModelChecker checker(panel->model());
  ASSERT_EQ(panel->runs().size(), 1u);
  EXPECT_TRUE(WaitFor([&] { return panel->isVisible(); })) << "the Tuning dock came up";
  const auto best = tuning::BestPerKernel(Tuned().run.trials);
  ASSERT_EQ(panel->model()->rowCount(), static_cast<int>(best.size()));
  for (const auto& [kernel, figures] : best) {
    const int row = RowOf(*panel, kernel);
    ASSERT_GE(row, 0) << kernel;
    EXPECT_EQ(Cell(*panel, row, TuningKernelModel::kTrials).toString(),
              QString::number(figures.trials));
    EXPECT_EQ(Cell(*panel, row, TuningKernelModel::kFailed).toString(),
              QString::number(figures.failed));
    EXPECT_DOUBLE_EQ(
        Cell(*panel, row, TuningKernelModel::kSpeedup, TuningKernelModel::kSortRole).toDouble(),
        figures.Speedup());
    EXPECT_EQ(Cell(*panel, row, TuningKernelModel::kSpeedup).toString(),
              QStringLiteral("%1×").arg(figures.Speedup(), 0, 'f', 2));
    if (!figures.best) {
      EXPECT_EQ(kernel, kMissingKernel);
      EXPECT_EQ(Cell(*panel, row, TuningKernelModel::kConfig).toString(), "(none ok)");
      EXPECT_EQ(Cell(*panel, row, TuningKernelModel::kBest).toString(), "-");
      continue;
    }
    EXPECT_DOUBLE_EQ(
        Cell(*panel, row, TuningKernelModel::kBest, TuningKernelModel::kSortRole).toDouble(),
        figures.best->median_us);
    EXPECT_EQ(Cell(*panel, row, TuningKernelModel::kBest).toString(),
              QString::number(figures.best->median_us, 'f', 1));
    const double default_us =
        figures.best->baseline_us > 0 ? figures.best->baseline_us : figures.baseline->median_us;
    EXPECT_DOUBLE_EQ(
        Cell(*panel, row, TuningKernelModel::kDefault, TuningKernelModel::kSortRole).toDouble(),
        default_us);
    EXPECT_EQ(Cell(*panel, row, TuningKernelModel::kConfig).toString().toStdString(),
              figures.best->is_default ? "default" : figures.best->config);
  }
  // The kernel with the slowest default is first and shown, without moving the graphs.
  double slowest = 0;
  for (int row = 0; row < panel->model()->rowCount(); ++row) {
    slowest = std::max(
        slowest,
        Cell(*panel, row, TuningKernelModel::kDefault, TuningKernelModel::kSortRole).toDouble());
  }
  EXPECT_EQ(panel->proxy()
                ->index(0, TuningKernelModel::kDefault)
                .data(TuningKernelModel::kSortRole)
                .toDouble(),
            slowest);
  EXPECT_EQ(panel->current_kernel(),
            panel->proxy()->index(0, 0).data(TuningKernelModel::kKernelRole).toString());
  EXPECT_EQ(window->context()->selection().instruction_id, -1);
  EXPECT_TRUE(panel->tune_action()->isEnabled());
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// A kernel picked in the table selects its node everywhere, and its trials fill the chart: one
// point per trial in search order, the best so far ending at the best, the default's line at 1;
// a node selected on the graph selects its row.
TEST(TuningPanelTest, SelectingAKernelFillsTheChartAndSelectsItsNode) {
  REQUIRE_TUNED();
  auto window = OpenFile(Tuned().path);
  TuningPanel* panel = window->tuning_panel();
  // A kernel other than the one shown first.
  const QString first = panel->current_kernel();
  std::string other;
  for (const std::string& kernel : TunedKernels(Tuned().run))
    if (Text(kernel) != first && kernel != kMissingKernel) other = kernel;
  ASSERT_FALSE(other.empty()) << "sample:mlp has several kernels to tune";
  const int row =
      panel->proxy()->mapFromSource(panel->model()->index(RowOf(*panel, other), 0)).row();
  panel->kernel_table()->setCurrentIndex(panel->proxy()->index(row, TuningKernelModel::kKernel));
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  EXPECT_EQ(panel->current_kernel().toStdString(), other);
  EXPECT_EQ(window->context()->selection().instruction_id, IdOf(other));
  EXPECT_EQ(window->context()->pass_view()->pass_index() + 1, Tuned().run.snapshot_index);

  int64_t trials = 0, failed = 0;
  for (const tuning::Trial& trial : Tuned().run.trials) {
    if (trial.kernel != other) continue;
    ++trials;
    failed += !trial.ok;
  }
  TuningTrialChart* chart = panel->chart();
  EXPECT_EQ(chart->point_count(), trials);
  EXPECT_EQ(chart->failed_series()->count(), failed);
  const TuningKernelPlot expected = BuildTuningKernelPlot(Tuned().run, other);
  std::set<int> orders;
  for (QScatterSeries* series :
       {chart->trials_series(), chart->beyond_series(), chart->failed_series()})
    for (const QPointF& point : series->points()) orders.insert(static_cast<int>(point.x()));
  EXPECT_EQ(orders.size(), static_cast<size_t>(trials)) << "each trial once, by its order";
  for (const QPointF& point : chart->trials_series()->points()) {
    EXPECT_DOUBLE_EQ(point.y(), expected.points[static_cast<size_t>(point.x()) - 1].relative);
  }
  // The marked best is the tuner's (a win beyond noise, else the default); the best-so-far
  // line ends at the fastest trial.
  ASSERT_EQ(chart->best_series()->count(), 1);
  EXPECT_DOUBLE_EQ(chart->best_series()->at(0).y(), expected.best_relative);
  ASSERT_GT(chart->best_so_far_line()->count(), 0);
  EXPECT_DOUBLE_EQ(chart->best_so_far_line()->points().last().y(), expected.best);
  ASSERT_EQ(chart->default_line()->count(), 2);
  EXPECT_DOUBLE_EQ(chart->default_line()->at(0).y(), 1.0);
  EXPECT_TRUE(panel->kernel_summary()->text().contains(QString::fromStdString(other)));

  // The graph selects the first kernel's node: the table follows.
  window->context()->SetSelection(Selection{IdOf(first.toStdString()), GraphSide::kAfter, -1});
  EXPECT_EQ(panel->current_kernel(), first);
}

// The failed trial sits at the top of the chart, apart from the timed ones.
TEST(TuningPanelTest, FailedTrialsAreMarkedAlongTheTop) {
  REQUIRE_TUNED();
  auto window = OpenFile(Tuned().path);
  TuningPanel* panel = window->tuning_panel();
  ASSERT_TRUE(panel->SelectKernel(kMissingKernel));
  TuningTrialChart* chart = panel->chart();
  ASSERT_EQ(chart->point_count(), 1);
  ASSERT_EQ(chart->failed_series()->count(), 1);
  EXPECT_EQ(chart->trials_series()->count(), 0);
  EXPECT_GE(chart->failed_series()->at(0).y(), 0.9 * chart->axis_top());
  EXPECT_EQ(chart->best_series()->count(), 0);
  EXPECT_TRUE(panel->kernel_summary()->text().contains("no trial ran correctly"));
  // Its kernel cannot be compiled: said in one line, the Kernel view left as it was.
  QSignalSpy failed(panel, &TuningPanel::trialKernelFailed);
  ASSERT_TRUE(panel->PickTrial(1));
  ASSERT_TRUE(WaitFor([&] { return !failed.isEmpty(); }));
  EXPECT_TRUE(failed.first().at(0).toString().contains("no kernel named 'no_such_fusion'"))
      << failed.first().at(0).toString().toStdString();
  EXPECT_TRUE(panel->trial_label()->text().contains("could not compile"));
  EXPECT_TRUE(window->kernel_panel()->compiled_origin().isEmpty());
}

// The knob combos rebuild the heatmap over the knobs chosen; choosing the knob the other axis
// shows swaps the two.
TEST(TuningPanelTest, KnobCombosRebuildTheHeatmap) {
  REQUIRE_TUNED();
  auto window = OpenFile(Tuned().path);
  TuningPanel* panel = window->tuning_panel();
  const std::string kernel = Tuned().loop_kernel;
  ASSERT_TRUE(panel->SelectKernel(QString::fromStdString(kernel)));
  ASSERT_NE(panel->plot(), nullptr);
  // Unasked, the knobs BuildTuningKernelPlot chooses: two the trials vary.
  const TuningKernelPlot chosen = BuildTuningKernelPlot(Tuned().run, kernel);
  EXPECT_EQ(panel->plot()->x_knob, chosen.x_knob);
  EXPECT_EQ(panel->plot()->y_knob, chosen.y_knob);
  EXPECT_EQ(panel->x_knob_box()->currentText().toStdString(), chosen.x_knob);
  EXPECT_EQ(panel->y_knob_box()->currentText().toStdString(), chosen.y_knob);
  EXPECT_EQ(panel->heatmap()->plot()->cells.size(), chosen.cells.size());
  ASSERT_NE(chosen.x_knob, "unroll");

  QSignalSpy updated(panel, &TuningPanel::updated);
  QComboBox* y = panel->y_knob_box();
  y->setFocus();
  // The user moves the y combo to "unroll" with the keyboard.
  while (y->currentText() != "unroll") {
    const int before = y->currentIndex();
    QTest::keyClick(y, y->currentIndex() < y->findText("unroll") ? Qt::Key_Down : Qt::Key_Up);
    ASSERT_NE(y->currentIndex(), before);
  }
  ASSERT_FALSE(updated.isEmpty());
  const TuningKernelPlot expected =
      BuildTuningKernelPlot(Tuned().run, kernel, chosen.x_knob, "unroll");
  const TuningKernelPlot* shown = panel->heatmap()->plot();
  ASSERT_NE(shown, nullptr);
  EXPECT_EQ(shown->y_knob, "unroll");
  EXPECT_EQ(shown->x_values, expected.x_values);
  EXPECT_EQ(shown->y_values, expected.y_values);
  ASSERT_EQ(shown->cells.size(), expected.cells.size());
  ASSERT_EQ(shown->cells.size(), shown->x_values.size() * shown->y_values.size());
  for (size_t i = 0; i < expected.cells.size(); ++i) {
    EXPECT_EQ(shown->cells[i].trials, expected.cells[i].trials);
    EXPECT_DOUBLE_EQ(shown->cells[i].best, expected.cells[i].best);
  }
  // Every trial ran with unroll 1: one row, holding every trial.
  ASSERT_EQ(shown->y_values, std::vector<std::string>{"1"});
  int64_t in_cells = 0;
  for (const TuningCell& cell : shown->cells) in_cells += cell.trials;
  EXPECT_EQ(in_cells, static_cast<int64_t>(shown->points.size()));

  // x to unroll, the knob y shows: y takes the knob x showed.
  QComboBox* x = panel->x_knob_box();
  x->setFocus();
  QString x_before;
  while (x->currentText() != "unroll") {
    x_before = x->currentText();
    QTest::keyClick(x, x->currentIndex() < x->findText("unroll") ? Qt::Key_Down : Qt::Key_Up);
  }
  EXPECT_EQ(panel->heatmap()->plot()->x_knob, "unroll");
  EXPECT_EQ(Text(panel->heatmap()->plot()->y_knob), x_before);
  EXPECT_EQ(panel->y_knob_box()->currentText(), x_before);
}

// A cell clicked on the heatmap, then a point clicked on the chart: each trial's kernel is
// compiled with the trial's configuration and shown in the Kernel view with its stages.
TEST(TuningPanelTest, ClickingATrialShowsItsLoweringInTheKernelView) {
  REQUIRE_TUNED();
  auto window = OpenFile(Tuned().path);
  window->resize(1600, 1000);
  TuningPanel* panel = window->tuning_panel();
  const std::string kernel = Tuned().loop_kernel;
  ASSERT_TRUE(window->FocusTuningKernel(QString::fromStdString(kernel)));
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  KernelPanel* kernels = window->kernel_panel();

  // The cell of tile=16, vector=4.
  panel->SetKnobs("tile", "vector");
  TuningHeatmap* heatmap = panel->heatmap();
  const TuningKernelPlot* plot = heatmap->plot();
  const auto x_index =
      std::find(plot->x_values.begin(), plot->x_values.end(), "16") - plot->x_values.begin();
  const auto y_index =
      std::find(plot->y_values.begin(), plot->y_values.end(), "4") - plot->y_values.begin();
  const QRect cell = heatmap->CellRect(static_cast<int>(x_index), static_cast<int>(y_index));
  ASSERT_FALSE(cell.isEmpty());
  const int order = heatmap->TrialOf(static_cast<int>(x_index), static_cast<int>(y_index));
  ASSERT_GT(order, 0);
  const tuning::Trial& trial = *plot->points[static_cast<size_t>(order) - 1].trial;
  ASSERT_TRUE(trial.ok) << trial.error;
  QSignalSpy ready(panel, &TuningPanel::trialKernelReady);
  QTest::mouseClick(heatmap, Qt::LeftButton, {}, cell.center());
  EXPECT_EQ(panel->picked_trial(), order);
  ASSERT_TRUE(WaitFor([&] { return !ready.isEmpty() && window->IsSettled(); }));
  ASSERT_NE(kernels->timeline(), nullptr);
  const recording::KernelRecord& record = kernels->timeline()->kernel();
  EXPECT_EQ(record.kernel, kernel);
  EXPECT_EQ(record.instruction_id, IdOf(kernel));
  EXPECT_EQ(record.options, runtime::KernelConfig::Parse(trial.config)->lowering->ToString());
  EXPECT_TRUE(record.failed_stage.empty()) << record.error;
  ASSERT_GT(kernels->model()->rowCount(), 2);
  EXPECT_EQ(kernels->timeline()->stages().front().name, "input");
  EXPECT_GE(kernels->timeline()->FindStage("affine-loop-tile"), 0) << "tile=16 tiles the loops";
  EXPECT_TRUE(kernels->isVisible()) << "the Kernel dock came up";
  EXPECT_TRUE(kernels->header()->text().contains(QStringLiteral("trial %1 of").arg(order)));
  EXPECT_FALSE(kernels->compiled_origin().isEmpty());
  EXPECT_EQ(window->context()->selection().instruction_id, IdOf(kernel));
  SaveScreenshot(*window, "tuning_trial_kernel.png");

  // Back on the Tuning dock, the default trial clicked on the chart: the default build's kernel,
  // untiled.
  window->FocusTuningKernel(QString::fromStdString(kernel));
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled() && panel->isVisible(); }));
  TuningTrialChart* chart = panel->chart();
  int default_order = 0;
  for (const TuningPoint& point : panel->plot()->points)
    if (point.trial->is_default) default_order = static_cast<int>(point.order);
  ASSERT_GT(default_order, 0);
  QPointF value;
  for (const QPointF& point : chart->trials_series()->points())
    if (static_cast<int>(point.x()) == default_order) value = point;
  ASSERT_EQ(static_cast<int>(value.x()), default_order);
  const QPointF in_chart = chart->chart()->mapToPosition(value, chart->trials_series());
  const QPoint in_view = chart->view()->mapFromScene(chart->chart()->mapToScene(in_chart));
  ready.clear();
  QTest::mouseClick(chart->view()->viewport(), Qt::LeftButton, {}, in_view);
  EXPECT_EQ(panel->picked_trial(), default_order);
  ASSERT_TRUE(WaitFor([&] { return !ready.isEmpty() && window->IsSettled(); }));
  ASSERT_NE(kernels->timeline(), nullptr);
  EXPECT_EQ(kernels->timeline()->kernel().options, runtime::LoweringOptions{}.ToString());
  EXPECT_LT(kernels->timeline()->FindStage("affine-loop-tile"), 0) << "the default does not tile";
  EXPECT_TRUE(kernels->header()->text().contains(QStringLiteral("trial %1 of").arg(default_order)));

  // Another node selected: the Kernel view goes back to the recording's stored kernels.
  window->context()->SetSelection(Selection{-1, GraphSide::kAfter, -1});
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  EXPECT_TRUE(kernels->compiled_origin().isEmpty());
}

// Tune… through its dialog: `fusescope tune` runs in a worker with progress, and the run it
// stored is read and shown when it ends.
TEST(TuningPanelTest, TuneRunsTheCommandInAWorkerAndShowsTheNewRun) {
  REQUIRE_TUNED();
  const std::string path = CopyOfTuned("tune_more.fsdb");
  auto window = OpenFile(path);
  TuningPanel* panel = window->tuning_panel();
  QSignalSpy finished(panel, &TuningPanel::tuneFinished);
  QSignalSpy failed(panel, &TuningPanel::tuneFailed);
  QSignalSpy progressed(panel, &TuningPanel::tuneProgressed);
  QSignalSpy loaded(panel, &TuningPanel::runsLoaded);
  const QString kernel = QString::fromStdString(Tuned().loop_kernel);
  QTimer::singleShot(0, [kernel] {
    auto* dialog = qobject_cast<TuneDialog*>(QApplication::activeModalWidget());
    ASSERT_NE(dialog, nullptr);
    dialog->kernel_box()->setCurrentText(kernel);
    // A space that does not parse keeps the dialog open with the reason.
    dialog->space_edit()->setText("tile=0,16 widget=3");
    dialog->accept();
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_TRUE(dialog->error_label()->text().contains("widget"))
        << dialog->error_label()->text().toStdString();
    dialog->space_edit()->setText("tile=0,32 vector=8");
    dialog->reps_box()->setValue(1);
    dialog->accept();
  });
  ASSERT_TRUE(panel->tune_action()->isEnabled());
  panel->tune_action()->trigger();
  EXPECT_TRUE(panel->tuning());
  EXPECT_FALSE(panel->tune_action()->isEnabled());
  ASSERT_TRUE(WaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 600000));
  ASSERT_TRUE(failed.isEmpty()) << failed.first().at(0).toString().toStdString();
  EXPECT_TRUE(finished.first().at(0).toString().startsWith("Tuned tune_more.fsdb"))
      << finished.first().at(0).toString().toStdString();
  bool saw_trial = false;
  for (const QList<QVariant>& line : progressed)
    saw_trial |=
        line.at(0).toString().startsWith("trial ") && line.at(0).toString().contains(kernel);
  EXPECT_TRUE(saw_trial);
  ASSERT_TRUE(WaitFor([&] { return !loaded.isEmpty() && window->IsSettled(); }));
  ASSERT_EQ(panel->runs().size(), 2u);
  const tuning::TuningRun& added = panel->runs().back();
  EXPECT_EQ(panel->current_run(), &added) << "the new run is shown";
  EXPECT_EQ(added.space, "tile=0,32 vector=8");
  // The kernel's default, then candidates of the space asked for.
  int64_t defaults = 0;
  for (const tuning::Trial& trial : added.trials) {
    EXPECT_EQ(trial.kernel, kernel.toStdString());
    defaults += trial.is_default;
    if (trial.is_default) continue;
    const auto knobs = ConfigKnobs(trial);
    EXPECT_EQ(knobs.at("vector"), "8") << trial.config;
    EXPECT_TRUE(knobs.at("tile") == "0" || knobs.at("tile") == "32") << trial.config;
  }
  EXPECT_EQ(defaults, 1);
  EXPECT_GE(added.trials.size(), 2u);
  EXPECT_EQ(panel->model()->rowCount(), 1);
  EXPECT_TRUE(panel->tune_action()->isEnabled());
  EXPECT_FALSE(panel->tuning());
}

// Cancel stops the worker after the trial under way; the command stores the trials so far and
// exits 130, which the panel takes as a finished, partial run, and shows.
TEST(TuningPanelTest, CancelKeepsTheTrialsSoFar) {
  REQUIRE_TUNED();
  const std::string path = CopyOfTuned("tune_cancelled.fsdb");
  auto window = OpenFile(path);
  TuningPanel* panel = window->tuning_panel();
  QSignalSpy finished(panel, &TuningPanel::tuneFinished);
  QSignalSpy failed(panel, &TuningPanel::tuneFailed);
  QSignalSpy progressed(panel, &TuningPanel::tuneProgressed);
  TuneRequest request;
  request.recording = QString::fromStdString(path);
  request.title = QStringLiteral("tune_cancelled.fsdb");
  request.kernel = QString::fromStdString(Tuned().loop_kernel);
  request.space = QStringLiteral("tile=0,8,16,32,64 vector=0,4,8,16 unroll=1,2,4");
  request.reps = 2;
  ASSERT_TRUE(panel->StartTune(request));
  EXPECT_FALSE(panel->StartTune(request)) << "one search at a time";
  ASSERT_EQ(failed.size(), 1);
  EXPECT_TRUE(failed.first().at(0).toString().contains("already running"));
  failed.clear();
  // Cancel once the first trial is reported.
  ASSERT_TRUE(WaitFor(
      [&] {
        for (const QList<QVariant>& line : progressed)
          if (line.at(0).toString().startsWith("trial ")) return true;
        return !failed.isEmpty();
      },
      600000));
  ASSERT_TRUE(failed.isEmpty()) << failed.first().at(0).toString().toStdString();
  EXPECT_TRUE(panel->cancel_action()->isEnabled());
  EXPECT_TRUE(panel->progress_bar()->isVisible());
  EXPECT_TRUE(panel->progress_label()->text().startsWith("trial "))
      << panel->progress_label()->text().toStdString();
  SaveScreenshot(*window, "tuning_progress.png");
  panel->cancel_action()->trigger();
  ASSERT_TRUE(WaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 600000));
  ASSERT_EQ(finished.size(), 1) << "a cancelled search is no failure";
  EXPECT_TRUE(finished.first().at(0).toString().contains("the trials so far are stored"))
      << finished.first().at(0).toString().toStdString();
  ASSERT_TRUE(WaitFor([&] { return panel->runs().size() == 2u && window->IsSettled(); }));
  const tuning::TuningRun& partial = panel->runs().back();
  EXPECT_NE(partial.settings.find("cancelled"), std::string::npos) << partial.settings;
  // The default and at least the trial reported, short of the 60 candidates.
  EXPECT_GE(partial.trials.size(), 2u);
  EXPECT_LT(partial.trials.size(), 61u);
  EXPECT_EQ(panel->current_run(), &partial);
  EXPECT_FALSE(panel->tuning());
}

// A search the command refuses is one line in the dock, and nothing is added to the recording.
TEST(TuningPanelTest, ARefusedSearchIsOneClearLine) {
  REQUIRE_TUNED();
  const std::string path = CopyOfTuned("tune_refused.fsdb");
  auto window = OpenFile(path);
  TuningPanel* panel = window->tuning_panel();
  QSignalSpy finished(panel, &TuningPanel::tuneFinished);
  QSignalSpy failed(panel, &TuningPanel::tuneFailed);
  TuneRequest request;
  request.recording = QString::fromStdString(path);
  request.title = QStringLiteral("tune_refused.fsdb");
  request.kernel = kMissingKernel;
  request.reps = 1;
  ASSERT_TRUE(panel->StartTune(request));
  ASSERT_TRUE(WaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 600000));
  ASSERT_EQ(failed.size(), 1);
  const QString message = failed.first().at(0).toString();
  EXPECT_TRUE(message.contains("failed with exit code 1")) << message.toStdString();
  EXPECT_TRUE(message.contains("no kernel named 'no_such_fusion'")) << message.toStdString();
  EXPECT_EQ(panel->progress_label()->text(), message);
  EXPECT_FALSE(panel->progress_bar()->isVisible());
  EXPECT_TRUE(panel->tune_action()->isEnabled());
  auto runs = tuning::LoadTuningRuns(path);
  ASSERT_TRUE(runs.ok()) << runs.message();
  EXPECT_EQ(runs->size(), 1u);
}

// A window closed while a search runs stops it as Cancel does: the trials so far are stored.
TEST(TuningPanelTest, ClosingTheWindowKeepsTheTrialsSoFar) {
  REQUIRE_TUNED();
  const std::string path = CopyOfTuned("tune_closed.fsdb");
  auto window = OpenFile(path);
  TuningPanel* panel = window->tuning_panel();
  QSignalSpy progressed(panel, &TuningPanel::tuneProgressed);
  TuneRequest request;
  request.recording = QString::fromStdString(path);
  request.title = QStringLiteral("tune_closed.fsdb");
  request.kernel = QString::fromStdString(Tuned().loop_kernel);
  request.space = QStringLiteral("tile=0,8,16,32,64 vector=0,4,8,16 unroll=1,2,4");
  request.reps = 2;
  ASSERT_TRUE(panel->StartTune(request));
  ASSERT_TRUE(WaitFor(
      [&] {
        for (const QList<QVariant>& line : progressed)
          if (line.at(0).toString().startsWith("trial ")) return true;
        return !panel->tuning();
      },
      600000));
  ASSERT_TRUE(panel->tuning());
  const qint64 pid = panel->controller()->worker_pid();
  ASSERT_NE(pid, 0);
  window.reset();
  EXPECT_EQ(::kill(static_cast<pid_t>(pid), 0), -1) << "the worker is gone";
  auto runs = tuning::LoadTuningRuns(path);
  ASSERT_TRUE(runs.ok()) << runs.message();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_NE(runs->back().settings.find("cancelled"), std::string::npos) << runs->back().settings;
  EXPECT_GE(runs->back().trials.size(), 2u);
}

// A recording compiled in the window lives in no file: no runs, and Tune… says why it is off.
TEST(TuningPanelTest, AnUnsavedRecordingCannotBeTuned) {
  auto window = testing::OpenWindow("mlp");
  TuningPanel* panel = window->tuning_panel();
  EXPECT_TRUE(panel->runs().empty());
  EXPECT_FALSE(panel->tune_action()->isEnabled());
  EXPECT_TRUE(panel->tune_action()->toolTip().contains("save this one first"));
  EXPECT_TRUE(panel->placeholder()->text().contains("Save it"));
}

// `fusescope gui RUN.fsdb --tuning-kernel NAME --screenshot OUT.png` renders the Tuning dock on
// that kernel; an unknown kernel is one error line.
TEST(TuningPanelTest, HeadlessScreenshotOnAKernel) {
  REQUIRE_TUNED();
  const QString program = QStringLiteral(FUSESCOPE_BINARY_DIR "/app/fusescope");
  const QString shot = QString::fromStdString((TestDirectory() / "tuning.png").string());
  QFile::remove(shot);
  QProcess gui;
  gui.start(program, {"gui", QString::fromStdString(Tuned().path), "--tuning-kernel",
                      QString::fromStdString(Tuned().loop_kernel), "--screenshot", shot});
  ASSERT_TRUE(gui.waitForFinished(600000));
  EXPECT_EQ(gui.exitCode(), 0) << gui.readAllStandardError().toStdString();
  const QImage image(shot);
  EXPECT_FALSE(image.isNull());

  QProcess wrong;
  wrong.start(program, {"gui", QString::fromStdString(Tuned().path), "--tuning-kernel",
                        "no_kernel_here", "--screenshot", shot + ".2.png"});
  ASSERT_TRUE(wrong.waitForFinished(600000));
  EXPECT_NE(wrong.exitCode(), 0);
  const QString error = QString::fromUtf8(wrong.readAllStandardError()).trimmed();
  EXPECT_TRUE(error.contains("no tuning run has a kernel 'no_kernel_here'")) << error.toStdString();
  EXPECT_FALSE(error.contains('\n')) << "one line";
}

}  // namespace
}  // namespace fusescope::views
