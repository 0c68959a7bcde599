// The profile panel on a recording whose profile is known by construction: a big dot kernel
// beside small ones. The hot-node table, the selection both ways, the heat overlay on the
// graphs, the roofline, and the placeholders when there is no profile.

#include <gtest/gtest.h>
#include <unistd.h>

#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QProcess>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <filesystem>
#include <numeric>

#include "passes/cost_analysis.h"
#include "profiler/profile_store.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "tests/gui/gui_test_support.h"
#include "views/qt/graph/graph_canvas.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/graph/heat_legend.h"
#include "views/qt/graph/heat_overlay.h"
#include "views/qt/profile/hot_node_model.h"
#include "views/qt/profile/profile_panel.h"
#include "views/qt/profile/roofline_view.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

namespace fs = std::filesystem;
using testing::App;
using testing::WaitFor;

constexpr const char* kModel = R"(
HloModule hot_dot
ENTRY main {
  a = f32[256,256] parameter(0), metadata={op_name="model/matmul" source_file="model.py" source_line=10}
  b = f32[256,256] parameter(1)
  v = f32[256] parameter(2)
  d = f32[256,256] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}, metadata={op_name="model/matmul" source_file="model.py" source_line=10}
  e = f32[256] exponential(v), metadata={op_name="model/exp" source_file="model.py" source_line=11}
  n = f32[256] negate(e), metadata={op_name="model/neg" source_file="model.py" source_line=12}
  ROOT t = (f32[256,256], f32[256]) tuple(d, n)
})";

struct ProfiledRun {
  std::string path;
  int64_t dot_kernel = -1;   // the final snapshot's kernel holding the dot: 900 us a run
  int64_t cold_kernel = -1;  // another kernel: 50 us a run
  int64_t last_pass = -1;
  profiler::Profile profile;  // stored in the file only when asked for
};

fs::path TestDirectory() {
  return fs::path(FUSESCOPE_BINARY_DIR) / ("profile_panel_test." + std::to_string(getpid()));
}

// The recording of kModel saved to `name`, with one profile of the final snapshot's kernels
// when `with_profile`.
ProfiledRun SaveRun(const std::string& name, bool with_profile) {
  ProfiledRun run;
  passes::PipelineOptions options;
  options.target = "cpu";
  auto recording = recording::CompileAndRecord(kModel, options, "hot.hlo");
  EXPECT_TRUE(recording.ok()) << recording.message();
  if (!recording.ok()) return run;
  // One folder per process: ctest runs each test case in a process of its own, in parallel,
  // and two of them writing one file would see each other's half-written recordings.
  const fs::path dir = TestDirectory();
  fs::create_directories(dir);
  run.path = (dir / name).string();
  fs::remove(run.path);
  EXPECT_TRUE(recording::SaveRecording(*recording, run.path).ok());
  run.last_pass = static_cast<int64_t>(recording->passes.size()) - 1;
  profiler::Profile& profile = run.profile;
  profile.label = "by construction";
  profile.source = "test";
  profile.device = "cpu";
  profile.created_at = "2026-01-01T00:00:00Z";
  profile.snapshot_index = static_cast<int64_t>(recording->snapshots.size()) - 1;
  const int64_t dot_id = recording->snapshots.front().FindInstruction("d")->id;
  for (const auto& computation : recording->snapshots.back().computations()) {
    for (const auto& record : computation->instructions) {
      if (record->computation != "main") continue;
      if (record->opcode != "fusion" && record->opcode != "dot") continue;
      const bool holds_dot = record->provenance_set->Contains(dot_id);
      profiler::KernelTime kernel;
      kernel.instruction_id = record->id;
      kernel.name = record->name;
      kernel.samples_us.assign(3, holds_dot ? 900.0 : 50.0);
      kernel.total_us = std::accumulate(kernel.samples_us.begin(), kernel.samples_us.end(), 0.0);
      (holds_dot ? run.dot_kernel : run.cold_kernel) = record->id;
      profile.kernels.push_back(std::move(kernel));
    }
  }
  profile.run_latency_us = {1000, 1000, 1000};
  if (with_profile) {
    EXPECT_TRUE(profiler::AddProfile(run.path, profile).ok());
  }
  return run;
}

const ProfiledRun& Profiled() {
  static const ProfiledRun run = SaveRun("profiled.fsdb", true);
  return run;
}

std::unique_ptr<MainWindow> OpenFile(const std::string& path, int64_t pass = -1) {
  App();
  auto window = std::make_unique<MainWindow>(false);
  window->set_interactive(false);
  window->show();
  window->set_initial_pass(pass);
  window->OpenPath(QString::fromStdString(path));
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  return window;
}

