#ifndef FUSESCOPE_VIEWS_QT_PROFILE_PROFILE_PANEL_H_
#define FUSESCOPE_VIEWS_QT_PROFILE_PROFILE_PANEL_H_

// The profiles stored in the open recording's file (profiler/profile_store.h) and where their
// time lands on the current pass: a chooser, the hot nodes of the graph after the pass
// (sortable; a row selects its node everywhere) beside a roofline chart of the profiled
// kernels, and the heat overlay it hands to the graphs. Profiles are read and attributed on
// workers; a newer request supersedes a stale one.

#include <QWidget>
#include <memory>
#include <vector>

#include "profiler/profile.h"
#include "views/qt/context_observer.h"
#include "views/qt/graph/heat_overlay.h"

class QAction;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QSplitter;
class QTableView;
class QToolButton;

namespace fusescope::profiler {
struct Attribution;
}

namespace fusescope::views {

class HotNodeModel;
class LatestTaskRunner;
class RooflineView;
class WorkbenchContext;
struct ProfileResult;

class ProfilePanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit ProfilePanel(WorkbenchContext* context, QWidget* parent = nullptr);
  ~ProfilePanel() override;

  QComboBox* profile_box() const { return profiles_box_; }
  QTableView* table() const { return table_; }
  HotNodeModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  // The line shown instead of the table when there is nothing to show, and why.
  QLabel* placeholder() const { return placeholder_; }
  QLabel* summary() const { return summary_; }
  // Reads the recording's profiles again (one added by `fusescope xla-trace --save` while the
  // window is open).
  QAction* reload_action() const { return reload_action_; }
  RooflineView* roofline() const { return roofline_; }
  // Checkable: paints the profile's time onto both graphs. Off by default.
  QAction* heat_action() const { return heat_action_; }
  const std::vector<profiler::Profile>& profiles() const { return *profiles_; }
  // Reading profiles or attributing one is under way.
  bool busy() const;
  // The overlay for the current pass, or null when the toggle is off or there is none.
  std::shared_ptr<const HeatOverlay> heat() const;

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

 signals:
  // The profiles of a newly opened recording were read; `count` of them.
  void profilesLoaded(int count);
  // The table (and overlay) show the current pass under the chosen profile.
  void updated();
  void heatChanged(std::shared_ptr<const fusescope::views::HeatOverlay> heat);

 private:
  void setupHeader();
  void setupTable();
  void setupLayout();
  void ShowPlaceholder(const QString& text);
  void LoadProfiles(const QString& path);
  void FillProfileChoices();
  void Recompute();
  void Deliver(std::shared_ptr<const ProfileResult> result);
  void UpdateSummary();
  void SelectRowOf(int64_t instruction_id);
  void Activate(const QModelIndex& proxy_index);
  void SelectInstruction(int64_t instruction_id);
  void EmitHeat();
  const profiler::Profile* CurrentProfile() const;

  WorkbenchContext* context_;
  HotNodeModel* model_;
  QSortFilterProxyModel* proxy_;
  QComboBox* profiles_box_;
  QToolButton* heat_button_;
  QAction* heat_action_;
  QAction* reload_action_;
  QToolButton* reload_button_;
  QToolButton* placeholder_reload_;
  QLabel* summary_;
  QLabel* placeholder_;
  QTableView* table_;
  RooflineView* roofline_;
  QSplitter* splitter_;
  QStackedWidget* stack_;
  LatestTaskRunner* load_runner_;
  LatestTaskRunner* compute_runner_;
  std::shared_ptr<const std::vector<profiler::Profile>> profiles_;
  // The chosen profile's attribution, kept while the pass changes.
  std::shared_ptr<const profiler::Attribution> attribution_;
  int64_t attribution_profile_ = -1;
  std::shared_ptr<const ProfileResult> result_;
  bool following_ = false;  // selecting a row for a selection made elsewhere
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_PROFILE_PROFILE_PANEL_H_
