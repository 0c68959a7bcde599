#include "views/qt/workers/worker_outcome.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <csignal>

namespace fusescope::views {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("WorkerOutcome", text); }

QString Duration(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms < 1000) return tr("%1 ms").arg(ms);
  if (ms < 120 * 1000) return tr("%1 s").arg(static_cast<double>(ms) / 1000.0, 0, 'g', 3);
  return tr("%1 min").arg(static_cast<double>(ms) / 60000.0, 0, 'g', 3);
}

QString Bytes(qint64 bytes) {
  if (bytes >= (qint64{1} << 30)) {
    return tr("%1 GiB").arg(static_cast<double>(bytes) / double(qint64{1} << 30), 0, 'g', 3);
  }
  return tr("%1 MiB").arg(static_cast<double>(bytes) / double(qint64{1} << 20), 0, 'g', 3);
}

// "in pass 12 scheduler (cpu pipeline)", "before the first pass (cpu pipeline)"; for a job
// that runs no pipeline, with the count and the name apart: "in rep 3/12 (timed)".
QString Where(const WorkerOutcome& outcome) {
  const WorkerStage& stage = outcome.stage;
  const bool pipeline = !outcome.job.pipeline.isEmpty();
  QString where;
  if (stage.known() && !pipeline) {
    where =
        tr("in %1 %2/%3 (%4)").arg(stage.kind).arg(stage.index).arg(stage.total).arg(stage.name);
  } else if (stage.known()) {
    where = tr("in %1 %2 %3").arg(stage.kind).arg(stage.index).arg(stage.name);
  } else {
    where = pipeline ? tr("before the first pass") : tr("before its first step");
  }
  if (pipeline) where += tr(" (%1 pipeline)").arg(outcome.job.pipeline);
  return where;
}

QString Happened(const WorkerOutcome& outcome) {
  using Kind = WorkerOutcome::Kind;
  switch (outcome.kind) {
    case Kind::kSucceeded:
      return tr("finished");
    case Kind::kFailed:
      return tr("failed with exit code %1").arg(outcome.exit_code);
    case Kind::kCrashed:
      if (outcome.signal == SIGKILL) {
        return tr(
            "was killed (SIGKILL, not by the workbench: perhaps the system ran short of "
            "memory)");
      }
      return tr("crashed with %1").arg(WorkerOutcome::SignalName(outcome.signal));
    case Kind::kOutOfMemory:
      return outcome.limits.memory_bytes > 0
                 ? tr("ran out of memory (limit %1)").arg(Bytes(outcome.limits.memory_bytes))
                 : tr("ran out of memory");
    case Kind::kTimedOut:
      return tr("was stopped after %1 without finishing").arg(Duration(outcome.limits.time_limit));
    case Kind::kCanceled:
      return tr("was canceled");
    case Kind::kNotStarted:
      return tr("could not be started (%1: %2)").arg(outcome.program, outcome.start_error);
  }
  return {};
}

}  // namespace

WorkerStage WorkerStage::Parse(const QString& line) {
  static const QRegularExpression kProgress(
      QStringLiteral(R"(^progress: (\S+) (\d+)/(\d+) (.+)$)"));
  const QRegularExpressionMatch match = kProgress.match(line);
  if (!match.hasMatch()) return {};
  return WorkerStage{match.captured(1), match.captured(2).toInt(), match.captured(3).toInt(),
                     match.captured(4).trimmed()};
}

QString WorkerOutcome::Message() const {
  if (kind == Kind::kNotStarted) return tr("The worker %1 %2").arg(job.what, Happened(*this));
  QString message = tr("The worker %1 %2 %3").arg(job.what, Happened(*this), Where(*this));
  const QString error = LastErrorLine();
  if (kind == Kind::kFailed && !error.isEmpty()) message += QStringLiteral(": ") + error;
  return message;
}

QString WorkerOutcome::LastErrorLine() const {
  for (auto line = error_lines.crbegin(); line != error_lines.crend(); ++line) {
    if (!line->trimmed().isEmpty() && !WorkerStage::Parse(*line).known()) return line->trimmed();
  }
  return {};
}

QString WorkerOutcome::CommandLine() const {
  QStringList words{ShellQuoted(program)};
  for (const QString& argument : job.arguments) words << ShellQuoted(argument);
  return words.join(' ');
}

QString WorkerOutcome::SignalName(int signal) {
  switch (signal) {
    case SIGSEGV:
      return QStringLiteral("SIGSEGV");
    case SIGABRT:
      return QStringLiteral("SIGABRT");
    case SIGBUS:
      return QStringLiteral("SIGBUS");
    case SIGFPE:
      return QStringLiteral("SIGFPE");
    case SIGILL:
      return QStringLiteral("SIGILL");
    case SIGKILL:
      return QStringLiteral("SIGKILL");
    case SIGTERM:
      return QStringLiteral("SIGTERM");
    case SIGTRAP:
      return QStringLiteral("SIGTRAP");
    default:
      return tr("signal %1").arg(signal);
  }
}

QString ShellQuoted(const QString& argument) {
  static const QRegularExpression kPlain(QStringLiteral(R"(^[A-Za-z0-9_@%+=:,./-]+$)"));
  if (kPlain.match(argument).hasMatch()) return argument;
  QString quoted = argument;
  quoted.replace('\'', QStringLiteral("'\\''"));
  return '\'' + quoted + '\'';
}

}  // namespace fusescope::views