QDockWidget* DockOf(MainWindow& window, QWidget* panel) {
  for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
    if (dock->widget() == panel) return dock;
  }
  return nullptr;
}

// The hot nodes of the graph after the profiled pass: the measured kernels, the dot's first,
// with the model op and source line it answers for; the dock comes to the front.
TEST(ProfilePanelTest, ListsHotNodesDotKernelFirst) {
  const ProfiledRun& run = Profiled();
  ASSERT_GE(run.dot_kernel, 0);
  ASSERT_GE(run.cold_kernel, 0);
  auto window = OpenFile(run.path, run.last_pass);
  ProfilePanel* panel = window->profile_panel();
  testing::ModelChecker checker(panel->model());
  EXPECT_EQ(panel->profile_box()->count(), 1);
  EXPECT_TRUE(panel->profile_box()->currentText().contains("by construction"));
  EXPECT_TRUE(panel->profile_box()->currentText().contains("3 runs"));
  EXPECT_FALSE(panel->placeholder()->isVisible());
  QDockWidget* dock = DockOf(*window, panel);
  ASSERT_NE(dock, nullptr);
  EXPECT_TRUE(panel->isVisible());

  QAbstractItemModel* shown = panel->table()->model();
  ASSERT_GE(shown->rowCount(), 2);
  EXPECT_EQ(shown->index(0, 0).data(HotNodeModel::kInstructionIdRole).toLongLong(), run.dot_kernel);
  EXPECT_EQ(shown->index(0, HotNodeModel::kTime).data().toString(), "2700.00");
  EXPECT_EQ(shown->index(0, HotNodeModel::kKind).data().toString(), "measured");
  EXPECT_TRUE(shown->index(0, HotNodeModel::kAnswersFor).data().toString().startsWith("d"));
  EXPECT_TRUE(
      shown->index(0, HotNodeModel::kSourceLines).data().toString().contains("model.py:10"));
  // Rows by time, largest first.
  for (int row = 1; row < shown->rowCount(); ++row) {
    EXPECT_GE(shown->index(row - 1, HotNodeModel::kTime).data(HotNodeModel::kSortRole).toDouble(),
              shown->index(row, HotNodeModel::kTime).data(HotNodeModel::kSortRole).toDouble());
  }
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// Sorting by another column orders by it; sorting by time ascending puts the dot last.
TEST(ProfilePanelTest, SortsByAnyColumn) {
  auto window = OpenFile(Profiled().path, Profiled().last_pass);
  QTableView* table = window->profile_panel()->table();
  QAbstractItemModel* shown = table->model();
  ASSERT_GE(shown->rowCount(), 2);
  table->sortByColumn(HotNodeModel::kNode, Qt::AscendingOrder);
  for (int row = 1; row < shown->rowCount(); ++row) {
    EXPECT_LE(shown->index(row - 1, HotNodeModel::kNode).data().toString(),
              shown->index(row, HotNodeModel::kNode).data().toString());
  }
  table->sortByColumn(HotNodeModel::kTime, Qt::AscendingOrder);
  EXPECT_EQ(
      shown->index(shown->rowCount() - 1, 0).data(HotNodeModel::kInstructionIdRole).toLongLong(),
      Profiled().dot_kernel);
}

// A click on a row selects its node on the after side; a selection made elsewhere selects
// the row.
TEST(ProfilePanelTest, RowsAndSelectionFollowEachOther) {
  const ProfiledRun& run = Profiled();
  auto window = OpenFile(run.path, run.last_pass);
  QTableView* table = window->profile_panel()->table();
  QAbstractItemModel* shown = table->model();
  ASSERT_GE(shown->rowCount(), 2);
  const QModelIndex second = shown->index(1, HotNodeModel::kNode);
  const int64_t second_id = second.data(HotNodeModel::kInstructionIdRole).toLongLong();
  table->scrollTo(second);
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(second).center());
  EXPECT_EQ(window->context()->selection().instruction_id, second_id);
  EXPECT_EQ(window->context()->selection().side, GraphSide::kAfter);

  // The arrow keys walk the rows and the selection follows.
  table->setFocus();
  QTest::keyClick(table, Qt::Key_Up);
  EXPECT_EQ(window->context()->selection().instruction_id,
            shown->index(0, 0).data(HotNodeModel::kInstructionIdRole).toLongLong());

  window->context()->SetSelection(Selection{run.dot_kernel, GraphSide::kAfter, -1});
  const QModelIndexList rows = table->selectionModel()->selectedRows();
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.front().data(HotNodeModel::kInstructionIdRole).toLongLong(), run.dot_kernel);
  window->context()->SetSelection(Selection());
  EXPECT_TRUE(table->selectionModel()->selectedRows().isEmpty());
}

