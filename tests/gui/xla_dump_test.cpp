// XLA dump folders in the workbench: a folder opened, dropped or broken in part, a folder
// that is no dump, and the XLA vs Ours panel on a real jax dump (its pairs, counts, filter,
// sorting and the pass and node a row shows).

#include <gtest/gtest.h>
#include <unistd.h>

#include <QComboBox>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QUrl>
#include <filesystem>
#include <fstream>

#include "importers/open_any.h"
#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
#include "recording/compile_and_record.h"
#include "recording/fusion_comparison.h"
#include "recording/recording_store.h"
#include "tests/gui/gui_test_support.h"
#include "views/qt/decisions/fusion_pair_model.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/workbench_context.h"
#include "views/qt/compare/xla_comparison_panel.h"

namespace fusescope::views {
namespace {

namespace fs = std::filesystem;
using testing::OpenWindow;
using testing::WaitFor;
using Category = FusionPairModel::Category;

const QString kMlpDump = QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/xla_dump_mlp");
const QString kAttentionDump =
    QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/xla_dump_attention");

// One folder per process: ctest runs test cases in parallel processes.
fs::path TestDirectory(const std::string& name) {
  const fs::path dir =
      fs::path(FUSESCOPE_BINARY_DIR) / ("xla_dump_test." + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Opens `path` in `window` and waits until it shows it (title = folder name) and is settled.
bool OpenAndSettle(MainWindow& window, const QString& path) {
  window.OpenPath(path);
  const QString title = QFileInfo(path).fileName();
  return WaitFor([&] {
    return window.context()->title() == title && window.IsSettled() && !window.xla_panel()->busy();
  });
}

// The comparison the CLI makes, computed here without the panel.
recording::FusionComparison ExpectedComparison(const std::string& dump, const std::string& target,
                                               int64_t* base) {
  auto folder = ir::ScanXlaDumpFolder(dump);
  EXPECT_TRUE(folder.ok()) << folder.message();
  auto imported = ir::ImportXlaDumpModule(*folder->Default(), folder->path);
  EXPECT_TRUE(imported.ok()) << imported.message();
  *base = recording::SnapshotBeforeFirstFusion(imported->recording);
  auto input = imported->recording.snapshots[static_cast<size_t>(*base)].ToModule();
  EXPECT_TRUE(input.ok()) << input.message();
  passes::PipelineOptions options;
  options.target = target;
  auto ours = recording::CompileAndRecord(**input, options);
  EXPECT_TRUE(ours.ok()) << ours.message();
  auto comparison = recording::CompareFusion(imported->recording, *base, *ours);
  EXPECT_TRUE(comparison.ok()) << comparison.message();
  return std::move(comparison).value();
}

int CountRows(const FusionPairModel& model, Category category) {
  int count = 0;
  for (const FusionPairModel::Row& row : model.rows()) count += row.category == category ? 1 : 0;
  return count;
}

// The proxy row of the pair `producer` -> `consumer`; -1 when it is not listed.
int ProxyRow(const QSortFilterProxyModel& proxy, const QString& producer, const QString& consumer) {
  for (int row = 0; row < proxy.rowCount(); ++row) {
    if (proxy.index(row, FusionPairModel::kProducer).data().toString() == producer &&
        proxy.index(row, FusionPairModel::kConsumer).data().toString() == consumer) {
      return row;
    }
  }
  return -1;
}

void ChoosePipeline(XlaComparisonPanel& panel, const QString& target) {
  panel.pipeline_box()->setCurrentIndex(panel.pipeline_box()->findData(target));
}

// A folder opened from the window imports its largest module: the jax MLP's 36 files are the
// input and 35 passes of XLA's pipeline.
TEST(XlaDumpTest, FolderOpensAsRecordingOfXlaPasses) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlpDump));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(recording->passes.size(), 35u);
  EXPECT_EQ(recording->model_name, "jit_mlp");
  EXPECT_TRUE(XlaComparisonPanel::IsXlaDump(*recording));
  EXPECT_TRUE(window->load_warnings().isEmpty());
  EXPECT_EQ(window->recent_files().value(0), QFileInfo(kMlpDump).absoluteFilePath());
}

// "DIR/" opens like "DIR": same title, same recent file.
TEST(XlaDumpTest, TrailingSlashNamesTheFolder) {
  auto window = OpenWindow();
  window->OpenPath(kMlpDump + '/');
  ASSERT_TRUE(WaitFor([&] {
    return window->context()->title() == "xla_dump_mlp" && window->IsSettled() &&
           !window->xla_panel()->busy();
  }));
  EXPECT_EQ(window->recent_files().value(0), QFileInfo(kMlpDump).absoluteFilePath());
}

// A dump imported and saved as .fsdb is still XLA's: the panel compares it.
TEST(XlaDumpTest, SavedImportedDumpIsCompared) {
  auto input = importers::ClassifyInput(kMlpDump.toStdString());
  ASSERT_TRUE(input.ok()) << input.message();
  auto imported = importers::OpenRecording(*input);
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_TRUE(imported->recording);
  const fs::path file = TestDirectory("saved") / "mlp.fsdb";
  ASSERT_TRUE(recording::SaveRecording(*imported->recording, file.string()).ok());
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, QString::fromStdString(file.string())));
  XlaComparisonPanel* panel = window->xla_panel();
  EXPECT_TRUE(panel->available());
  ASSERT_TRUE(panel->result());
  EXPECT_TRUE(panel->result()->error.isEmpty()) << panel->result()->error.toStdString();
  EXPECT_GT(panel->model()->rowCount(), 0);
}

