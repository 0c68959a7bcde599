#ifndef FUSESCOPE_VIEWS_QT_CONTEXT_OBSERVER_H_
#define FUSESCOPE_VIEWS_QT_CONTEXT_OBSERVER_H_

// A panel that follows the WorkbenchContext. All calls arrive on the GUI thread. A panel
// registered late is brought up to date at once with the same calls, in the same order
// (recording, pass, selection).

namespace fusescope::views {

class WorkbenchContext;

class ContextObserver {
 public:
  virtual ~ContextObserver() = default;
  // A recording was opened or compiled (or closed: context.recording() is null).
  virtual void OnRecordingLoaded(const WorkbenchContext& /*context*/) {}
  // The current pass's data (context.pass_view()) is ready.
  virtual void OnPassChanged(const WorkbenchContext& /*context*/) {}
  // Not called on the observer that made the change.
  virtual void OnSelectionChanged(const WorkbenchContext& /*context*/) {}
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_CONTEXT_OBSERVER_H_
