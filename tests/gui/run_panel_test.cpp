// The Run dock puts a recording's numbers to work in worker processes of the real `fusescope`
// executable: a run of the current pass shows each output's errors, a bisection of a
// recording whose fusions compute wrong numbers highlights the fusion pass (and a click goes
// there), a profile lands in the recording and the Profile dock, Cancel stops the worker
// process itself leaving the recording as it was, and a worker that fails is one clear line
// while the window carries on.

#include <gtest/gtest.h>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFont>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <iostream>

#include "profiler/profile_store.h"
#include "recording/recording_store.h"
#include "recording/sqlite_database.h"
#include "tests/gui/gui_test_support.h"
#include "views/qt/run/bisect_model.h"
#include "views/qt/profile/profile_panel.h"
#include "views/qt/run/run_controller.h"
#include "views/qt/run/run_output_model.h"
#include "views/qt/run/run_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

bool ProcessIsGone(qint64 pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH;
}

// The mlp sample compiled with the cpu pipeline, saved into `dir` (a folder of this process:
// ctest runs the cases as parallel processes).
QString SaveSample(const QTemporaryDir& dir, const QString& name) {
  const auto recording = testing::SampleRecording("mlp");
  EXPECT_NE(recording, nullptr);
  const QString path = dir.filePath(name);
  EXPECT_TRUE(recording::SaveRecording(*recording, path.toStdString()).ok());
  return path;
}

// Every add inside a fused computation made a subtract, straight in the file: the modules
// after the first fusion pass compute wrong numbers, those before it do not.
QString SaveBrokenSample(const QTemporaryDir& dir) {
  const QString path = SaveSample(dir, QStringLiteral("broken.fsdb"));
  auto db =
      recording::SqliteDatabase::Open(path.toStdString(), recording::SqliteDatabase::Mode::kCreate);
  EXPECT_TRUE(db.ok());
  if (db.ok()) {
    EXPECT_TRUE((*db)
                    ->Execute("UPDATE records SET opcode='subtract', text=replace(text, ' add(', "
                              "' subtract(') WHERE computation LIKE 'fused%' AND opcode='add'")
                    .ok());
  }
  return path;
}

std::unique_ptr<MainWindow> OpenFile(const QString& path) {
  testing::App();
  auto window = std::make_unique<MainWindow>(false);
  window->set_interactive(false);
  window->show();
  window->OpenPath(path);
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  return window;
}

// Waits for the panel's job to end; true when it ended with an answer.
bool WaitForAnswer(RunPanel& panel) {
  QSignalSpy finished(&panel, &RunPanel::finished);
  QSignalSpy failed(&panel, &RunPanel::failed);
  EXPECT_TRUE(WaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }));
  EXPECT_FALSE(panel.busy());
  if (!failed.isEmpty()) ADD_FAILURE() << failed.at(0).at(0).toString().toStdString();
  return !finished.isEmpty();
}

// With FUSESCOPE_SCREENSHOT_DIR set, saves the window there as NAME, to look at.
void SaveScreenshot(QWidget& window, const char* name) {
  const QString folder = qEnvironmentVariable("FUSESCOPE_SCREENSHOT_DIR");
  if (!folder.isEmpty()) window.grab().save(QDir(folder).filePath(QString::fromLatin1(name)));
}

QString Cell(const QAbstractItemModel& model, int row, int column) {
  return model.index(row, column).data().toString();
}

