#include "views/qt/run/run_controller.h"

#include <QCoreApplication>
#include <QFile>
#include <QPointer>
#include <QTemporaryDir>
#include <atomic>

#include "recording/recording_store.h"
#include "views/qt/workers/worker_pool.h"
#include "views/qt/workers/worker_process.h"

namespace fusescope::views {
namespace {

// Bounded: a result is a few lines per output or pass.
constexpr qint64 kMaxResultBytes = qint64{64} << 20;

QByteArray ReadResult(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.read(kMaxResultBytes) : QByteArray();
}

// Message() names the last error line only for a worker that exited with an error; one that
// crashed or hung may have said something useful too.
QString FailureMessage(const WorkerOutcome& outcome) {
  QString message = outcome.Message();
  const QString last = outcome.LastErrorLine();
  if (outcome.kind != WorkerOutcome::Kind::kFailed && !last.isEmpty()) {
    message += QCoreApplication::translate("RunController", "; it last said: %1").arg(last);
  }
  return message;
}

}  // namespace

struct RunController::Job {
  RunRequest request;
  std::shared_ptr<QTemporaryDir> folder;  // the worker's result (and a temporary recording)
  QPointer<WorkerProcess> worker;
  bool temporary_copy = false;
  std::atomic<bool> abandoned{false};
};

RunController::RunController(QObject* parent)
    : QObject(parent),
      worker_program_(
          qEnvironmentVariable("FUSESCOPE_WORKER", QCoreApplication::applicationFilePath())) {}

RunController::~RunController() {
  // A worker still running is killed when its WorkerProcess, a child of this, goes.
  if (job_) job_->abandoned = true;
}

qint64 RunController::worker_pid() const { return job_ && job_->worker ? job_->worker->pid() : 0; }

QString RunController::Describe(const RunRequest& request, const WorkerStage& stage) {
  if (!stage.known()) return request.Verb();
  return QStringLiteral("%1: %2 %3/%4 (%5)")
      .arg(request.Verb(), stage.kind)
      .arg(stage.index)
      .arg(stage.total)
      .arg(stage.name);
}

void RunController::Start(RunRequest request, std::shared_ptr<const recording::Recording> unsaved) {
  Abandon();
  job_ = std::make_shared<Job>();
  job_->request = std::move(request);
  std::shared_ptr<Job> job = job_;
  job->folder = std::make_shared<QTemporaryDir>();
  if (job->folder->isValid() && job->request.recording.isEmpty() && unsaved) {
    job->temporary_copy = true;
    job->request.recording = job->folder->filePath(QStringLiteral("recording.fsdb"));
  }
  emit started(job->request, CommandLine(*job));
  if (!job->folder->isValid()) {
    FailLater(
        job,
        tr("cannot create a folder for the worker's files (%1)").arg(job->folder->errorString()));
    return;
  }
  if (job->temporary_copy) {
    SaveThenStart(job, std::move(unsaved));
  } else if (job->request.recording.isEmpty()) {
    FailLater(job, tr("There is no recording to %1.").arg(job->request.Verb()));
  } else {
    StartWorker(job);
  }
}

// Off the GUI thread: a large recording takes a while to write.
void RunController::SaveThenStart(const std::shared_ptr<Job>& job,
                                  std::shared_ptr<const recording::Recording> recording) {
  QPointer<RunController> self(this);
  WorkerPool::Instance()->start(
      [self, job, recording = std::move(recording), file = job->request.recording.toStdString()] {
        const Status saved = recording::SaveRecording(*recording, file);
        if (job->abandoned) return;
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, job, saved] {
          if (!self || job != self->job_) return;
          if (!saved.ok()) {
            self->FailLater(job, tr("Could not save the recording for the worker: %1")
                                     .arg(QString::fromStdString(saved.message())));
            return;
          }
          self->StartWorker(job);
        });
      });
}

void RunController::StartWorker(const std::shared_ptr<Job>& job) {
  const QString result_file = job->folder->filePath(QStringLiteral("result.json"));
  auto* worker = new WorkerProcess(job->request.ToWorkerJob(result_file), limits_, this);
  job->worker = worker;
  connect(worker, &WorkerProcess::stageStarted, this, [this, job](const WorkerStage& stage) {
    if (job == job_) emit progress(stage);
  });
  connect(worker, &WorkerProcess::finished, this,
          [this, job, worker](const WorkerOutcome& outcome) {
            worker->deleteLater();
            OnWorkerFinished(job, outcome);
          });
  worker->Start(worker_program_);
}

QString RunController::CommandLine(const Job& job) const {
  QStringList words{ShellQuoted(worker_program_)};
  for (const QString& argument : job.request.Arguments()) words << ShellQuoted(argument);
  return words.join(' ');
}

void RunController::OnWorkerFinished(const std::shared_ptr<Job>& job,
                                     const WorkerOutcome& outcome) {
  if (job != job_) return;
  job_.reset();
  using Kind = WorkerOutcome::Kind;
  if (outcome.kind == Kind::kCanceled) {
    emit canceled();
    return;
  }
  // run and bisect exit 1 when they find a difference, with their answer on stdout; a
  // command that fails writes nothing there.
  const bool answered =
      outcome.kind == Kind::kSucceeded || (outcome.kind == Kind::kFailed && outcome.exit_code == 1);
  if (!answered) {
    emit failed(FailureMessage(outcome));
    return;
  }
  RunResult result;
  const QString error =
      RunResult::Parse(job->request, ReadResult(outcome.job.result_file), &result);
  if (!error.isEmpty()) {
    emit failed(outcome.kind == Kind::kSucceeded
                    ? tr("The worker %1 finished, but %2").arg(job->request.What(), error)
                    : FailureMessage(outcome));
    return;
  }
  result.command_line = CommandLine(*job);
  result.temporary_copy = job->temporary_copy;
  emit finished(result);
}

void RunController::FailLater(const std::shared_ptr<Job>& job, const QString& message) {
  QMetaObject::invokeMethod(
      this,
      [this, job, message] {
        if (job != job_) return;
        job_.reset();
        emit failed(message);
      },
      Qt::QueuedConnection);
}

void RunController::Abandon() {
  if (!job_) return;
  job_->abandoned = true;
  if (job_->worker) job_->worker->Cancel();
  job_.reset();
}

void RunController::Cancel() {
  if (!job_) return;
  if (job_->worker && job_->worker->running()) {
    job_->worker->Cancel();
    return;
  }
  job_->abandoned = true;
  job_.reset();
  QMetaObject::invokeMethod(this, &RunController::canceled, Qt::QueuedConnection);
}

}  // namespace fusescope::views