// The overlay paints the dot's kernel at the top of the scale and a cold kernel lower, on
// the graph after the pass; turning it off brings the diff colours back.
TEST(ProfilePanelTest, HeatOverlayColoursHotAndColdNodesApart) {
  const ProfiledRun& run = Profiled();
  auto window = OpenFile(run.path, run.last_pass);
  GraphDiffPanel* graphs = window->graph_panel();
  EXPECT_EQ(graphs->heat(), nullptr);
  QAction* toggle = window->profile_panel()->heat_action();
  ASSERT_TRUE(toggle->isEnabled());
  toggle->setChecked(true);
  ASSERT_NE(graphs->heat(), nullptr);
  EXPECT_TRUE(graphs->heat_legend()->isVisible());
  EXPECT_TRUE(graphs->heat_legend()->Caption().contains("measured"));
  GraphCanvas* after = graphs->canvas(GraphSide::kAfter);
  GraphNodeItem* hot = after->ItemOfInstruction(run.dot_kernel);
  GraphNodeItem* cold = after->ItemOfInstruction(run.cold_kernel);
  ASSERT_NE(hot, nullptr);
  ASSERT_NE(cold, nullptr);
  ASSERT_NE(hot, cold);
  ASSERT_TRUE(hot->heat().has_value());
  ASSERT_TRUE(cold->heat().has_value());
  EXPECT_DOUBLE_EQ(*hot->heat(), 1.0);
  EXPECT_LT(*cold->heat(), 0.2);
  const QPalette palette = after->palette();
  EXPECT_NE(hot->FillColor(palette), cold->FillColor(palette));
  // The before side gets the same attribution: something there carries time too.
  bool before_has_heat = false;
  for (GraphNodeItem* item : graphs->canvas(GraphSide::kBefore)->node_items()) {
    before_has_heat |= item->heat().value_or(0) > 0;
  }
  EXPECT_TRUE(before_has_heat);

  // Another pass: the overlay follows, attributed again (estimates now on both sides).
  window->context()->SetPass(0);
  ASSERT_TRUE(
      WaitFor([&] { return window->IsSettled() && graphs->heat() && graphs->heat()->pass == 0; }));
  EXPECT_TRUE(graphs->heat()->estimated(GraphSide::kAfter));
  EXPECT_TRUE(graphs->heat_legend()->Caption().contains("after: ~ estimate"));
  const int64_t dot = window->context()->recording()->snapshots.front().FindInstruction("d")->id;
  GraphNodeItem* dot_item = graphs->canvas(GraphSide::kAfter)->ItemOfInstruction(dot);
  ASSERT_NE(dot_item, nullptr);
  EXPECT_GT(dot_item->heat().value_or(0), 0.5);
  window->context()->SetPass(run.last_pass);
  ASSERT_TRUE(WaitFor([&] {
    return window->IsSettled() && graphs->heat() && graphs->heat()->pass == run.last_pass;
  }));
  hot = graphs->canvas(GraphSide::kAfter)->ItemOfInstruction(run.dot_kernel);
  ASSERT_NE(hot, nullptr);

  toggle->setChecked(false);
  EXPECT_EQ(graphs->heat(), nullptr);
  EXPECT_FALSE(hot->heat().has_value());
  EXPECT_FALSE(graphs->heat_legend()->isVisible());
}

// On an earlier pass the times are estimates and say so; the dot still leads.
TEST(ProfilePanelTest, EarlierPassShowsEstimates) {
  const ProfiledRun& run = Profiled();
  auto window = OpenFile(run.path, 0);
  QAbstractItemModel* shown = window->profile_panel()->table()->model();
  ASSERT_GE(shown->rowCount(), 1);
  EXPECT_EQ(shown->index(0, HotNodeModel::kKind).data().toString(), "~ estimate");
  EXPECT_TRUE(shown->index(0, HotNodeModel::kAnswersFor).data().toString().startsWith("d"));
  EXPECT_TRUE(window->profile_panel()->summary()->text().contains("estimated"));
}