// Run Snapshot on a recording compiled in the window (no file: the worker reads a temporary
// copy): the current pass against the original module, every output within tolerance.
TEST(RunPanelTest, RunShowsEveryOutputOk) {
  auto window = OpenWindow();
  RunPanel* panel = window->run_panel();
  ASSERT_TRUE(panel->run_action()->isEnabled());
  testing::ModelChecker checker(panel->outputs_model());
  QSignalSpy progressed(panel, &RunPanel::progressed);
  const int64_t pass = window->context()->requested_pass();
  panel->run_action()->trigger();
  EXPECT_TRUE(panel->busy());
  ASSERT_TRUE(WaitForAnswer(*panel));

  ASSERT_TRUE(panel->result().has_value());
  const RunResult& result = *panel->result();
  EXPECT_TRUE(result.temporary_copy);
  EXPECT_EQ(result.run.pass, pass);
  EXPECT_EQ(panel->table()->model(), panel->outputs_model());
  // The mlp's root is one f32[32,10].
  ASSERT_EQ(panel->outputs_model()->rowCount(), 1);
  EXPECT_EQ(Cell(*panel->outputs_model(), 0, RunOutputModel::kShape), "f32[32,10]");
  for (int row = 0; row < panel->outputs_model()->rowCount(); ++row) {
    EXPECT_EQ(Cell(*panel->outputs_model(), row, RunOutputModel::kVerdict), "ok");
  }
  EXPECT_TRUE(panel->summary()->text().contains("all within tolerance"))
      << panel->summary()->text().toStdString();
  EXPECT_TRUE(panel->command_line()->text().contains(
      QStringLiteral(" run %1 --pass %2 --json").arg(result.request.recording).arg(pass)))
      << panel->command_line()->text().toStdString();
  EXPECT_FALSE(panel->command_line()->text().contains("--progress"));
  QApplication::clipboard()->clear();
  panel->findChild<QToolButton*>(QStringLiteral("copy_command"))->click();
  EXPECT_EQ(QApplication::clipboard()->text(), panel->command_line()->text());
  SaveScreenshot(*window, "run_outputs.png");
  EXPECT_FALSE(panel->error_label()->isVisible());
  // Progress came from the worker's own lines.
  ASSERT_FALSE(progressed.isEmpty());
  EXPECT_TRUE(progressed.last().at(0).toString().startsWith("run: instruction "))
      << progressed.last().at(0).toString().toStdString();
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// Bisect Numbers on a recording whose fusions subtract where they should add: the first pass
// that fused is highlighted and in view; clicking a row goes to that pass, where Run Snapshot
// shows the mismatch.
TEST(RunPanelTest, BisectHighlightsTheBrokenFusionPass) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  auto window = OpenFile(SaveBrokenSample(dir));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  const int64_t fusion_pass = WorkbenchContext::DefaultPass(*recording);
  const std::string fusion_name = recording->passes[static_cast<size_t>(fusion_pass)].name;
  window->context()->SetPass(0);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));

  RunPanel* panel = window->run_panel();
  testing::ModelChecker checker(panel->bisect_model());
  QSignalSpy progressed(panel, &RunPanel::progressed);
  panel->bisect_action()->trigger();
  ASSERT_TRUE(WaitForAnswer(*panel));

  BisectModel* model = panel->bisect_model();
  EXPECT_EQ(panel->table()->model(), model);
  EXPECT_EQ(model->rowCount(), static_cast<int>(recording->passes.size()));
  const int bad = model->FirstBadRow();
  ASSERT_GE(bad, 0);
  EXPECT_EQ(model->index(bad, BisectModel::kPass).data(BisectModel::kPassIndexRole).toLongLong(),
            recording->passes[static_cast<size_t>(fusion_pass)].index);
  EXPECT_EQ(Cell(*model, bad, BisectModel::kName).toStdString(), fusion_name);
  EXPECT_EQ(Cell(*model, bad, BisectModel::kVerdict), "DIFFERS");
  EXPECT_TRUE(model->index(bad, BisectModel::kName).data(Qt::FontRole).value<QFont>().bold());
  EXPECT_TRUE(model->index(bad, BisectModel::kName).data(Qt::BackgroundRole).isValid());
  for (int row = 0; row < bad; ++row) {
    EXPECT_TRUE(Cell(*model, row, BisectModel::kVerdict).startsWith("ok")) << row;
    EXPECT_FALSE(model->index(row, BisectModel::kName).data(Qt::FontRole).isValid()) << row;
  }
  EXPECT_TRUE(panel->table()->viewport()->rect().contains(
      panel->table()->visualRect(model->index(bad, BisectModel::kName))));
  EXPECT_TRUE(panel->summary()->text().contains(QString::fromStdString(fusion_name)));
  EXPECT_TRUE(panel->command_line()->text().contains(" bisect "))
      << panel->command_line()->text().toStdString();
  // The worker said which snapshot it was running, in the window's words.
  const QString fusion_progress = QStringLiteral("bisect: snapshot %1/%2 (%3)")
                                      .arg(fusion_pass + 1)
                                      .arg(recording->passes.size() + 1)
                                      .arg(QString::fromStdString(fusion_name));
  EXPECT_TRUE(std::any_of(progressed.begin(), progressed.end(), [&](const QList<QVariant>& args) {
    return args.at(0).toString() == fusion_progress;
  })) << fusion_progress.toStdString();

  SaveScreenshot(*window, "run_bisect.png");

  QTableView* table = panel->table();
  table->scrollToTop();
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                    table->visualRect(model->index(0, BisectModel::kName)).center());
  EXPECT_EQ(window->context()->requested_pass(), 0);
  table->scrollTo(model->index(bad, 0));
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                    table->visualRect(model->index(bad, BisectModel::kName)).center());
  EXPECT_EQ(window->context()->requested_pass(), fusion_pass);
  EXPECT_TRUE(WaitFor([&] { return window->IsSettled(); }));

  // Run Snapshot there: the worker exits 1 for the mismatch, with its answer.
  panel->StartRun();
  ASSERT_TRUE(WaitForAnswer(*panel));
  ASSERT_EQ(panel->outputs_model()->rowCount(), 1);
  EXPECT_EQ(Cell(*panel->outputs_model(), 0, RunOutputModel::kVerdict), "MISMATCH");
  EXPECT_TRUE(panel->outputs_model()->index(0, 0).data(Qt::BackgroundRole).isValid());
  EXPECT_TRUE(panel->summary()->text().contains("1 of 1 outputs DIFFER"))
      << panel->summary()->text().toStdString();
  EXPECT_FALSE(panel->error_label()->isVisible());
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// A recurrence whose weight the graph scales up is chaotic on any inputs: compiled, its tanh
// rounds differently and the outputs move by O(1). The dock says the module is
// ill-conditioned on these inputs (amber, not red), with both distances to the exact answer.
TEST(RunPanelTest, AChaoticRecurrenceIsIllConditionedNotAMismatch) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("rnn.hlo"));
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(R"(HloModule rnn
body {
  s = (s32[], f32[1,64], f32[64,64]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = f32[1,64] get-tuple-element(s), index=1
  w = f32[64,64] get-tuple-element(s), index=2
  one = s32[] constant(1)
  n = s32[] add(i, one)
  z = f32[1,64] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[1,64] tanh(z)
  ROOT o = (s32[], f32[1,64], f32[64,64]) tuple(n, t, w)
}
cond {
  s = (s32[], f32[1,64], f32[64,64]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(50)
  ROOT lt = pred[] compare(i, k), direction=LT
}
ENTRY e {
  h0 = f32[1,64] parameter(0)
  w0 = f32[64,64] parameter(1)
  g = f32[] constant(4)
  gb = f32[64,64] broadcast(g), dimensions={}
  w = f32[64,64] multiply(w0, gb)
  zero = s32[] constant(0)
  init = (s32[], f32[1,64], f32[64,64]) tuple(zero, h0, w)
  l = (s32[], f32[1,64], f32[64,64]) while(init), condition=cond, body=body
  ROOT r = f32[1,64] get-tuple-element(l), index=1
}
)");
  file.close();
  auto window = OpenFile(path);
  RunPanel* panel = window->run_panel();
  const int cpu = panel->device_box()->findText(QStringLiteral("cpu"));
  ASSERT_GE(cpu, 0);
  panel->device_box()->setCurrentIndex(cpu);
  panel->StartRun();
  ASSERT_TRUE(WaitForAnswer(*panel));
  ASSERT_EQ(panel->outputs_model()->rowCount(), 1);
  const RunOutputModel& model = *panel->outputs_model();
  EXPECT_EQ(Cell(model, 0, RunOutputModel::kVerdict), "ill-conditioned");
  EXPECT_EQ(model.index(0, RunOutputModel::kVerdict).data(Qt::ForegroundRole).value<QColor>(),
            RunOutputModel::VerdictColor(QStringLiteral("ill-conditioned"), true));
  EXPECT_NE(RunOutputModel::VerdictColor(QStringLiteral("ill-conditioned"), true),
            RunOutputModel::VerdictColor(QStringLiteral("MISMATCH"), false));
  EXPECT_FALSE(model.index(0, 0).data(Qt::BackgroundRole).isValid());
  EXPECT_FALSE(Cell(model, 0, RunOutputModel::kToExact).isEmpty());
  EXPECT_FALSE(Cell(model, 0, RunOutputModel::kOriginalToExact).isEmpty());
  EXPECT_TRUE(panel->summary()->text().contains("ill-conditioned on these inputs"))
      << panel->summary()->text().toStdString();
  EXPECT_FALSE(panel->error_label()->isVisible());
  SaveScreenshot(*window, "run_ill_conditioned.png");
}

// A profile is saved into the recording by the worker and the Profile dock shows it. A
// second, long one canceled mid-way: the worker process is gone, and the recording still
// reads, with the profiles it had.
TEST(RunPanelTest, ProfileLandsInTheRecordingAndCancelStopsTheWorker) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = SaveSample(dir, QStringLiteral("profiled.fsdb"));
  auto window = OpenFile(path);
  RunPanel* panel = window->run_panel();
  ProfilePanel* profiles = window->profile_panel();
  EXPECT_TRUE(profiles->profiles().empty());

  QSignalSpy loaded(profiles, &ProfilePanel::profilesLoaded);
  // Through the menu's dialog: 2 timed runs after 1 warm-up.
  QTimer::singleShot(0, [] {
    QWidget* dialog = QApplication::activeModalWidget();
    ASSERT_NE(dialog, nullptr);
    const QList<QSpinBox*> boxes = dialog->findChildren<QSpinBox*>();
    ASSERT_EQ(boxes.size(), 2);
    boxes[0]->setValue(2);
    boxes[1]->setValue(1);
    QMetaObject::invokeMethod(dialog, "accept");
  });
  ASSERT_TRUE(panel->profile_action()->isEnabled());
  panel->profile_action()->trigger();
  EXPECT_TRUE(panel->busy());
  ASSERT_TRUE(WaitForAnswer(*panel));
  EXPECT_EQ(panel->result()->profile.runs, 2);
  EXPECT_TRUE(panel->command_line()->text().contains("--reps 2 --warmup 1 --save"));
  ASSERT_TRUE(WaitFor([&] { return !loaded.isEmpty() && window->IsSettled(); }));
  EXPECT_EQ(loaded.last().at(0).toInt(), 1);
  ASSERT_EQ(profiles->profiles().size(), 1u);
  EXPECT_EQ(profiles->profiles().front().run_latency_us.size(), 2u);

  QSignalSpy canceled(panel, &RunPanel::canceled);
  QSignalSpy progressed(panel, &RunPanel::progressed);
  panel->StartProfile(100000, 0);
  // Cancel once it is measuring: a few runs reported.
  ASSERT_TRUE(WaitFor([&] {
    return !progressed.isEmpty() &&
           progressed.last().at(0).toString().startsWith("profile: rep ") &&
           !progressed.last().at(0).toString().startsWith("profile: rep 0/");
  }));
  const qint64 pid = panel->controller()->worker_pid();
  ASSERT_NE(pid, 0);
  EXPECT_TRUE(panel->cancel_action()->isEnabled());
  SaveScreenshot(*window, "run_progress.png");
  QElapsedTimer stopping;
  stopping.start();
  panel->cancel_action()->trigger();
  ASSERT_TRUE(WaitFor([&] { return !canceled.isEmpty(); }));
  std::cout << "cancel latency: " << stopping.elapsed() << " ms\n";
  EXPECT_TRUE(ProcessIsGone(pid));
  EXPECT_FALSE(panel->busy());
  EXPECT_FALSE(panel->error_label()->isVisible());
  EXPECT_TRUE(panel->summary()->text().contains("Canceled"));

  auto reread = profiler::LoadProfiles(path.toStdString());
  ASSERT_TRUE(reread.ok()) << reread.message();
  EXPECT_EQ(reread->size(), 1u);
  EXPECT_TRUE(recording::LoadRecording(path.toStdString()).ok());
}

