#include "views/qt/recording_loader.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPointer>
#include <fstream>
#include <sstream>

#include "ir/hlo_parser.h"
#include "passes/pipeline.h"
#include "recording/recorder.h"
#include "recording/recording_store.h"
#include "views/qt/worker_pool.h"

namespace fusescope::views {
namespace {

using ProgressFn = std::function<void(int, int, const std::string&)>;

// Tells the GUI which pass is running; observes only.
class ProgressInstrumentation : public passes::PassInstrumentation {
 public:
  ProgressInstrumentation(int total, ProgressFn progress)
      : total_(total), progress_(std::move(progress)) {}
  void BeforePass(const passes::PassRunInfo& info, const ir::Module&) override {
    if (progress_) progress_(static_cast<int>(info.index), total_, info.name);
  }

 private:
  int total_;
  ProgressFn progress_;
};

bool IsRecordingFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[16] = {};
  file.read(magic, sizeof magic);
  return file.gcount() == sizeof magic && std::string(magic, 15) == "SQLite format 3";
}

StatusOr<std::string> ReadText(const std::string& path) {
  if (QFileInfo(QString::fromStdString(path)).isDir()) {
    return Status::Error(path + ": a folder; open an HLO text file or a .fsdb recording");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open file");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Lookups build each snapshot's index on first use; doing it here keeps that off the GUI
// thread.
void WarmUp(const recording::Recording& recording) {
  for (const recording::Snapshot& snapshot : recording.snapshots) snapshot.FindInstruction(0);
}

}  // namespace

RecordingLoader::RecordingLoader(QObject* parent) : QObject(parent) {}

RecordingLoader::~RecordingLoader() {
  if (job_) job_->abandoned = true;
}

StatusOr<recording::Recording> RecordingLoader::Compile(const std::string& text,
                                                        const std::string& source_path,
                                                        const std::string& target,
                                                        const ProgressFn& progress) {
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(text, source_path);
  if (!module.ok()) return module.status();
  passes::PipelineOptions options;
  options.target = target;
  StatusOr<std::unique_ptr<passes::Pipeline>> pipeline = passes::MakeBuiltinPipeline(options);
  if (!pipeline.ok()) return pipeline.status();
  recording::Recorder recorder(**pipeline);
  recorder.set_model((*module)->name(), source_path);
  recorder.set_input_text(text);
  ProgressInstrumentation reporter(static_cast<int>((*pipeline)->passes().size()), progress);
  (*pipeline)->AddInstrumentation(&recorder);
  (*pipeline)->AddInstrumentation(&reporter);
  const Status status = (*pipeline)->Run(**module);
  recording::Recording recording = recorder.TakeRecording();
  // A failing pass is recorded (broken snapshot, reproducer) and worth showing.
  if (!status.ok() && !recording.failed()) return status;
  WarmUp(recording);
  return recording;
}

StatusOr<recording::Recording> RecordingLoader::Load(const std::string& path,
                                                     const std::string& target) {
  if (IsRecordingFile(path)) {
    StatusOr<recording::Recording> recording = recording::LoadRecording(path);
    if (recording.ok()) WarmUp(*recording);
    return recording;
  }
  StatusOr<std::string> text = ReadText(path);
  if (!text.ok()) return text.status();
  return Compile(*text, path, target);
}

void RecordingLoader::OpenFile(const QString& path, const QString& target) {
  const std::string file = path.toStdString();
  const std::string pipeline = target.toStdString();
  Start(tr("Opening %1").arg(QFileInfo(path).fileName()), QFileInfo(path).fileName(), path,
        [file, pipeline](const ProgressFn& progress) -> StatusOr<recording::Recording> {
          if (IsRecordingFile(file)) return Load(file, pipeline);
          StatusOr<std::string> text = ReadText(file);
          if (!text.ok()) return text.status();
          return Compile(*text, file, pipeline, progress);
        });
}

void RecordingLoader::CompileText(std::string text, const QString& title,
                                  const QString& source_path, const QString& target) {
  const std::string source = source_path.toStdString();
  const std::string pipeline = target.toStdString();
  Start(tr("Compiling %1 (%2)").arg(title, target), title, QString(),
        [text = std::move(text), source, pipeline](const ProgressFn& progress) {
          return Compile(text, source, pipeline, progress);
        });
}

void RecordingLoader::Start(const QString& what, const QString& title, const QString& path,
                            Work work) {
  if (job_) job_->abandoned = true;
  auto job = std::make_shared<Job>();
  job_ = job;
  emit started(what);
  // The worker never touches the loader: it posts to the application object, and the
  // posted call checks on the GUI thread whether the loader still exists.
  QPointer<RecordingLoader> self(this);
  WorkerPool::Instance()->start([self, job, work = std::move(work), title, path] {
    auto report = [self, job](int done, int total, const std::string& pass) {
      if (job->abandoned) return;
      const QString name = QString::fromStdString(pass);
      QMetaObject::invokeMethod(QCoreApplication::instance(), [self, job, done, total, name] {
        if (self && !job->abandoned) emit self->progress(done, total, name);
      });
    };
    StatusOr<recording::Recording> result = work(report);
    if (job->abandoned) return;
    auto shared = std::make_shared<StatusOr<recording::Recording>>(std::move(result));
    QMetaObject::invokeMethod(QCoreApplication::instance(), [self, job, shared, title, path] {
      if (self) self->Finish(job, std::move(*shared), title, path);
    });
  });
}

void RecordingLoader::Finish(const std::shared_ptr<Job>& job, StatusOr<recording::Recording> result,
                             const QString& title, const QString& path) {
  if (job != job_ || job->abandoned) return;
  job_.reset();
  if (!result.ok()) {
    emit failed(QString::fromStdString(result.message()));
    return;
  }
  emit loaded(std::make_shared<const recording::Recording>(std::move(result).value()), title, path);
}

void RecordingLoader::Cancel() {
  if (!job_) return;
  job_->abandoned = true;
  job_.reset();
  emit canceled();
}

}  // namespace fusescope::views
