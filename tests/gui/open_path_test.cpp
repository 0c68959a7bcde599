// Names the command line takes, opened through the window's one door (MainWindow::OpenPath,
// which File ▸ Open, the recent files, a drop and `fusescope gui NAME` all use): a built-in
// sample, a lesson, an ONNX model, and names that are nothing it reads.

#include <gtest/gtest.h>

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "tests/gui/gui_test_support.h"
#include "views/qt/lesson/lesson_panel.h"
#include "views/qt/main_window.h"
#include "views/qt/workbench_context.h"
#include "views/qt/workers/recording_loader.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

const QString kData = QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/");

// The message of the one failure that opening `what` reports.
QString FailureOf(MainWindow& window, const QString& what) {
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  window.OpenPath(what);
  EXPECT_TRUE(WaitFor([&] { return failed.count() > 0 && !window.loader()->busy(); }));
  QApplication::processEvents();
  EXPECT_EQ(failed.count(), 1);
  return failed.isEmpty() ? QString() : failed.front().front().toString();
}

// `sample:NAME` is compiled like a sample chosen from the menu, and is no recent file.
TEST(OpenPathTest, SampleNameIsCompiled) {
  auto window = OpenWindow();
  const QStringList recent = window->recent_files();
  window->OpenPath("sample:bert_encoder");
  ASSERT_TRUE(WaitFor(
      [&] { return window->context()->title() == "sample:bert_encoder" && window->IsSettled(); }));
  EXPECT_EQ(window->context()->recording()->source_path, "sample:bert_encoder");
  EXPECT_GT(window->context()->recording()->passes.size(), 0u);
  EXPECT_EQ(window->recent_files(), recent);
}

// `lesson:NAME` opens the lesson, as Lessons ▸ and `gui --lesson` do.
TEST(OpenPathTest, LessonNameOpensTheLesson) {
  auto window = OpenWindow();
  QSignalSpy ready(window.get(), &MainWindow::lessonReady);
  window->OpenPath("lesson:mlp_fusion");
  ASSERT_TRUE(WaitFor([&] { return !ready.isEmpty(); }));
  EXPECT_TRUE(window->lesson_panel()->has_lesson());
}

#ifdef FUSESCOPE_HAVE_ONNX
// An ONNX model is compiled by the worker, as `fusescope compile` compiles it.
TEST(OpenPathTest, OnnxModelIsCompiled) {
  auto window = OpenWindow();
  window->OpenPath(kData + "onnx/mlp.onnx");
  ASSERT_TRUE(
      WaitFor([&] { return window->context()->title() == "mlp.onnx" && window->IsSettled(); }));
  const recording::Recording* recording = window->context()->recording();
  EXPECT_GT(recording->passes.size(), 0u);
  EXPECT_EQ(recording->options.target, window->pipeline_target().toStdString());
}
#endif

// A file of no kind it reads is one error naming it and what was tried; the open recording
// stays.
TEST(OpenPathTest, UnknownFileIsOneError) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  QTemporaryDir dir;
  const QString path = dir.filePath("random.bin");
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(QByteArray("\x00\x01\xff garbage", 12));
  file.close();
  const QString message = FailureOf(*window, path);
  EXPECT_TRUE(message.startsWith(path + ": not a file fusescope reads: ")) << message.toStdString();
  EXPECT_TRUE(message.contains("MLIR pass log")) << message.toStdString();
  EXPECT_EQ(window->context()->recording(), before);
}

TEST(OpenPathTest, MissingNamesAreOneError) {
  auto window = OpenWindow();
  EXPECT_EQ(FailureOf(*window, "/nonexistent/model.hlo"),
            "/nonexistent/model.hlo: no such file or folder");
  EXPECT_TRUE(FailureOf(*window, "sample:nope").startsWith("no built-in sample named 'nope'"));
}

}  // namespace
}  // namespace fusescope::views
