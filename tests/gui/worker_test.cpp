// Compiles run in a worker process (the real `fusescope` executable) and the window
// survives it: a worker that succeeds delivers its recording; one that crashes for real, is
// canceled, hangs past its time limit, runs out of memory or exits with an error is reported
// with the pass it was in, the last good recording stays on display, and the reproducer can
// be saved. The faults are the worker's own test hooks (FUSESCOPE_TEST_*_IN_PASS).

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <algorithm>
#include <cerrno>
#include <csignal>

#include "tests/gui/gui_test_support.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/workbench_context.h"
#include "views/qt/workers/worker_failure.h"
#include "views/qt/workers/worker_outcome.h"
#include "views/qt/workers/worker_report_banner.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::ScopedEnv;
using testing::WaitFor;

QString ReadFile(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// A pass from the middle of the open recording's pipeline, so that a fault there comes after
// a few passes have been reported; one whose name no other pass has, as the fault hooks
// name passes.
const recording::PassRecord& MiddlePass(const MainWindow& window) {
  const auto& passes = window.context()->recording()->passes;
  for (size_t i = passes.size() / 2; i < passes.size(); ++i) {
    const auto same = std::count_if(passes.begin(), passes.end(),
                                    [&](const auto& pass) { return pass.name == passes[i].name; });
    if (same == 1) return passes[i];
  }
  return passes.back();
}

// Recompiles the open recording and waits until the worker reports failing.
QString RecompileUntilFailure(MainWindow& window) {
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  window.Recompile();
  EXPECT_TRUE(window.loader()->busy());
  EXPECT_TRUE(WaitFor([&] { return failed.count() > 0; }));
  return failed.isEmpty() ? QString() : failed.at(0).at(0).toString();
}

bool ProcessIsGone(qint64 pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH;
}

// The sample opens through a worker that reports each pass as it starts; its recording is
// the one displayed.
TEST(WorkerTest, SucceedingWorkerLoadsItsRecording) {
  testing::App();
  MainWindow window(false);
  window.set_interactive(false);
  window.show();
  QSignalSpy progress(window.loader(), &RecordingLoader::progress);
  qint64 pid = 0;
  QObject::connect(window.loader(), &RecordingLoader::progress, &window,
                   [&] { pid = window.loader()->worker_pid(); });
  window.OpenSample("mlp");
  ASSERT_TRUE(WaitFor([&] { return window.IsSettled(); }));
  const recording::Recording* recording = window.context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(window.context()->title(), "sample:mlp");
  EXPECT_EQ(recording->source_path, "sample:mlp");
  EXPECT_EQ(recording->options.target, "cpu");
  ASSERT_FALSE(progress.isEmpty());
  EXPECT_NE(pid, 0);
  EXPECT_NE(pid, QCoreApplication::applicationPid());
  const QList<QVariant> last = progress.last();
  EXPECT_EQ(last.at(1).toInt(), static_cast<int>(recording->passes.size()));
  EXPECT_EQ(last.at(2).toString().toStdString(), recording->passes.back().name);
  EXPECT_FALSE(window.worker_report()->isVisible());
}

// A worker that dies of SIGSEGV in a pass is reported with that pass; the previous recording
// is still displayed and usable; the reproducer holds the model, the command and stderr.
TEST(WorkerTest, CrashIsReportedWithThePassAndKeepsTheRecording) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  const recording::PassRecord& pass = MiddlePass(*window);
  const QString name = QString::fromStdString(pass.name);
  ScopedEnv crash("FUSESCOPE_TEST_CRASH_IN_PASS", name);
  const QString message = RecompileUntilFailure(*window);

  const QString where = QStringLiteral("in pass %1 %2 (cpu pipeline)").arg(pass.index).arg(name);
  EXPECT_TRUE(message.contains("crashed with SIGSEGV " + where)) << message.toStdString();
  WorkerReportBanner* banner = window->worker_report();
  EXPECT_TRUE(banner->isVisible());
  EXPECT_EQ(banner->headline()->text(), message);
  EXPECT_TRUE(banner->details()->text().contains("last good recording"));
  EXPECT_TRUE(window->statusBar()->currentMessage().contains("SIGSEGV"));
  ASSERT_NE(banner->failure(), nullptr);
  EXPECT_EQ(banner->failure()->outcome().kind, WorkerOutcome::Kind::kCrashed);
  EXPECT_FALSE(window->loader()->busy());

  EXPECT_EQ(window->context()->recording(), before);
  EXPECT_TRUE(window->IsSettled());
  window->context()->SetPass(window->context()->requested_pass() + 1);
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));

  QTemporaryDir dir;
  const QString folder = dir.filePath("repro");
  ASSERT_TRUE(window->SaveReproducer(folder));
  EXPECT_EQ(ReadFile(QDir(folder).filePath(WorkerFailure::kModelFile)).toStdString(),
            before->input_text);
  const QString command = ReadFile(QDir(folder).filePath(WorkerFailure::kCommandFile));
  EXPECT_TRUE(command.contains(message)) << command.toStdString();
  EXPECT_TRUE(command.contains(" compile ")) << command.toStdString();
  EXPECT_TRUE(command.contains("--pipeline cpu")) << command.toStdString();
  EXPECT_TRUE(command.contains("compile model.hlo")) << command.toStdString();
  const QString errors = ReadFile(QDir(folder).filePath(WorkerFailure::kErrorsFile));
  EXPECT_TRUE(errors.contains(QStringLiteral("progress: pass %1/").arg(pass.index)))
      << errors.toStdString();
}