// A folder dropped on the window opens like one chosen from the menu.
TEST(XlaDumpTest, DroppedFolderOpens) {
  auto window = OpenWindow();
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(kMlpDump)});
  QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window.get(), &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window.get(), &drop);
  ASSERT_TRUE(WaitFor([&] {
    return window->context()->title() == "xla_dump_mlp" && window->IsSettled() &&
           !window->xla_panel()->busy();
  }));
  EXPECT_EQ(window->context()->recording()->passes.size(), 35u);
}

// A file of the dump that does not parse is left out with a warning; the rest still opens.
TEST(XlaDumpTest, BrokenFileIsLeftOutWithAWarning) {
  const fs::path dir = TestDirectory("broken_mlp");
  std::string broken;
  for (const fs::directory_entry& entry : fs::directory_iterator(kMlpDump.toStdString())) {
    fs::copy_file(entry.path(), dir / entry.path().filename());
    if (entry.path().filename().string().find(".0010.") != std::string::npos) {
      broken = entry.path().filename().string();
    }
  }
  ASSERT_FALSE(broken.empty());
  std::ofstream(dir / broken, std::ios::trunc)
      << "HloModule broken\nENTRY main {\n  this is no HLO\n";
  auto window = OpenWindow();
  window->set_interactive(false);
  ASSERT_TRUE(OpenAndSettle(*window, QString::fromStdString(dir.string())));
  EXPECT_EQ(window->context()->recording()->passes.size(), 34u);
  ASSERT_EQ(window->load_warnings().size(), 1);
  EXPECT_TRUE(window->load_warnings().front().contains(QString::fromStdString(broken)))
      << window->load_warnings().front().toStdString();
}

// A folder without HLO snapshots is one clear error; the open recording stays.
TEST(XlaDumpTest, FolderThatIsNoDumpIsOneError) {
  const fs::path dir = TestDirectory("not_a_dump");
  std::ofstream(dir / "notes.txt") << "not an HLO dump\n";
  auto window = OpenWindow();
  window->set_interactive(false);
  const recording::Recording* before = window->context()->recording();
  QSignalSpy failed(window.get(), &MainWindow::loadFailed);
  window->OpenPath(QString::fromStdString(dir.string()));
  ASSERT_TRUE(WaitFor([&] { return failed.count() > 0 && !window->loader()->busy(); }));
  QApplication::processEvents();
  ASSERT_EQ(failed.count(), 1);
  EXPECT_TRUE(failed.front().front().toString().contains("no XLA HLO dump files"))
      << failed.front().front().toString().toStdString();
  EXPECT_EQ(window->context()->recording(), before);
  EXPECT_FALSE(window->xla_panel()->available());
}

