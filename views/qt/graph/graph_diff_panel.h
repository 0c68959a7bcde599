#ifndef FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_DIFF_PANEL_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_DIFF_PANEL_H_

// The pass side by side: the graph it ran on (left) and the graph it produced (right), in
// diff colours. Selecting a node on one side marks its counterparts on the other (a fusion
// on the right marks the originals it absorbed on the left, via the diff and provenance).
// Layouts are computed on workers, one per side; a newer request supersedes a stale one.
// The expansion state of boxes is carried from pass to pass.

#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "views/qt/context_observer.h"
#include "views/qt/graph/graph_picture.h"
#include "views/qt/graph/heat_overlay.h"

class QAction;
class QLabel;
class QSplitter;
class QToolBar;

namespace fusescope::views {

class GraphCanvas;
class HeatLegend;
class LatestTaskRunner;
class WorkbenchContext;

class GraphDiffPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  // `use_settings`: remember view choices (Align Sides) in QSettings.
  explicit GraphDiffPanel(WorkbenchContext* context, bool use_settings = true,
                          QWidget* parent = nullptr);

  GraphCanvas* canvas(GraphSide side) const;
  QAction* show_counterparts() const { return show_counterparts_; }
  // Lay both sides out together so that unchanged nodes line up (off by default).
  QAction* align_sides() const { return align_sides_; }
  // Colours both graphs by a profile's time (null: diff colours again), with a legend.
  void SetHeat(std::shared_ptr<const HeatOverlay> heat);
  const std::shared_ptr<const HeatOverlay>& heat() const { return heat_; }
  HeatLegend* heat_legend() const { return heat_legend_; }
  // An action of another panel that changes what the graphs show (the heat overlay).
  void AddOverlayAction(QAction* action);
  // No layout is being computed and the pictures show the current pass.
  bool settled() const;

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

  void ExpandAll();
  void CollapseAll();
  // Only the graph the pass produced (presenter mode); false: both sides again.
  void SetSinglePane(bool single);
  bool single_pane() const { return single_pane_; }

 signals:
  // Both sides show the latest request; for screenshots and tests.
  void picturesSettled();

 private:
  struct Side {
    GraphCanvas* canvas = nullptr;
    QLabel* title = nullptr;
    LatestTaskRunner* runner = nullptr;
    std::optional<std::unordered_set<std::string>> expanded;
    bool pending = false;
    bool refit = true;
  };

  void setupSide(GraphSide side);
  void setupToolbar();
  void setupLayout();
  Side& side(GraphSide which);
  void RequestPictures(const std::vector<int64_t>& reveal = {});
  GraphRequest MakeRequest(GraphSide which, const std::vector<int64_t>& reveal);
  void RequestPicture(GraphSide which, const std::vector<int64_t>& reveal);
  void RequestAlignedPictures(const std::vector<int64_t>& reveal);
  void Deliver(GraphSide which, std::shared_ptr<const GraphPicture> picture);
  void SceneComplete(GraphSide which);
  std::optional<EdgeAnnotation> Annotation() const;
  void ApplyMarks(bool center);
  void ApplyMarks(GraphSide which, bool center);
  bool NeedsReveal() const;
  void Clicked(GraphSide which, int64_t instruction_id);
  void ToggleBox(GraphSide which, int node_id);
  void SetAllExpanded(bool expanded);
  void UpdateTitles();

  WorkbenchContext* context_;
  Side sides_[2];
  QSplitter* splitter_;
  QAction* show_counterparts_;
  QAction* hide_constants_;
  QAction* align_sides_;
  QLabel* status_;
  QToolBar* toolbar_ = nullptr;
  HeatLegend* heat_legend_;
  std::shared_ptr<const HeatOverlay> heat_;
  LatestTaskRunner* pair_runner_;
  bool use_settings_;
  int64_t shown_pass_ = -2;
  bool align_views_ = false;  // aligned pictures arriving after a refit: one shared view
  int64_t annotated_decision_ = -1;
  bool single_pane_ = false;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_DIFF_PANEL_H_