// Cancel stops the worker process itself, and the window keeps what it showed.
TEST(WorkerTest, CancelKillsTheWorker) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  const QString name = QString::fromStdString(MiddlePass(*window).name);
  ScopedEnv hang("FUSESCOPE_TEST_HANG_IN_PASS", name);
  QSignalSpy canceled(window->loader(), &RecordingLoader::canceled);
  QString current;
  QObject::connect(window->loader(), &RecordingLoader::progress, window.get(),
                   [&](int, int, const QString& pass) { current = pass; });
  window->Recompile();
  ASSERT_TRUE(WaitFor([&] { return current == name; }));
  const qint64 pid = window->loader()->worker_pid();
  ASSERT_GT(pid, 0);
  EXPECT_FALSE(ProcessIsGone(pid));

  window->CancelWork();
  ASSERT_TRUE(WaitFor([&] { return canceled.count() == 1; }));
  EXPECT_TRUE(ProcessIsGone(pid));
  EXPECT_FALSE(window->loader()->busy());
  EXPECT_EQ(window->context()->recording(), before);
  EXPECT_FALSE(window->worker_report()->isVisible());
  EXPECT_TRUE(window->IsSettled());
}

// A worker deaf to SIGTERM is killed once the grace period is over.
TEST(WorkerTest, CancelKillsAWorkerThatIgnoresTerminate) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  const QString name = QString::fromStdString(MiddlePass(*window).name);
  WorkerLimits limits = window->loader()->worker_limits();
  limits.grace = std::chrono::milliseconds(300);
  window->loader()->set_worker_limits(limits);
  ScopedEnv hang("FUSESCOPE_TEST_DEAF_HANG_IN_PASS", name);
  QSignalSpy canceled(window->loader(), &RecordingLoader::canceled);
  QString current;
  QObject::connect(window->loader(), &RecordingLoader::progress, window.get(),
                   [&](int, int, const QString& pass) { current = pass; });
  window->Recompile();
  ASSERT_TRUE(WaitFor([&] { return current == name; }));
  const qint64 pid = window->loader()->worker_pid();
  ASSERT_GT(pid, 0);
  window->CancelWork();
  ASSERT_TRUE(WaitFor([&] { return canceled.count() == 1; }));
  EXPECT_TRUE(ProcessIsGone(pid));
  EXPECT_EQ(window->context()->recording(), before);
}

// A worker still busy when its time limit runs out is stopped and reported as such.
TEST(WorkerTest, HangPastTheTimeLimitIsReported) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  const QString name = QString::fromStdString(MiddlePass(*window).name);
  WorkerLimits limits = window->loader()->worker_limits();
  limits.time_limit = std::chrono::seconds(1);
  window->loader()->set_worker_limits(limits);
  ScopedEnv hang("FUSESCOPE_TEST_HANG_IN_PASS", name);
  const QString message = RecompileUntilFailure(*window);
  EXPECT_TRUE(message.contains("was stopped after 1 s without finishing")) << message.toStdString();
  EXPECT_TRUE(message.contains(name)) << message.toStdString();
  ASSERT_NE(window->worker_report()->failure(), nullptr);
  EXPECT_EQ(window->worker_report()->failure()->outcome().kind, WorkerOutcome::Kind::kTimedOut);
  EXPECT_EQ(window->context()->recording(), before);
}

// A runaway allocation fails inside the worker, under its address-space limit, and is
// reported as running out of memory.
TEST(WorkerTest, RunawayAllocationIsReportedAsOutOfMemory) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  const QString name = QString::fromStdString(MiddlePass(*window).name);
  WorkerLimits limits = window->loader()->worker_limits();
  limits.memory_bytes = qint64{1} << 30;
  window->loader()->set_worker_limits(limits);
  ScopedEnv exhaust("FUSESCOPE_TEST_EXHAUST_MEMORY_IN_PASS", name);
  const QString message = RecompileUntilFailure(*window);
  EXPECT_TRUE(message.contains("ran out of memory (limit 1 GiB) in pass")) << message.toStdString();
  EXPECT_TRUE(message.contains(name)) << message.toStdString();
  // Without a report (the worker did not fail in time) there is nothing more to check.
  ASSERT_NE(window->worker_report()->failure(), nullptr);
  EXPECT_EQ(window->worker_report()->failure()->outcome().kind, WorkerOutcome::Kind::kOutOfMemory);
  EXPECT_EQ(window->context()->recording(), before);
}