// A recording that is no XLA dump leaves the panel with a hint and nothing to choose.
TEST(XlaDumpTest, PanelWaitsForADump) {
  auto window = OpenWindow();
  XlaComparisonPanel* panel = window->xla_panel();
  EXPECT_FALSE(panel->available());
  EXPECT_FALSE(panel->pipeline_box()->isEnabled());
  EXPECT_EQ(panel->model()->rowCount(), 0);
  EXPECT_TRUE(panel->placeholder()->text().contains("XLA dump folder"));
}

// On the jax attention dump with our gpu pipeline, the panel lists what the comparison finds:
// the same counts, and the reduction XLA fused with its divide that we refuse, with why.
TEST(XlaDumpTest, PanelListsXlaOnlyPairsWithOurReason) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kAttentionDump));
  XlaComparisonPanel* panel = window->xla_panel();
  ASSERT_TRUE(panel->available());
  // The dump is XLA:CPU's, so the panel starts with our cpu pipeline.
  EXPECT_EQ(panel->pipeline_box()->currentData().toString(), "cpu");
  testing::ModelChecker checker(panel->model());
  ChoosePipeline(*panel, "gpu");
  ASSERT_TRUE(WaitFor(
      [&] { return !panel->busy() && panel->result() && panel->result()->pipeline == "gpu"; }));
  ASSERT_TRUE(panel->result()->error.isEmpty()) << panel->result()->error.toStdString();

  int64_t base = -1;
  const recording::FusionComparison expected =
      ExpectedComparison(kAttentionDump.toStdString(), "gpu", &base);
  EXPECT_EQ(panel->result()->base_snapshot, base);
  EXPECT_EQ(CountRows(*panel->model(), Category::kBoth), static_cast<int>(expected.both.size()));
  EXPECT_EQ(CountRows(*panel->model(), Category::kXlaOnly),
            static_cast<int>(expected.only_first.size()));
  EXPECT_EQ(CountRows(*panel->model(), Category::kOursOnly),
            static_cast<int>(expected.only_second.size()));
  EXPECT_TRUE(panel->summary()->text().startsWith(
      QStringLiteral("%1 pairs: %2 fused by both, %3 by XLA only, %4 by us only, %5 by neither")
          .arg(expected.edges)
          .arg(expected.both.size())
          .arg(expected.only_first.size())
          .arg(expected.only_second.size())
          .arg(expected.neither)))
      << panel->summary()->text().toStdString();

  const int row = ProxyRow(*panel->proxy(), "reduce_sum.21 (reduce)", "divide (divide)");
  ASSERT_GE(row, 0);
  const QSortFilterProxyModel& proxy = *panel->proxy();
  EXPECT_EQ(proxy.index(row, FusionPairModel::kCategory).data().toString(), "XLA only");
  EXPECT_EQ(proxy.index(row, FusionPairModel::kXlaFusion).data().toString(),
            "reduce_divide_fusion");
  EXPECT_TRUE(proxy.index(row, FusionPairModel::kOurFusion).data().toString().isEmpty());
  EXPECT_TRUE(proxy.index(row, FusionPairModel::kOurReason)
                  .data()
                  .toString()
                  .contains("reduction epilogues are not fused"));
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// A preferred pipeline (`gui --xla-pipeline gpu`) wins over the dump's platform.
TEST(XlaDumpTest, PreferredPipelineWinsOverThePlatform) {
  auto window = OpenWindow();
  window->xla_panel()->set_preferred_pipeline("gpu");
  ASSERT_TRUE(OpenAndSettle(*window, kAttentionDump));
  XlaComparisonPanel* panel = window->xla_panel();
  EXPECT_EQ(panel->pipeline_box()->currentData().toString(), "gpu");
  ASSERT_TRUE(panel->result());
  EXPECT_EQ(panel->result()->pipeline, "gpu");
}

