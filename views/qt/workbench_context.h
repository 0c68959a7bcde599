#ifndef FUSESCOPE_VIEWS_QT_WORKBENCH_CONTEXT_H_
#define FUSESCOPE_VIEWS_QT_WORKBENCH_CONTEXT_H_

// The one object every panel observes: the open recording, the current pass (with its data,
// built on a worker) and the selection. Panels change it through the setters and hear about
// changes through ContextObserver; the observer that changed the selection gets no echo.

#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "recording/recording.h"
#include "views/qt/context_observer.h"
#include "views/qt/pass_view.h"
#include "views/qt/selection.h"

namespace fusescope::views {

class LatestTaskRunner;

class WorkbenchContext : public QObject {
  Q_OBJECT

 public:
  explicit WorkbenchContext(QObject* parent = nullptr);
  ~WorkbenchContext() override;

  // `observer` is forgotten when `lifetime` is destroyed; it is brought up to date at once.
  void AddObserver(ContextObserver* observer, QObject* lifetime);
  void RemoveObserver(ContextObserver* observer);

  // Shows `recording`; `pass` < 0 picks DefaultPass(). Observers hear OnRecordingLoaded and
  // OnPassChanged together once the pass's data is ready. `file_path` names the .fsdb file
  // it was read from (where its profiles live); empty for a recording not saved.
  void SetRecording(std::shared_ptr<const recording::Recording> recording, QString title,
                    int64_t pass = -1, QString file_path = {});
  // Asynchronous: observers hear OnPassChanged when its data is ready. Out-of-range passes
  // are clamped.
  void SetPass(int64_t pass);
  void SetSelection(const Selection& selection, ContextObserver* source = nullptr);

  const recording::Recording* recording() const { return recording_.get(); }
  const std::shared_ptr<const recording::Recording>& shared_recording() const { return recording_; }
  const QString& title() const { return title_; }
  const QString& file_path() const { return file_path_; }
  int64_t pass_count() const;
  // The pass the user asked for last; pass_view() may still show the previous one.
  int64_t requested_pass() const { return requested_pass_; }
  // Null until the first pass's data is ready.
  const PassView* pass_view() const { return pass_view_.get(); }
  const std::shared_ptr<const PassView>& shared_pass_view() const { return pass_view_; }
  const Selection& selection() const { return selection_; }
  bool busy() const;

  // The pass shown when a recording opens: the first pass that accepted a fusion (what a
  // new user wants to see), else the last pass that changed the module, else the first.
  static int64_t DefaultPass(const recording::Recording& recording);
  // Focuses decision `index`: its consumer selected on the side where both of the pair
  // exist (before the pass, unless the consumer is a fusion the pass itself formed).
  static Selection DecisionSelection(const recording::Recording& recording, int64_t index);

 signals:
  // For status bars and tests; observers use ContextObserver.
  void passViewReady();
  void busyChanged(bool busy);

 private:
  struct Entry {
    ContextObserver* observer;
    QObject* lifetime;
  };
  void RequestPassView(int64_t pass, bool recording_changed);
  void DeliverPassView(std::shared_ptr<const PassView> view, bool recording_changed);
  template <typename Notify>
  void NotifyAll(Notify notify, const ContextObserver* except = nullptr);
  bool IsObserving(const ContextObserver* observer) const;

  std::shared_ptr<const recording::Recording> recording_;
  QString title_;
  QString file_path_;
  int64_t requested_pass_ = -1;
  std::shared_ptr<const PassView> pass_view_;
  Selection selection_;
  std::vector<Entry> observers_;
  LatestTaskRunner* runner_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WORKBENCH_CONTEXT_H_