// A worker that exits with an error says what it printed; here, a model that does not parse.
TEST(WorkerTest, ErrorExitIsReportedWithTheWorkersMessage) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  QTemporaryDir dir;
  const QString path = dir.filePath("broken.hlo");
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("HloModule broken\n\nENTRY main {\n  p = f32[2] parameter(0\n");
  file.close();
  QSignalSpy failed(window.get(), &MainWindow::loadFailed);
  window->OpenPath(path);
  ASSERT_TRUE(WaitFor([&] { return failed.count() > 0; }));
  const QString message = failed.at(0).at(0).toString();
  EXPECT_TRUE(
      message.contains("compiling broken.hlo failed with exit code 1 before the first "
                       "pass (cpu pipeline): " +
                       path + ":5:1: unexpected end of file"))
      << message.toStdString();
  EXPECT_EQ(window->context()->recording(), before);
  QTemporaryDir out;
  ASSERT_TRUE(window->SaveReproducer(out.path()));
  EXPECT_TRUE(ReadFile(QDir(out.path()).filePath(WorkerFailure::kModelFile)).contains("broken"));
}

// A worker program that cannot be started is a report, not a hang.
TEST(WorkerTest, MissingWorkerProgramIsReported) {
  auto window = OpenWindow();
  const recording::Recording* before = window->context()->recording();
  window->loader()->set_worker_program("/nonexistent/fusescope");
  const QString message = RecompileUntilFailure(*window);
  EXPECT_TRUE(message.contains("could not be started")) << message.toStdString();
  EXPECT_EQ(window->context()->recording(), before);
}

QString Fusescope() { return QStringLiteral(FUSESCOPE_BINARY_DIR "/app/fusescope"); }

// `fusescope gui MODEL --screenshot OUT.png` whose worker crashes: exit 1, one line on
// stderr that names the signal and the pass, no picture.
TEST(WorkerTest, CommandLineReportsACrashedWorker) {
  QTemporaryDir dir;
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("FUSESCOPE_TEST_CRASH_IN_PASS", "fusion");
  environment.insert("QT_QPA_PLATFORM", "offscreen");
  process.setProcessEnvironment(environment);
  process.start(Fusescope(), {"gui", "sample:mlp", "--screenshot", dir.filePath("never.png")});
  ASSERT_TRUE(process.waitForFinished(300000));
  EXPECT_EQ(process.exitCode(), 1);
  const QString error = QString::fromUtf8(process.readAllStandardError()).trimmed();
  EXPECT_EQ(error.count('\n'), 0) << error.toStdString();
  EXPECT_TRUE(error.contains("crashed with SIGSEGV in pass")) << error.toStdString();
  EXPECT_TRUE(error.contains("fusion (cpu pipeline)")) << error.toStdString();
  EXPECT_FALSE(QFileInfo::exists(dir.filePath("never.png")));
}

// --worker-timeout reaches the worker; a bad value is a usage error.
TEST(WorkerTest, CommandLineWorkerTimeout) {
  QTemporaryDir dir;
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("FUSESCOPE_TEST_HANG_IN_PASS", "fusion");
  environment.insert("QT_QPA_PLATFORM", "offscreen");
  process.setProcessEnvironment(environment);
  process.start(Fusescope(), {"gui", "sample:mlp", "--worker-timeout", "1", "--screenshot",
                              dir.filePath("never.png")});
  ASSERT_TRUE(process.waitForFinished(300000));
  EXPECT_EQ(process.exitCode(), 1);
  const QString error = QString::fromUtf8(process.readAllStandardError()).trimmed();
  EXPECT_TRUE(error.contains("was stopped after 1 s without finishing in pass"))
      << error.toStdString();
  process.start(Fusescope(), {"gui", "--worker-timeout", "soon", "--screenshot", "x.png"});
  ASSERT_TRUE(process.waitForFinished(300000));
  EXPECT_EQ(process.exitCode(), 2);
  EXPECT_TRUE(process.readAllStandardError().contains("--worker-timeout needs a number"));
}

TEST(WorkerTest, ProgressLinesAndQuoting) {
  const WorkerStage stage = WorkerStage::Parse("progress: pass 7/15 priority-fusion");
  EXPECT_EQ(stage.kind, "pass");
  EXPECT_EQ(stage.index, 7);
  EXPECT_EQ(stage.total, 15);
  EXPECT_EQ(stage.name, "priority-fusion");
  EXPECT_FALSE(WorkerStage::Parse("error: progress: pass 7/15 x").known());
  EXPECT_EQ(ShellQuoted("/tmp/a.hlo"), "/tmp/a.hlo");
  EXPECT_EQ(ShellQuoted("it's here"), R"('it'\''s here')");
}

}  // namespace
}  // namespace fusescope::views
