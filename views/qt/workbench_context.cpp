#include "views/qt/workbench_context.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "views/qt/workers/latest_task_runner.h"
#include "views/qt/workers/off_thread_release.h"

namespace fusescope::views {

WorkbenchContext::WorkbenchContext(QObject* parent)
    : QObject(parent), runner_(new LatestTaskRunner(this)) {
  connect(runner_, &LatestTaskRunner::busyChanged, this, &WorkbenchContext::busyChanged);
}

WorkbenchContext::~WorkbenchContext() = default;

void WorkbenchContext::AddObserver(ContextObserver* observer, QObject* lifetime) {
  observers_.push_back({observer, lifetime});
  connect(lifetime, &QObject::destroyed, this, [this, observer] { RemoveObserver(observer); });
  // Before the first pass's data is ready there is nothing to show; the delivery tells all.
  if (!recording_ || !pass_view_) return;
  observer->OnRecordingLoaded(*this);
  observer->OnPassChanged(*this);
  if (!selection_.empty()) observer->OnSelectionChanged(*this);
}

void WorkbenchContext::RemoveObserver(ContextObserver* observer) {
  std::erase_if(observers_, [observer](const Entry& entry) { return entry.observer == observer; });
}

bool WorkbenchContext::IsObserving(const ContextObserver* observer) const {
  return std::any_of(observers_.begin(), observers_.end(),
                     [observer](const Entry& entry) { return entry.observer == observer; });
}

template <typename Notify>
void WorkbenchContext::NotifyAll(Notify notify, const ContextObserver* except) {
  // A notified panel may open or close others: walk a copy, skip the ones gone since.
  std::vector<Entry> snapshot = observers_;
  for (const Entry& entry : snapshot) {
    if (entry.observer != except && IsObserving(entry.observer)) notify(entry.observer);
  }
}

void WorkbenchContext::SetRecording(std::shared_ptr<const recording::Recording> recording,
                                    QString title, int64_t pass, QString file_path) {
  ReleaseOffThread(pass_view_);
  ReleaseOffThread(recording_);
  recording_ = std::move(recording);
  title_ = std::move(title);
  file_path_ = std::move(file_path);
  selection_ = Selection();
  if (!recording_) {
    runner_->Cancel();
    requested_pass_ = -1;
    NotifyAll([this](ContextObserver* observer) { observer->OnRecordingLoaded(*this); });
    return;
  }
  RequestPassView(pass < 0 ? DefaultPass(*recording_) : pass, true);
}

void WorkbenchContext::SetPass(int64_t pass) {
  if (!recording_) return;
  RequestPassView(pass, false);
}

void WorkbenchContext::RequestPassView(int64_t pass, bool recording_changed) {
  const int64_t last = pass_count() - 1;
  requested_pass_ = last < 0 ? -1 : std::clamp<int64_t>(pass, 0, last);
  auto recording = recording_;
  const int64_t requested = requested_pass_;
  runner_->Submit([this, recording, requested, recording_changed]() -> LatestTaskRunner::Deliver {
    std::shared_ptr<const PassView> view = PassView::Build(recording, requested);
    return [this, view, recording_changed] { DeliverPassView(view, recording_changed); };
  });
}

void WorkbenchContext::DeliverPassView(std::shared_ptr<const PassView> view,
                                       bool recording_changed) {
  // A recording switch followed quickly by a pass step delivers only the step: the
  // observers still need to hear about the new recording first.
  const bool new_recording =
      recording_changed || !pass_view_ || pass_view_->shared_recording() != recording_;
  ReleaseOffThread(pass_view_);
  pass_view_ = std::move(view);
  if (new_recording) {
    NotifyAll([this](ContextObserver* observer) { observer->OnRecordingLoaded(*this); });
  }
  NotifyAll([this](ContextObserver* observer) { observer->OnPassChanged(*this); });
  emit passViewReady();
}

void WorkbenchContext::SetSelection(const Selection& selection, ContextObserver* source) {
  if (selection == selection_) return;
  selection_ = selection;
  NotifyAll([this](ContextObserver* observer) { observer->OnSelectionChanged(*this); }, source);
}

int64_t WorkbenchContext::pass_count() const {
  return recording_ ? static_cast<int64_t>(recording_->passes.size()) : 0;
}

bool WorkbenchContext::busy() const { return runner_->busy(); }

int64_t WorkbenchContext::DefaultPass(const recording::Recording& recording) {
  for (const passes::FusionDecisionRecord& decision : recording.decisions) {
    if (decision.accepted() && decision.pass_index >= 0) return decision.pass_index;
  }
  // Without decisions (an imported dump): the first fusion pass that changed the module, else
  // the last pass that changed it (a pipeline's closing marker passes come after the work).
  for (size_t i = 0; i < recording.passes.size(); ++i) {
    const recording::PassRecord& pass = recording.passes[i];
    std::string name = pass.name;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (pass.changed && name.find("fus") != std::string::npos) return static_cast<int64_t>(i);
  }
  for (int64_t i = static_cast<int64_t>(recording.passes.size()) - 1; i >= 0; --i) {
    if (recording.passes[static_cast<size_t>(i)].changed) return i;
  }
  return 0;
}

}  // namespace fusescope::views

namespace fusescope::views {

Selection WorkbenchContext::DecisionSelection(const recording::Recording& recording,
                                              int64_t index) {
  const passes::FusionDecisionRecord& decision = recording.decisions[static_cast<size_t>(index)];
  const recording::Snapshot* before = recording.SnapshotBefore(decision.pass_index);
  const bool in_before = before && before->FindInstruction(decision.producer_id) &&
                         before->FindInstruction(decision.consumer_id);
  return Selection{decision.consumer_id, in_before ? GraphSide::kBefore : GraphSide::kAfter, index};
}

}  // namespace fusescope::views