// The category filter keeps one kind of pair; sorting by producer orders the rows.
TEST(XlaDumpTest, PanelFiltersAndSorts) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kAttentionDump));
  XlaComparisonPanel* panel = window->xla_panel();
  ChoosePipeline(*panel, "gpu");
  ASSERT_TRUE(WaitFor(
      [&] { return !panel->busy() && panel->result() && panel->result()->pipeline == "gpu"; }));
  const int all = panel->proxy()->rowCount();
  for (Category category : {Category::kXlaOnly, Category::kOursOnly, Category::kBoth}) {
    panel->filter_box()->setCurrentIndex(panel->filter_box()->findData(static_cast<int>(category)));
    EXPECT_EQ(panel->proxy()->rowCount(), CountRows(*panel->model(), category));
    for (int row = 0; row < panel->proxy()->rowCount(); ++row) {
      EXPECT_EQ(panel->proxy()->index(row, 0).data(FusionPairModel::kCategoryRole).toInt(),
                static_cast<int>(category));
    }
  }
  EXPECT_GT(CountRows(*panel->model(), Category::kXlaOnly), 0);
  panel->filter_box()->setCurrentIndex(panel->filter_box()->findData(-1));
  EXPECT_EQ(panel->proxy()->rowCount(), all);

  panel->table()->sortByColumn(FusionPairModel::kProducer, Qt::AscendingOrder);
  QStringList producers;
  for (int row = 0; row < panel->proxy()->rowCount(); ++row) {
    producers << panel->proxy()->index(row, FusionPairModel::kProducer).data().toString();
  }
  QStringList sorted = producers;
  std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) {
    return QString::compare(a, b, Qt::CaseInsensitive) < 0;
  });
  EXPECT_EQ(producers, sorted);
}

// A row shows its pair in XLA's module: the producer selected on the graph before XLA's first
// fusing pass, where both ends are still separate instructions.
TEST(XlaDumpTest, RowSelectsProducerBeforeXlasFirstFusingPass) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kAttentionDump));
  XlaComparisonPanel* panel = window->xla_panel();
  ChoosePipeline(*panel, "gpu");
  ASSERT_TRUE(WaitFor(
      [&] { return !panel->busy() && panel->result() && panel->result()->pipeline == "gpu"; }));
  const int row = ProxyRow(*panel->proxy(), "reduce_sum.21 (reduce)", "divide (divide)");
  ASSERT_GE(row, 0);
  const int64_t producer =
      panel->proxy()->index(row, 0).data(FusionPairModel::kProducerIdRole).toLongLong();
  const int64_t base = panel->result()->base_snapshot;
  ASSERT_GT(base, 0);
  ASSERT_NE(window->context()->requested_pass(), base);
  panel->table()->selectRow(row);
  WorkbenchContext* context = window->context();
  ASSERT_TRUE(WaitFor([&] {
    return context->pass_view() && context->pass_view()->pass() &&
           context->pass_view()->pass()->index == base && window->IsSettled();
  }));
  EXPECT_EQ(context->selection(), (Selection{producer, GraphSide::kBefore, -1}));
  // Both ends are on that graph, unfused.
  const recording::Snapshot* before = context->recording()->SnapshotBefore(base);
  ASSERT_NE(before, nullptr);
  EXPECT_NE(before->FindInstruction(producer), nullptr);
  const recording::FusedPair& pair =
      panel->model()
          ->rows()[static_cast<size_t>(
              panel->proxy()->mapToSource(panel->proxy()->index(row, 0)).row())]
          .pair;
  EXPECT_EQ(pair.producer_id, producer);
  EXPECT_NE(before->FindInstruction(pair.consumer_id), nullptr);
  EXPECT_TRUE(
      panel->model()
          ->data(panel->proxy()->mapToSource(panel->proxy()->index(row, 1)), Qt::ToolTipRole)
          .toString()
          .contains(QStringLiteral("before pass #%1").arg(base)));
}

}  // namespace
}  // namespace fusescope::views
