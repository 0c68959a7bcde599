#include "views/qt/workers/worker_failure.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>

namespace fusescope::views {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("WorkerFailure", text); }

QString Write(const QDir& folder, const QString& name, const QByteArray& contents) {
  QSaveFile file(folder.filePath(name));
  if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size() ||
      !file.commit()) {
    return tr("%1: %2").arg(folder.filePath(name), file.errorString());
  }
  return {};
}

}  // namespace

WorkerFailure::WorkerFailure(WorkerOutcome outcome, QByteArray input_text)
    : outcome_(std::move(outcome)), input_text_(std::move(input_text)) {}

QString WorkerFailure::RerunCommandLine() const {
  QStringList words{ShellQuoted(outcome_.program)};
  for (const QString& argument : outcome_.job.arguments) {
    if (argument == QLatin1String("--progress")) continue;
    if (argument == outcome_.job.input) {
      words << QString::fromLatin1(kModelFile);
    } else if (argument == outcome_.job.output) {
      words << QStringLiteral("run.fsdb");
    } else {
      words << ShellQuoted(argument);
    }
  }
  return words.join(' ');
}

QString WorkerFailure::SaveReproducer(const QString& folder) const {
  if (!QDir().mkpath(folder)) return tr("%1: cannot create the folder").arg(folder);
  const QDir dir(folder);
  const QString command = tr("# What happened\n%1\n\n"
                             "# The command the worker ran\n%2\n\n"
                             "# To run it again on the saved model, from this folder\n%3\n")
                              .arg(Message(), outcome_.CommandLine(), RerunCommandLine());
  const QString errors = outcome_.error_lines.join('\n') + '\n';
  for (const QString& error :
       {Write(dir, kModelFile, input_text_), Write(dir, kCommandFile, command.toUtf8()),
        Write(dir, kErrorsFile, errors.toUtf8())}) {
    if (!error.isEmpty()) return error;
  }
  return {};
}

}  // namespace fusescope::views