// A worker that dies of a signal mid-way is reported with the step it was in; the recording
// gains nothing and the panel is ready for the next job.
TEST(RunPanelTest, CrashedWorkerIsReportedWithItsStep) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = SaveSample(dir, QStringLiteral("crashed.fsdb"));
  auto window = OpenFile(path);
  RunPanel* panel = window->run_panel();
  QSignalSpy progressed(panel, &RunPanel::progressed);
  QSignalSpy failed(panel, &RunPanel::failed);
  panel->StartProfile(100000, 0);
  ASSERT_TRUE(WaitFor([&] {
    return !progressed.isEmpty() && progressed.last().at(0).toString().startsWith("profile: rep ");
  }));
  const qint64 pid = panel->controller()->worker_pid();
  ASSERT_NE(pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGSEGV), 0);
  ASSERT_TRUE(WaitFor([&] { return !failed.isEmpty(); }));
  const QString message = failed.at(0).at(0).toString();
  EXPECT_TRUE(message.contains("crashed with SIGSEGV in rep ")) << message.toStdString();
  EXPECT_TRUE(message.contains("/100000 (timed)")) << message.toStdString();
  EXPECT_EQ(panel->error_label()->text(), message);
  EXPECT_FALSE(panel->busy());
  auto reread = profiler::LoadProfiles(path.toStdString());
  ASSERT_TRUE(reread.ok()) << reread.message();
  EXPECT_TRUE(reread->empty());
  panel->StartBisect();
  ASSERT_TRUE(WaitForAnswer(*panel));
  EXPECT_EQ(panel->bisect_model()->FirstBadRow(), -1);
  EXPECT_TRUE(panel->summary()->text().startsWith("No pass changes"))
      << panel->summary()->text().toStdString();
}

