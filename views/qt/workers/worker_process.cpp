#include "views/qt/workers/worker_process.h"

#include <sys/resource.h>

#include <algorithm>
#include <csignal>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace fusescope::views {
namespace {

// Enough of stderr to see the error and the passes before it; bounded, whatever the worker
// prints.
constexpr int kTailLines = 60;
constexpr int kMaxLineLength = 1000;

// Runs in the child between fork and exec: async-signal-safe calls only.
void LimitChild(rlim_t address_space) {
  if (address_space > 0) {
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) == 0) {
      limit.rlim_cur = std::min(address_space, limit.rlim_max);
      setrlimit(RLIMIT_AS, &limit);
    }
  }
#ifdef __linux__
  // A worker outliving a workbench that died would work on for nobody.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
}

}  // namespace

WorkerProcess::WorkerProcess(WorkerJob job, WorkerLimits limits, QObject* parent)
    : QObject(parent), process_(new QProcess(this)) {
  outcome_.job = std::move(job);
  outcome_.limits = limits;
  setupProcess();
}

WorkerProcess::~WorkerProcess() {
  process_->disconnect(this);
  if (running()) {
    process_->kill();
    process_->waitForFinished();
  }
}

void WorkerProcess::setupProcess() {
  process_->setStandardInputFile(QProcess::nullDevice());
  process_->setStandardOutputFile(outcome_.job.result_file.isEmpty() ? QProcess::nullDevice()
                                                                     : outcome_.job.result_file);
  const auto address_space = static_cast<rlim_t>(std::max<qint64>(0, outcome_.limits.memory_bytes));
  process_->setChildProcessModifier([address_space] { LimitChild(address_space); });
  connect(process_, &QProcess::readyReadStandardError, this, &WorkerProcess::ReadErrors);
  connect(process_, &QProcess::finished, this, &WorkerProcess::OnFinished);
  connect(process_, &QProcess::errorOccurred, this, &WorkerProcess::OnError);
  time_limit_.setSingleShot(true);
  connect(&time_limit_, &QTimer::timeout, this, [this] { Stop(StopReason::kTimedOut); });
  grace_.setSingleShot(true);
  connect(&grace_, &QTimer::timeout, process_, &QProcess::kill);
}

void WorkerProcess::Start(const QString& program) {
  outcome_.program = program;
  process_->setProgram(program);
  process_->setArguments(outcome_.job.arguments);
  if (outcome_.limits.time_limit.count() > 0) time_limit_.start(outcome_.limits.time_limit);
  process_->start();
}

void WorkerProcess::Cancel() { Stop(StopReason::kCanceled); }

bool WorkerProcess::WaitForExit(std::chrono::milliseconds timeout) {
  if (!running()) return true;
  return process_->waitForFinished(static_cast<int>(timeout.count()));
}

void WorkerProcess::Stop(StopReason reason) {
  if (!running() || stop_reason_ != StopReason::kNone) return;
  stop_reason_ = reason;
  time_limit_.stop();
  process_->terminate();
  grace_.start(outcome_.limits.grace);
}

void WorkerProcess::ReadErrors() {
  partial_line_ += process_->readAllStandardError();
  qsizetype end;
  while ((end = partial_line_.indexOf('\n')) >= 0) {
    TakeLine(QString::fromUtf8(partial_line_.left(end)));
    partial_line_.remove(0, end + 1);
  }
  if (partial_line_.size() > kMaxLineLength) {
    TakeLine(QString::fromUtf8(partial_line_));
    partial_line_.clear();
  }
}

void WorkerProcess::TakeLine(const QString& line) {
  const WorkerStage stage = WorkerStage::Parse(line);
  if (stage.known()) {
    outcome_.stage = stage;
    emit stageStarted(stage);
  }
  outcome_.error_lines << line.left(kMaxLineLength);
  while (outcome_.error_lines.size() > kTailLines) outcome_.error_lines.removeFirst();
}

bool WorkerProcess::SaysOutOfMemory() const {
  for (const QString& line : outcome_.error_lines) {
    if (line.contains(QLatin1String("out of memory"), Qt::CaseInsensitive) ||
        line.contains(QLatin1String("bad_alloc")) ||
        line.contains(QLatin1String("Cannot allocate memory"))) {
      return true;
    }
  }
  return false;
}

void WorkerProcess::OnFinished(int exit_code, QProcess::ExitStatus status) {
  ReadErrors();
  if (!partial_line_.isEmpty()) TakeLine(QString::fromUtf8(partial_line_));
  partial_line_.clear();
  using Kind = WorkerOutcome::Kind;
  const bool crashed = status == QProcess::CrashExit;
  // On a crash, Qt reports the signal as the exit code.
  outcome_.exit_code = crashed ? 0 : exit_code;
  outcome_.signal = crashed ? exit_code : 0;
  if (stop_reason_ == StopReason::kCanceled) {
    outcome_.kind = Kind::kCanceled;
  } else if (stop_reason_ == StopReason::kTimedOut) {
    outcome_.kind = Kind::kTimedOut;
  } else if (!crashed && exit_code == 0) {
    outcome_.kind = Kind::kSucceeded;
  } else if (SaysOutOfMemory()) {
    outcome_.kind = Kind::kOutOfMemory;
  } else {
    outcome_.kind = crashed ? Kind::kCrashed : Kind::kFailed;
  }
  Finish();
}

void WorkerProcess::OnError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart) return;
  outcome_.kind = WorkerOutcome::Kind::kNotStarted;
  outcome_.start_error = process_->errorString();
  Finish();
}

void WorkerProcess::Finish() {
  if (finished_) return;
  finished_ = true;
  time_limit_.stop();
  grace_.stop();
  emit finished(outcome_);
}

}  // namespace fusescope::views
