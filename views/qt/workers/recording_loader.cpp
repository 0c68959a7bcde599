#include "views/qt/workers/recording_loader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QTemporaryDir>

#include "importers/open_any.h"
#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "views/qt/workers/worker_failure.h"
#include "views/qt/workers/worker_pool.h"
#include "views/qt/workers/worker_process.h"

namespace fusescope::views {
namespace {

// Lookups build each snapshot's index on first use; doing it here keeps that off the GUI
// thread.
void WarmUp(const recording::Recording& recording) {
  for (const recording::Snapshot& snapshot : recording.snapshots) snapshot.FindInstruction(0);
}

QByteArray ReadInput(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

struct RecordingLoader::Job {
  std::atomic<bool> abandoned{false};
  QString title;
  QString path;  // the file opened, for the recent files; empty for compiled text
  // The worker's input and output; kept until its recording has been read.
  std::shared_ptr<QTemporaryDir> folder;
  QPointer<WorkerProcess> worker;
  QStringList warnings;  // set on the pool thread before the result is posted
};

RecordingLoader::RecordingLoader(QObject* parent)
    : QObject(parent),
      worker_program_(
          qEnvironmentVariable("FUSESCOPE_WORKER", QCoreApplication::applicationFilePath())) {}

RecordingLoader::~RecordingLoader() {
  // A worker still running is killed when its WorkerProcess, a child of this, goes.
  if (job_) job_->abandoned = true;
}

StatusOr<recording::Recording> RecordingLoader::Compile(const std::string& text,
                                                        const std::string& source_path,
                                                        const std::string& target) {
  passes::PipelineOptions options;
  options.target = target;
  StatusOr<recording::Recording> recording =
      recording::CompileAndRecord(text, options, source_path);
  if (recording.ok()) WarmUp(*recording);
  return recording;
}

StatusOr<recording::Recording> RecordingLoader::Load(const std::string& path) {
  StatusOr<recording::Recording> recording = recording::LoadRecording(path);
  if (recording.ok()) WarmUp(*recording);
  return recording;
}

qint64 RecordingLoader::worker_pid() const {
  return job_ && job_->worker ? job_->worker->pid() : 0;
}

bool RecordingLoader::IsRecordingFile(const QString& path) {
  return importers::IsRecordingFile(path.toStdString());
}

QString RecordingLoader::StartedMessage(const importers::ClassifiedInput& input,
                                        const QString& title, const QString& target) {
  using importers::InputKind;
  switch (input.kind) {
    case InputKind::kTvmDumpFolder:
      return tr("Reading the TVM stages of %1").arg(title);
    case InputKind::kInductorTrace:
      return tr("Reading the Inductor trace %1").arg(title);
    case InputKind::kMlirTreeFolder:
      return tr("Reading the MLIR dumps of %1").arg(title);
    case InputKind::kMlirStageFolder:
      return tr("Reading the MLIR stages of %1").arg(title);
    case InputKind::kXlaDumpFolder:
      return tr("Importing the XLA dump %1").arg(title);
    case InputKind::kTensorRtLayerInfo:
      return tr("Reading the TensorRT engine %1").arg(title);
    case InputKind::kMlirPassLog:
    case InputKind::kMlirModel:
      return tr("Reading %1").arg(title);
    case InputKind::kSample:
    case InputKind::kHloText:
    case InputKind::kOnnxModel:
      return tr("Compiling %1 (%2)").arg(title, target);
    default:
      return tr("Opening %1").arg(title);
  }
}

void RecordingLoader::OpenFile(const QString& given, const QString& target) {
  // "dump/" names its folder "dump" like "dump" does, in the title and the recent files.
  const QString path = QDir::cleanPath(given);
  // Telling what made a folder walks it (an XLA dump holds thousands of files): on a pool
  // thread, the job begun meanwhile so that it can be canceled. A folder is never a sample
  // or a lesson.
  if (QFileInfo(path).isDir()) {
    const QString title = QFileInfo(path).fileName();
    std::shared_ptr<Job> job = Begin(tr("Opening %1").arg(title), title, path);
    QPointer<RecordingLoader> self(this);
    WorkerPool::Instance()->start([self, job, target] {
      auto input = std::make_shared<StatusOr<importers::ClassifiedInput>>(
          importers::ClassifyInput(job->path.toStdString()));
      if (job->abandoned) return;
      QMetaObject::invokeMethod(QCoreApplication::instance(), [self, job, input, target] {
        if (!self || job->abandoned) return;
        if (!input->ok()) {
          self->Finish(job, input->status());
          return;
        }
        emit self->started(StartedMessage(**input, job->title, target));
        self->StartOpen(job, **input, target);
      });
    });
    return;
  }
  const StatusOr<importers::ClassifiedInput> input = importers::ClassifyInput(path.toStdString());
  const bool builtin = input.ok() && (input->kind == importers::InputKind::kSample ||
                                      input->kind == importers::InputKind::kLesson);
  const QString title = builtin ? path : QFileInfo(path).fileName();
  if (!input.ok()) {
    FailLater(Begin(tr("Opening %1").arg(title), title, path),
              QString::fromStdString(input.message()));
    return;
  }
  if (input->kind == importers::InputKind::kLesson) {
    emit lessonNamed(path);
    return;
  }
  if (input->kind == importers::InputKind::kSample) {
    StatusOr<importers::OpenedModelText> model = importers::OpenModelText(*input);
    if (!model.ok()) {
      FailLater(Begin(tr("Opening %1").arg(title), title, QString()),
                QString::fromStdString(model.message()));
      return;
    }
    CompileText(std::move(model->text), title, title, target);
    return;
  }
  StartOpen(Begin(StartedMessage(*input, title, target), title, path), *input, target);
}

void RecordingLoader::StartOpen(const std::shared_ptr<Job>& job,
                                const importers::ClassifiedInput& input, const QString& target) {
  QPointer<RecordingLoader> self(this);
  WorkerPool::Instance()->start([self, job, input, target] {
    StatusOr<importers::OpenedRecording> opened = importers::OpenRecording(input);
    if (job->abandoned) return;
    bool compile = false;
    StatusOr<recording::Recording> result = Status::Error(input.what + ": not read");
    if (!opened.ok()) {
      result = opened.status();
    } else if (!opened->recording) {
      compile = true;
    } else {
      for (const std::string& warning : opened->warnings)
        job->warnings << QString::fromStdString(warning);
      WarmUp(*opened->recording);
      result = std::move(*opened->recording);
    }
    auto shared = std::make_shared<StatusOr<recording::Recording>>(std::move(result));
    QMetaObject::invokeMethod(QCoreApplication::instance(), [self, job, shared, compile, target] {
      if (!self || job->abandoned) return;
      if (compile) {
        self->StartCompile(job, job->path, job->path, target);
      } else {
        self->Finish(job, std::move(*shared));
      }
    });
  });
}

void RecordingLoader::CompileText(std::string text, const QString& title,
                                  const QString& source_path, const QString& target,
                                  const QStringList& pipeline_arguments) {
  std::shared_ptr<Job> job = Begin(tr("Compiling %1 (%2)").arg(title, target), title, QString());
  if (!MakeFolder(job)) return;
  const QString model = job->folder->filePath(QStringLiteral("model.hlo"));
  QFile file(model);
  const auto size = static_cast<qint64>(text.size());
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), size) != size) {
    FailLater(job, tr("cannot write the model for the worker (%1)").arg(file.errorString()));
    return;
  }
  file.close();
  StartCompile(job, model, source_path, target, pipeline_arguments);
}

