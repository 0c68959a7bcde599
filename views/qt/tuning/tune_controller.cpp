#include "views/qt/tuning/tune_controller.h"

#include <QCoreApplication>

#include "views/qt/workers/worker_process.h"

namespace fusescope::views {
namespace {

// `fusescope tune` exits with this after SIGINT or SIGTERM, its trials so far stored.
constexpr int kStoppedExitCode = 130;

}  // namespace

QString TuneOutcome::Summary() const {
  const auto tr = [](const char* text) {
    return QCoreApplication::translate("TuneController", text);
  };
  if (!stopped_early) return tr("Tuned %1: %2 trial(s)").arg(request.title).arg(trials_done);
  if (stored) {
    return tr("Tuning of %1 stopped after %2 trial(s); the trials so far are stored")
        .arg(request.title)
        .arg(trials_done);
  }
  return tr("Tuning of %1 stopped before it stored any trial").arg(request.title);
}

TuneController::TuneController(QObject* parent)
    : QObject(parent),
      worker_program_(
          qEnvironmentVariable("FUSESCOPE_WORKER", QCoreApplication::applicationFilePath())) {
  limits_.time_limit = std::chrono::milliseconds(0);
  limits_.grace = std::chrono::seconds(60);
}

// A search still running when the window closes is stopped as Cancel() stops it, and given its
// grace period to store the trials so far before the worker is killed.
TuneController::~TuneController() {
  if (!worker_) return;
  worker_->disconnect(this);
  worker_->Cancel();
  worker_->WaitForExit(limits_.grace);
}

qint64 TuneController::worker_pid() const { return worker_ ? worker_->pid() : 0; }

QString TuneController::Describe(const WorkerStage& stage) {
  if (!stage.known()) return tr("starting");
  if (stage.kind == QLatin1String("trial")) {
    return tr("trial %1/%2: %3").arg(stage.index).arg(stage.total).arg(stage.name);
  }
  if (stage.kind == QLatin1String("measure")) return tr("measuring the %1").arg(stage.name);
  if (stage.kind == QLatin1String("save")) return tr("storing the %1").arg(stage.name);
  return QStringLiteral("%1 %2/%3 %4")
      .arg(stage.kind)
      .arg(stage.index)
      .arg(stage.total)
      .arg(stage.name);
}

QString TuneController::CommandLine(const TuneRequest& request) const {
  QStringList words{ShellQuoted(worker_program_)};
  for (const QString& argument : request.Arguments()) words << ShellQuoted(argument);
  return words.join(' ');
}

bool TuneController::Start(const TuneRequest& request) {
  if (busy()) return false;
  if (const QString problem = request.Check(); !problem.isEmpty()) {
    QMetaObject::invokeMethod(
        this, [this, problem] { emit failed(problem); }, Qt::QueuedConnection);
    return true;
  }
  request_ = request;
  trials_done_ = 0;
  auto* worker = new WorkerProcess(request.ToWorkerJob(), limits_, this);
  worker_ = worker;
  connect(worker, &WorkerProcess::stageStarted, this, [this](const WorkerStage& stage) {
    if (stage.kind == QLatin1String("trial")) trials_done_ = stage.index;
    emit progress(stage);
  });
  connect(worker, &WorkerProcess::finished, this, [this, worker](const WorkerOutcome& outcome) {
    worker->deleteLater();
    worker_ = nullptr;
    OnWorkerFinished(outcome);
  });
  emit started(request_, CommandLine(request_));
  worker->Start(worker_program_);
  return true;
}

void TuneController::Cancel() {
  if (worker_) worker_->Cancel();
}

void TuneController::OnWorkerFinished(const WorkerOutcome& outcome) {
  using Kind = WorkerOutcome::Kind;
  TuneOutcome result;
  result.request = request_;
  result.trials_done = trials_done_;
  result.command_line = CommandLine(request_);
  const bool exited_stopped = outcome.signal == 0 && outcome.exit_code == kStoppedExitCode;
  if (outcome.kind == Kind::kSucceeded) {
    result.stored = true;
  } else if (outcome.kind == Kind::kCanceled || (outcome.kind == Kind::kFailed && exited_stopped)) {
    result.stopped_early = true;
    result.stored = exited_stopped;
  } else {
    QString message = outcome.Message();
    const QString last = outcome.LastErrorLine();
    if (outcome.kind != Kind::kFailed && !last.isEmpty()) {
      message += tr("; it last said: %1").arg(last);
    }
    emit failed(message);
    return;
  }
  emit finished(result);
}

}  // namespace fusescope::views
