#include "views/qt/run/run_request.h"

#include <QCoreApplication>

namespace fusescope::views {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("RunRequest", text); }

// The interpreter is every command's default device, so it goes without --device.
constexpr const char* kDefaultDevice = "interpreter";

}  // namespace

// "cpu": compiled CPU kernels (run and profile; bisect always interprets).
QStringList RunRequest::Devices() {
  return {QString::fromLatin1(kDefaultDevice), QStringLiteral("cpu")};
}

QString RunRequest::Verb() const {
  switch (kind) {
    case Kind::kRun:
      return QStringLiteral("run");
    case Kind::kBisect:
      return QStringLiteral("bisect");
    case Kind::kProfile:
      return QStringLiteral("profile");
  }
  return {};
}

QString RunRequest::What() const {
  const QString snapshot = !pass       ? tr("the final snapshot")
                           : *pass < 0 ? tr("the input module")
                                       : tr("pass %1").arg(*pass);
  switch (kind) {
    case Kind::kRun:
      return tr("running %1 of %2").arg(snapshot, title);
    case Kind::kBisect:
      return tr("bisecting %1").arg(title);
    case Kind::kProfile:
      return tr("profiling %1 of %2").arg(snapshot, title);
  }
  return {};
}

QStringList RunRequest::Arguments() const {
  QStringList arguments{Verb(), recording};
  if (kind != Kind::kBisect && pass) arguments << QStringLiteral("--pass") << QString::number(*pass);
  // Bisect too: on the cpu its stages run compiled.
  if (device != QLatin1String(kDefaultDevice)) arguments << QStringLiteral("--device") << device;
  if (kind == Kind::kProfile) {
    arguments << QStringLiteral("--reps") << QString::number(reps) << QStringLiteral("--warmup")
              << QString::number(warmup) << QStringLiteral("--save");
  }
  arguments << QStringLiteral("--json");
  return arguments;
}

WorkerJob RunRequest::ToWorkerJob(const QString& result_file) const {
  WorkerJob job;
  job.arguments = Arguments() << QStringLiteral("--progress");
  job.input = recording;
  job.result_file = result_file;
  job.what = What();
  return job;
}

}  // namespace fusescope::views