void RecordingLoader::StartCompile(const std::shared_ptr<Job>& job, const QString& model,
                                   const QString& source_path, const QString& target,
                                   const QStringList& pipeline_arguments) {
  if (!job->folder && !MakeFolder(job)) return;
  WorkerJob work;
  work.input = model;
  work.output = job->folder->filePath(QStringLiteral("run.fsdb"));
  work.arguments = {QStringLiteral("compile"),
                    model,
                    QStringLiteral("--pipeline"),
                    target,
                    "-o",
                    work.output,
                    "--progress",
                    "--source-name",
                    source_path};
  work.arguments += pipeline_arguments;
  work.what = tr("compiling %1").arg(job->title);
  work.pipeline = target;
  StartWorker(job, std::move(work));
}

void RecordingLoader::PrepareLesson(const QString& lesson, const QString& output,
                                    const QString& title, const QString& pipeline) {
  auto job = Begin(tr("Preparing the lesson %1").arg(title), title, output);
  WorkerJob work;
  work.input = lesson;
  work.output = output;
  work.arguments = {QStringLiteral("lesson"), lesson, QStringLiteral("-o"), output,
                    QStringLiteral("--check"), QStringLiteral("--progress")};
  work.what = tr("preparing the lesson %1").arg(title);
  work.pipeline = pipeline;
  StartWorker(job, std::move(work));
}