// A worker that refuses its arguments is one line naming the command's own error; nothing
// else changes and the next run works. A profile of a recording without a file is refused
// before any worker starts, with the reason.
TEST(RunPanelTest, FailingWorkerIsOneClearError) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  auto window = OpenFile(SaveSample(dir, QStringLiteral("bad_args.fsdb")));
  RunPanel* panel = window->run_panel();
  QSignalSpy failed(panel, &RunPanel::failed);
  panel->StartProfile(0, 0);
  ASSERT_TRUE(WaitFor([&] { return !failed.isEmpty(); }));
  EXPECT_EQ(failed.count(), 1);
  const QString message = failed.at(0).at(0).toString();
  EXPECT_TRUE(message.contains("failed with exit code 1")) << message.toStdString();
  EXPECT_TRUE(message.contains("repetitions must be between 1 and 100000"))
      << message.toStdString();
  EXPECT_FALSE(message.contains('\n'));
  EXPECT_TRUE(panel->error_label()->isVisible());
  EXPECT_EQ(panel->error_label()->text(), message);
  EXPECT_EQ(window->statusBar()->currentMessage(), message);
  EXPECT_FALSE(panel->busy());
  EXPECT_NE(window->context()->recording(), nullptr);

  panel->StartRun();
  ASSERT_TRUE(WaitForAnswer(*panel));
  EXPECT_FALSE(panel->error_label()->isVisible());
  EXPECT_GT(panel->outputs_model()->rowCount(), 0);

  auto unsaved = OpenWindow();
  QSignalSpy refused(unsaved->run_panel(), &RunPanel::failed);
  unsaved->run_panel()->profile_action()->trigger();
  ASSERT_EQ(refused.count(), 1);
  EXPECT_TRUE(refused.at(0).at(0).toString().contains("not saved"));
  EXPECT_FALSE(unsaved->run_panel()->busy());
}

}  // namespace
}  // namespace fusescope::views
