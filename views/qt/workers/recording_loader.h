#ifndef FUSESCOPE_VIEWS_QT_WORKERS_RECORDING_LOADER_H_
#define FUSESCOPE_VIEWS_QT_WORKERS_RECORDING_LOADER_H_

// Produces recordings for the window. What it is given is told apart and opened by
// importers/input_kind.h and importers/open_any.h, as on the command line; this decides where
// the work runs. A recording (.fsdb), a pass log, a dump, stage, tree or TVM folder, TensorRT
// layer information and a .mlir model that cannot be compiled are read on a thread of this
// process (what the import had to leave out comes with the recording as warnings). A model
// (an HLO file, ONNX, a StableHLO .mlir, a built-in sample, the open recording's input) is
// compiled by a worker process, `fusescope compile MODEL --pipeline P -o TMP.fsdb --progress`,
// whose recording is then read like a .fsdb file: a pipeline that crashes, hangs or exhausts
// memory takes the worker down, never the window, and is reported by workerFailed() with the
// pass it was in. A lesson is handed back (lessonNamed()): the window prepares it.
//
// One job at a time, on the GUI thread; a new job abandons the running one (its worker is
// stopped, its result dropped). Cancel() stops the work for real.

#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "importers/input_kind.h"
#include "ir/status.h"
#include "recording/recording.h"
#include "views/qt/workers/worker_job.h"
#include "views/qt/workers/worker_limits.h"

namespace fusescope::views {

class WorkerFailure;
class WorkerProcess;
struct WorkerOutcome;

class RecordingLoader : public QObject {
  Q_OBJECT

 public:
  explicit RecordingLoader(QObject* parent = nullptr);
  ~RecordingLoader() override;

  // Anything a user can name (importers::ClassifyInput): a file, a folder, `sample:NAME`,
  // `lesson:NAME`. A model is compiled with the `target` pipeline ("cpu" or "gpu"). A folder
  // is told apart on a pool thread (started() says "Opening", then what it turned out to be).
  void OpenFile(const QString& path, const QString& target);
  // `title` names it in the window ("sample:mlp"); `source_path` goes into the recording.
  // `pipeline_arguments` go to the worker's `fusescope compile` as they are ("--set",
  // "fusion.max_operands=8", "--disable-pass", "cse").
  void CompileText(std::string text, const QString& title, const QString& source_path,
                   const QString& target, const QStringList& pipeline_arguments = {});
  // A lesson (`lesson:NAME` or a .lesson file) prepared by a worker, `fusescope lesson LESSON
  // -o OUTPUT --check` (its model compiled, its kernels stored when it shows any, every step
  // resolved); then OUTPUT is read and loaded() names it as the path. OUTPUT must outlive the
  // recording's display (the Kernel view reads kernels from it).
  void PrepareLesson(const QString& lesson, const QString& output, const QString& title,
                     const QString& pipeline);
  // A worker gets SIGTERM, then SIGKILL after the grace period, and canceled() follows once
  // it is gone; a load in this process is abandoned and canceled() follows at once.
  void Cancel();
  bool busy() const { return job_ != nullptr; }
  // The running worker's process id; 0 when no worker runs.
  qint64 worker_pid() const;

  // The executable run as the worker: FUSESCOPE_WORKER when set, else this program.
  QString worker_program() const { return worker_program_; }
  void set_worker_program(const QString& program) { worker_program_ = program; }
  const WorkerLimits& worker_limits() const { return limits_; }
  void set_worker_limits(const WorkerLimits& limits) { limits_ = limits; }

  // Whether `path` is a recording file (SQLite), whatever its name.
  static bool IsRecordingFile(const QString& path);

  // Synchronous forms, for tests. Run on any thread.
  static StatusOr<recording::Recording> Load(const std::string& path);
  static StatusOr<recording::Recording> Compile(const std::string& text,
                                                const std::string& source_path,
                                                const std::string& target);

 signals:
  void started(const QString& what);
  // The worker started pass `done` (numbered from 0) of `total`.
  void progress(int done, int total, const QString& pass);
  void loaded(std::shared_ptr<const recording::Recording> recording, const QString& title,
              const QString& path);
  // Right after loaded(): what the load had to leave out (files of a dump that would not
  // parse), one line each. Not emitted when there is nothing to say.
  void warned(const QStringList& warnings);
  // The job could not start, or the recording could not be read.
  void failed(const QString& message);
  // OpenFile() was given a lesson (`lesson:NAME` or a .lesson file), emitted at once; no job
  // was started for it.
  void lessonNamed(const QString& lesson);
  void workerFailed(std::shared_ptr<const fusescope::views::WorkerFailure> failure);
  void canceled();

 private:
  struct Job;

  std::shared_ptr<Job> Begin(const QString& what, const QString& title, const QString& path);
  void Abandon();
  void FailLater(const std::shared_ptr<Job>& job, const QString& message);
  // The job's temporary folder, for the worker's input and output; false (and the job
  // failed) when it cannot be made.
  bool MakeFolder(const std::shared_ptr<Job>& job);
  void StartLoad(const std::shared_ptr<Job>& job, const QString& file);
  // On a pool thread: importers::OpenRecording, then the recording shown, or the model
  // compiled by a worker.
  void StartOpen(const std::shared_ptr<Job>& job, const importers::ClassifiedInput& input,
                 const QString& target);
  static QString StartedMessage(const importers::ClassifiedInput& input, const QString& title,
                                const QString& target);
  void StartWorker(const std::shared_ptr<Job>& job, WorkerJob work);
  void StartCompile(const std::shared_ptr<Job>& job, const QString& model,
                    const QString& source_path, const QString& target,
                    const QStringList& pipeline_arguments = {});
  void OnWorkerFinished(const std::shared_ptr<Job>& job, const WorkerOutcome& outcome);
  void Finish(const std::shared_ptr<Job>& job, StatusOr<recording::Recording> result);

  std::shared_ptr<Job> job_;
  QString worker_program_;
  WorkerLimits limits_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKERS_RECORDING_LOADER_H_
