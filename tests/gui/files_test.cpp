// Opening and saving through the window: a dropped HLO file, the recent-files list, a
// recording saved and opened again, cancelling a compile, and `fusescope gui --screenshot`
// end to end.

#include <gtest/gtest.h>

#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>

#include "resources/samples.h"
#include "tests/gui/gui_test_support.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

QString WriteSample(const QTemporaryDir& dir, const QString& name) {
  const QString path = dir.filePath(name);
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::WriteOnly));
  const resources::SampleModel sample = resources::DefaultSample();
  file.write(sample.text.data(), static_cast<qint64>(sample.text.size()));
  return path;
}

// Dropping a file on the window opens it and puts it first among the recent files.
TEST(FilesTest, DroppedFileOpensAndIsRemembered) {
  auto window = OpenWindow();
  QTemporaryDir dir;
  const QString path = WriteSample(dir, "dropped.hlo");
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window.get(), &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window.get(), &drop);
  ASSERT_TRUE(WaitFor(
      [&] { return window->context()->title() == "dropped.hlo" && window->IsSettled(); }, 20000))
      << window->context()->title().toStdString() << " drop accepted " << drop.isAccepted();
  EXPECT_EQ(window->recent_files().value(0), QFileInfo(path).absoluteFilePath());
  EXPECT_NE(window->context()->recording(), nullptr);
}

// A recording saved from the window opens again with the same passes and decisions.
TEST(FilesTest, SavedRecordingOpensAgain) {
  auto window = OpenWindow();
  const recording::Recording* compiled = window->context()->recording();
  const size_t passes = compiled->passes.size();
  const size_t decisions = compiled->decisions.size();
  QTemporaryDir dir;
  const QString path = dir.filePath("run.fsdb");
  QSignalSpy saved(window.get(), &MainWindow::savedRecording);
  window->SaveRecording(path);
  ASSERT_TRUE(WaitFor([&] { return saved.count() > 0; }));
  ASSERT_TRUE(saved.at(0).at(1).toBool());
  window->OpenPath(path);
  ASSERT_TRUE(
      WaitFor([&] { return window->context()->title() == "run.fsdb" && window->IsSettled(); }));
  EXPECT_EQ(window->context()->recording()->passes.size(), passes);
  EXPECT_EQ(window->context()->recording()->decisions.size(), decisions);
  EXPECT_EQ(window->recent_files().value(0), QFileInfo(path).absoluteFilePath());
}

// Cancelling a compile keeps what was open and says so once the worker is gone.
TEST(FilesTest, CancelKeepsTheOpenRecording) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  QSignalSpy canceled(window->loader(), &RecordingLoader::canceled);
  window->SetPipelineTarget("gpu");
  window->Recompile();
  EXPECT_TRUE(window->loader()->busy());
  window->loader()->Cancel();
  ASSERT_TRUE(WaitFor([&] { return canceled.count() == 1; }));
  EXPECT_FALSE(window->loader()->busy());
  QTest::qWait(200);
  EXPECT_EQ(window->context()->recording(), before);
}

// A folder is told apart on a pool thread: the job is begun at once, can be canceled before
// the folder is read, and a folder nothing made ends with one error.
TEST(FilesTest, AFolderIsReadOffTheGuiThreadAndCanBeCanceled) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  QTemporaryDir empty;
  ASSERT_TRUE(empty.isValid());
  QSignalSpy started(window->loader(), &RecordingLoader::started);
  QSignalSpy failed(window->loader(), &RecordingLoader::failed);
  QSignalSpy loaded(window->loader(), &RecordingLoader::loaded);
  window->loader()->OpenFile(empty.path(), QStringLiteral("cpu"));
  EXPECT_TRUE(window->loader()->busy());
  ASSERT_EQ(started.count(), 1);
  EXPECT_TRUE(started.at(0).at(0).toString().startsWith(QStringLiteral("Opening ")));
  ASSERT_TRUE(WaitFor([&] { return failed.count() == 1; }));
  EXPECT_FALSE(window->loader()->busy());
  EXPECT_EQ(window->context()->recording(), before);

  QSignalSpy canceled(window->loader(), &RecordingLoader::canceled);
  window->loader()->OpenFile(QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/xla_dump_mlp"),
                             QStringLiteral("cpu"));
  window->loader()->Cancel();
  EXPECT_EQ(canceled.count(), 1);
  EXPECT_FALSE(window->loader()->busy());
  QTest::qWait(300);
  EXPECT_EQ(loaded.count(), 0);
  EXPECT_EQ(failed.count(), 1);
  EXPECT_EQ(window->context()->recording(), before);
}

// Recompiling with the gpu pipeline replaces the recording with one that says so.
TEST(FilesTest, RecompilesWithTheOtherPipeline) {
  auto window = OpenWindow();
  window->SetPipelineTarget("gpu");
  window->Recompile();
  ASSERT_TRUE(WaitFor([&] {
    return window->context()->recording()->options.target == "gpu" && window->IsSettled();
  }));
  EXPECT_EQ(window->pipeline_target(), "gpu");
}

QString Fusescope() { return QStringLiteral(FUSESCOPE_BINARY_DIR "/app/fusescope"); }

// `fusescope gui FILE --pass N --screenshot OUT.png` writes the window and exits 0.
TEST(FilesTest, CommandLineScreenshot) {
  ASSERT_TRUE(QFileInfo(Fusescope()).isExecutable()) << "build the fusescope target first";
  QTemporaryDir dir;
  const QString out = dir.filePath("shot.png");
  QProcess process;
  process.start(Fusescope(), {"gui", "sample:mlp", "--pass", "2", "--screenshot", out});
  ASSERT_TRUE(process.waitForFinished(300000));
  EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
  const QImage image(out);
  ASSERT_FALSE(image.isNull());
  EXPECT_GE(image.width(), 800);
}

// A file that cannot be opened: exit 1 and one line on stderr naming it.
TEST(FilesTest, CommandLineScreenshotOfMissingFile) {
  ASSERT_TRUE(QFileInfo(Fusescope()).isExecutable()) << "build the fusescope target first";
  QTemporaryDir dir;
  QProcess process;
  process.start(Fusescope(),
                {"gui", "/nonexistent/model.hlo", "--screenshot", dir.filePath("never.png")});
  ASSERT_TRUE(process.waitForFinished(300000));
  EXPECT_EQ(process.exitCode(), 1);
  const QString error = QString::fromUtf8(process.readAllStandardError()).trimmed();
  EXPECT_EQ(error.count('\n'), 0) << error.toStdString();
  EXPECT_TRUE(error.contains("/nonexistent/model.hlo"));
  EXPECT_FALSE(QFileInfo::exists(dir.filePath("never.png")));
}

}  // namespace
}  // namespace fusescope::views