bool RecordingLoader::MakeFolder(const std::shared_ptr<Job>& job) {
  job->folder = std::make_shared<QTemporaryDir>();
  if (job->folder->isValid()) return true;
  FailLater(
      job,
      tr("cannot create a folder for the worker's files (%1)").arg(job->folder->errorString()));
  return false;
}

std::shared_ptr<RecordingLoader::Job> RecordingLoader::Begin(const QString& what,
                                                             const QString& title,
                                                             const QString& path) {
  Abandon();
  job_ = std::make_shared<Job>();
  job_->title = title;
  job_->path = path;
  emit started(what);
  return job_;
}

// From the event loop, like every other outcome: callers connect after asking.
void RecordingLoader::FailLater(const std::shared_ptr<Job>& job, const QString& message) {
  QMetaObject::invokeMethod(
      this, [this, job, message] { Finish(job, Status::Error(message.toStdString())); },
      Qt::QueuedConnection);
}

void RecordingLoader::Abandon() {
  if (!job_) return;
  job_->abandoned = true;
  if (job_->worker) job_->worker->Cancel();
  job_.reset();
}

void RecordingLoader::StartWorker(const std::shared_ptr<Job>& job, WorkerJob work) {
  auto* worker = new WorkerProcess(std::move(work), limits_, this);
  job->worker = worker;
  connect(worker, &WorkerProcess::stageStarted, this, [this, job](const WorkerStage& stage) {
    if (job == job_) emit progress(stage.index, stage.total, stage.name);
  });
  connect(worker, &WorkerProcess::finished, this,
          [this, job, worker](const WorkerOutcome& outcome) {
            worker->deleteLater();
            OnWorkerFinished(job, outcome);
          });
  worker->Start(worker_program_);
}

void RecordingLoader::OnWorkerFinished(const std::shared_ptr<Job>& job,
                                       const WorkerOutcome& outcome) {
  if (job != job_) return;
  using Kind = WorkerOutcome::Kind;
  if (outcome.kind == Kind::kCanceled) {
    job_.reset();
    emit canceled();
    return;
  }
  // A pass that fails cleanly is recorded (the worker exits 1 after writing the recording,
  // broken snapshot and reproducer included): that is worth showing.
  if (outcome.kind == Kind::kSucceeded ||
      (outcome.kind == Kind::kFailed &&
       importers::IsRecordingFile(outcome.job.output.toStdString()))) {
    StartLoad(job, outcome.job.output);
    return;
  }
  job_.reset();
  emit workerFailed(std::make_shared<const WorkerFailure>(outcome, ReadInput(outcome.job.input)));
}

void RecordingLoader::StartLoad(const std::shared_ptr<Job>& job, const QString& file) {
  // The pool thread never touches the loader: it posts to the application object, and the
  // posted call checks on the GUI thread whether the loader still exists.
  QPointer<RecordingLoader> self(this);
  WorkerPool::Instance()->start([self, job, file = file.toStdString()] {
    StatusOr<recording::Recording> result = Load(file);
    if (job->abandoned) return;
    auto shared = std::make_shared<StatusOr<recording::Recording>>(std::move(result));
    QMetaObject::invokeMethod(QCoreApplication::instance(), [self, job, shared] {
      if (self) self->Finish(job, std::move(*shared));
    });
  });
}

void RecordingLoader::Finish(const std::shared_ptr<Job>& job,
                             StatusOr<recording::Recording> result) {
  if (job != job_ || job->abandoned) return;
  job_.reset();
  if (!result.ok()) {
    emit failed(QString::fromStdString(result.message()));
    return;
  }
  emit loaded(std::make_shared<const recording::Recording>(std::move(result).value()), job->title,
              job->path);
  if (!job->warnings.isEmpty()) emit warned(job->warnings);
}

void RecordingLoader::Cancel() {
  if (!job_) return;
  if (job_->worker && job_->worker->running()) {
    job_->worker->Cancel();
    return;
  }
  job_->abandoned = true;
  job_.reset();
  emit canceled();
}

}  // namespace fusescope::views
