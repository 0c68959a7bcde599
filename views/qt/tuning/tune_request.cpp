#include "views/qt/tuning/tune_request.h"

#include <QCoreApplication>

#include "tuning/search_space.h"

namespace fusescope::views {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("TuneRequest", text); }

}  // namespace

QStringList TuneRequest::Strategies() {
  return {QStringLiteral("grid"), QStringLiteral("random"), QStringLiteral("evolutionary")};
}

QString TuneRequest::What() const {
  return kernel.isEmpty() ? tr("tuning the hottest kernels of %1").arg(title)
                          : tr("tuning %1 of %2").arg(kernel, title);
}

QStringList TuneRequest::Arguments() const {
  QStringList arguments{QStringLiteral("tune"), recording};
  if (!kernel.isEmpty()) arguments << QStringLiteral("--kernel") << kernel;
  if (!space.trimmed().isEmpty()) arguments << QStringLiteral("--space") << space.trimmed();
  if (strategy != Strategies().front()) arguments << QStringLiteral("--strategy") << strategy;
  if (trials > 0) arguments << QStringLiteral("--trials") << QString::number(trials);
  if (reps > 0) arguments << QStringLiteral("--reps") << QString::number(reps);
  return arguments;
}

WorkerJob TuneRequest::ToWorkerJob() const {
  WorkerJob job;
  job.arguments = Arguments() << QStringLiteral("--progress");
  job.input = recording;
  job.what = What();
  return job;
}

QString TuneRequest::Check() const {
  if (recording.isEmpty()) {
    return tr(
        "Tuning keeps its trials in the recording's file: save the recording first "
        "(File ▸ Save Recording As…).");
  }
  if (!Strategies().contains(strategy)) {
    return tr("unknown strategy '%1' (grid, random or evolutionary)").arg(strategy);
  }
  if (!space.trimmed().isEmpty()) {
    auto parsed = tuning::SearchSpace::Parse(space.trimmed().toStdString());
    if (!parsed.ok()) return QString::fromStdString(parsed.message());
  }
  return {};
}

}  // namespace fusescope::views
