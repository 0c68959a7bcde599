#ifndef FUSESCOPE_VIEWS_QT_RECORDING_LOADER_H_
#define FUSESCOPE_VIEWS_QT_RECORDING_LOADER_H_

// Produces recordings off the GUI thread: loads a .fsdb file, or parses HLO text (a file, a
// built-in sample) and compiles it with a built-in pipeline, reporting each pass as it
// starts. One job at a time; a new job or Cancel() abandons the running one, whose result is
// then dropped (the pipeline has no way to stop mid-pass, so it finishes in the background).

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::views {

class RecordingLoader : public QObject {
  Q_OBJECT

 public:
  explicit RecordingLoader(QObject* parent = nullptr);
  ~RecordingLoader() override;

  // A .fsdb recording is loaded as it is; anything else is read as HLO text and compiled
  // with the `target` pipeline ("cpu" or "gpu").
  void OpenFile(const QString& path, const QString& target);
  // `title` names it in the window ("sample:mlp"); `source_path` goes into the recording.
  void CompileText(std::string text, const QString& title, const QString& source_path,
                   const QString& target);
  void Cancel();
  bool busy() const { return job_ != nullptr; }

  // Synchronous forms, for the command line and tests. Run on any thread.
  static StatusOr<recording::Recording> Load(const std::string& path, const std::string& target);
  static StatusOr<recording::Recording> Compile(
      const std::string& text, const std::string& source_path, const std::string& target,
      const std::function<void(int done, int total, const std::string& pass)>& progress = {});

 signals:
  void started(const QString& what);
  void progress(int done, int total, const QString& pass);
  void loaded(std::shared_ptr<const recording::Recording> recording, const QString& title,
              const QString& path);
  void failed(const QString& message);
  void canceled();

 private:
  struct Job {
    std::atomic<bool> abandoned{false};
  };
  using Work = std::function<StatusOr<recording::Recording>(
      const std::function<void(int, int, const std::string&)>& progress)>;
  void Start(const QString& what, const QString& title, const QString& path, Work work);
  void Finish(const std::shared_ptr<Job>& job, StatusOr<recording::Recording> result,
              const QString& title, const QString& path);

  std::shared_ptr<Job> job_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_RECORDING_LOADER_H_