// A kernel's point clicked on a pass before that kernel exists shows the profiled pass with
// the kernel selected.
TEST(ProfilePanelTest, RooflinePointOnAnEarlierPassGoesToTheProfiledPass) {
  const ProfiledRun& run = Profiled();
  auto window = OpenFile(run.path, 0);
  ASSERT_EQ(window->context()->pass_view()->Find(GraphSide::kAfter, run.cold_kernel), nullptr);
  RooflineView* roofline = window->profile_panel()->roofline();
  const auto cold = roofline->PointOf(run.cold_kernel);
  ASSERT_TRUE(cold.has_value());
  QScatterSeries* points = nullptr;
  for (QAbstractSeries* series : roofline->findChild<QChartView*>()->chart()->series()) {
    auto* scatter = qobject_cast<QScatterSeries*>(series);
    if (scatter && scatter->count() == roofline->point_count()) points = scatter;
  }
  ASSERT_NE(points, nullptr);
  emit points->clicked(QPointF(cold->first, cold->second));
  ASSERT_TRUE(WaitFor([&] {
    return window->IsSettled() && window->context()->pass_view()->pass_index() == run.last_pass;
  }));
  EXPECT_EQ(window->context()->selection().instruction_id, run.cold_kernel);
  EXPECT_NE(window->graph_panel()->canvas(GraphSide::kAfter)->ItemOfInstruction(run.cold_kernel),
            nullptr);
}

// The roofline places each kernel with FLOPs at FLOPs/byte from the IR; the dot's kernel
// does far more work per byte than the elementwise one.
TEST(ProfilePanelTest, RooflinePlacesKernelsByIntensity) {
  const ProfiledRun& run = Profiled();
  auto window = OpenFile(run.path, run.last_pass);
  RooflineView* roofline = window->profile_panel()->roofline();
  ASSERT_GE(roofline->point_count(), 2);
  const auto dot = roofline->PointOf(run.dot_kernel);
  const auto cold = roofline->PointOf(run.cold_kernel);
  ASSERT_TRUE(dot.has_value());
  ASSERT_TRUE(cold.has_value());
  EXPECT_GT(dot->first, 10 * cold->first);
  // 2 x 256^3 FLOPs in 900 us.
  EXPECT_NEAR(dot->second, 2.0 * 256 * 256 * 256 / 900e-6, 1e3);

  // A click on the dot's point selects its kernel, and the point is ringed.
  QChartView* chart = roofline->findChild<QChartView*>();
  ASSERT_NE(chart, nullptr);
  QScatterSeries* points = nullptr;
  for (QAbstractSeries* series : chart->chart()->series()) {
    auto* scatter = qobject_cast<QScatterSeries*>(series);
    if (scatter && scatter->count() == roofline->point_count()) points = scatter;
  }
  ASSERT_NE(points, nullptr);
  emit points->clicked(QPointF(dot->first, dot->second));
  EXPECT_EQ(window->context()->selection().instruction_id, run.dot_kernel);
  EXPECT_EQ(roofline->selected(), run.dot_kernel);
  const QModelIndexList rows = window->profile_panel()->table()->selectionModel()->selectedRows();
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.front().data(HotNodeModel::kInstructionIdRole).toLongLong(), run.dot_kernel);
}

// A saved recording without profiles says how to add one; so does one never saved.
TEST(ProfilePanelTest, PlaceholderWithoutProfiles) {
  static const ProfiledRun bare = SaveRun("bare.fsdb", false);
  auto window = OpenFile(bare.path);
  ProfilePanel* panel = window->profile_panel();
  EXPECT_TRUE(panel->placeholder()->text().contains("fusescope xla-trace TRACE"));
  EXPECT_TRUE(panel->placeholder()->text().contains("--save"));
  EXPECT_EQ(panel->model()->rowCount(), 0);
  EXPECT_FALSE(panel->heat_action()->isEnabled());

  auto compiled = testing::OpenWindow("mlp");
  EXPECT_TRUE(compiled->profile_panel()->placeholder()->text().contains("not saved"));
  EXPECT_FALSE(compiled->profile_panel()->heat_action()->isEnabled());
}

// Without cached machine figures the roofline offers to measure the machine; measuring
// (on a worker) draws the roof, bandwidth then peak, and caches the figures.
TEST(ProfilePanelTest, RooflineMeasuresTheMachineWhenNoneIsCached) {
  App();
  const fs::path cache = TestDirectory() / "cache";
  fs::remove_all(cache);
  testing::ScopedEnv env("XDG_CACHE_HOME", QString::fromStdString(cache.string()));
  RooflineView view;
  view.resize(600, 300);
  view.show();
  view.SetKernels(
      {{1, "dot", 2e6, 1e5, 1e-4}, {2, "add", 1e3, 1e4, 1e-5}, {3, "copy", 0, 1e4, 1e-6}});
  EXPECT_EQ(view.point_count(), 2);
  EXPECT_TRUE(view.note()->text().contains("1 kernel(s) without FLOPs"));
  EXPECT_FALSE(view.machine().has_value());
  ASSERT_TRUE(view.calibrate_button()->isVisible());
  auto* chart = view.findChild<QChartView*>();
  ASSERT_NE(chart, nullptr);
  const auto roof = [chart]() -> QLineSeries* {
    for (QAbstractSeries* series : chart->chart()->series()) {
      if (auto* line = qobject_cast<QLineSeries*>(series);
          line && !qobject_cast<QScatterSeries*>(series)) {
        return line;
      }
    }
    return nullptr;
  };
  EXPECT_EQ(roof(), nullptr);

  QSignalSpy measured(&view, &RooflineView::machineMeasured);
  QTest::mouseClick(view.calibrate_button(), Qt::LeftButton);
  ASSERT_TRUE(WaitFor([&] { return measured.count() > 0; }));
  ASSERT_TRUE(measured.front().front().toBool());
  ASSERT_TRUE(view.machine().has_value());
  EXPECT_FALSE(view.calibrate_button()->isVisible());
  QLineSeries* line = roof();
  ASSERT_NE(line, nullptr);
  ASSERT_EQ(line->count(), 3);
  const profiler::MachineInfo& machine = *view.machine();
  EXPECT_DOUBLE_EQ(line->at(1).x(), machine.peak_flops / machine.memory_bandwidth);
  EXPECT_DOUBLE_EQ(line->at(1).y(), machine.peak_flops);
  EXPECT_DOUBLE_EQ(line->at(2).y(), machine.peak_flops);
  EXPECT_TRUE(profiler::LoadCachedMachine(profiler::DefaultCacheDirectory()).ok());
}

// A profile added to the file while the window is open appears when read again.
TEST(ProfilePanelTest, ReadsProfilesAgain) {
  const ProfiledRun run = SaveRun("late.fsdb", false);
  auto window = OpenFile(run.path, run.last_pass);
  ProfilePanel* panel = window->profile_panel();
  EXPECT_EQ(panel->model()->rowCount(), 0);
  ASSERT_TRUE(panel->reload_action()->isEnabled());
  ASSERT_TRUE(profiler::AddProfile(run.path, run.profile).ok());
  panel->reload_action()->trigger();
  ASSERT_TRUE(WaitFor([&] { return !panel->busy() && panel->model()->rowCount() > 0; }));
  EXPECT_EQ(panel->profile_box()->count(), 1);
  EXPECT_EQ(
      panel->table()->model()->index(0, 0).data(HotNodeModel::kInstructionIdRole).toLongLong(),
      run.dot_kernel);
  EXPECT_TRUE(panel->heat_action()->isEnabled());
}

// Pixels of `image` in the hottest colour of the scale.
int HottestPixels(const QImage& image) {
  const QColor hottest = HeatScale::Color(1.0);
  int count = 0;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const QColor pixel = image.pixelColor(x, y);
      if (std::abs(pixel.red() - hottest.red()) + std::abs(pixel.green() - hottest.green()) +
              std::abs(pixel.blue() - hottest.blue()) <
          12)
        ++count;
    }
  }
  return count;
}

QImage Screenshot(const std::string& path, const QStringList& extra, const QString& name) {
  const QString out = QString::fromStdString((TestDirectory() / name.toStdString()).string());
  QFile::remove(out);
  QProcess process;
  process.start(
      QStringLiteral(FUSESCOPE_BINARY_DIR "/app/fusescope"),
      QStringList{"gui", QString::fromStdString(path)} + extra + QStringList{"--screenshot", out});
  EXPECT_TRUE(process.waitForFinished(120000));
  EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
  return QImage(out);
}

// `fusescope gui RUN.fsdb --screenshot` shows the profile; with --heat the graphs carry the
// overlay: the dot's node is filled with the hottest colour, not only the table's swatch.
TEST(ProfilePanelTest, ScreenshotShowsTheHeatOverlay) {
  const ProfiledRun& run = Profiled();
  const QImage plain = Screenshot(run.path, {}, "plain.png");
  const QImage heat = Screenshot(run.path, {"--heat"}, "heat.png");
  ASSERT_FALSE(plain.isNull());
  ASSERT_FALSE(heat.isNull());
  EXPECT_GT(HottestPixels(heat), HottestPixels(plain) + 1000);
}

}  // namespace
}  // namespace fusescope::views
