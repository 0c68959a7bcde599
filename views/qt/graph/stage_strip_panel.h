#ifndef FUSESCOPE_VIEWS_QT_GRAPH_STAGE_STRIP_PANEL_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_STAGE_STRIP_PANEL_H_

// A strip of N graph panes side by side (2 to 8, 4 at first), each showing the module at one
// stage: after one pass, or the input. The stages are a window over the passes (StageWindow)
// that a slider and buttons move: every pass, only the changed ones, only those whose names
// contain a text, or a typed list; with a second recording (SetSecondRecording) its stages
// can stand beside the first's. The panes share one viewport: a zoom or pan in one moves the
// others to the same scale and the same node (followed by provenance where a pass replaced
// it). The selection is the workbench's: a node selected anywhere is marked in every pane, and
// where a pane's stage no longer holds it (or does not hold it yet), the instructions made
// from it or that it was made from are marked instead. Each pane lays out on its own worker;
// a newer request supersedes a stale one. Nothing is laid out while the strip is hidden.

#include <QPointF>
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/provenance.h"
#include "recording/recording.h"
#include "views/qt/context_observer.h"
#include "views/qt/graph/graph_picture.h"
#include "views/qt/graph/stage_window.h"

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
class QSplitter;
class QToolButton;

namespace fusescope::views {

class GraphCanvas;
class LatestTaskRunner;
class WorkbenchContext;

class StageStripPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit StageStripPanel(WorkbenchContext* context, QWidget* parent = nullptr);
  ~StageStripPanel() override;

  // Stages of `recording` can be shown beside the workbench's (a what-if compile of the same
  // model): the arrangement switches to interleaved when it showed the first alone. Null
  // removes it. Kept when the workbench opens another recording.
  void SetSecondRecording(std::shared_ptr<const recording::Recording> recording, QString title);
  const recording::Recording* second_recording() const { return second_.get(); }

  // The controls, for the command line and tests; each does what its widget does.
  void SetPaneCount(int panes);
  void SetNameFilter(const QString& text);
  void SetChangedOnly(bool changed_only);
  void SetArrangement(StageArrangement arrangement);
  // A list as ParseStageList reads it; empty: back to the window over the filtered passes.
  // False (and the error shown) when it does not parse.
  bool SetStageList(const QString& text);
  void SetPosition(int position);
  void Step(int steps);
  // The same zoom in every pane, about the node in the middle of the first.
  void ZoomBy(double factor);
  // Every pane fitted whole, at the zoom that fits the largest.
  void FitAll();
  void ExpandAll();
  void CollapseAll();

  const StageWindow& window() const { return window_; }
  // The stages the panes show or are being laid out for, left to right.
  const std::vector<Stage>& stages() const { return stages_; }
  int pane_count() const { return static_cast<int>(panes_.size()); }
  GraphCanvas* canvas(int pane) const;
  // The pane's title (pass and name, elided) and the line under it (what changed).
  QLabel* title(int pane) const;
  QLabel* detail(int pane) const;
  // The message of the last stage list that did not parse; empty otherwise.
  const QString& list_error() const { return list_error_; }
  // No layout is running and every pane shows its stage of the current recording.
  bool settled() const;

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

 signals:
  // Every pane shows the latest request, marked and in the shared view; for tests and
  // screenshots.
  void picturesSettled();

 protected:
  void showEvent(QShowEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  struct Pane {
    QWidget* frame = nullptr;
    QLabel* title = nullptr;
    QLabel* detail = nullptr;
    GraphCanvas* canvas = nullptr;
    LatestTaskRunner* runner = nullptr;
    Stage stage;
    std::shared_ptr<const recording::Recording> recording;  // the stage's
    // The pass data of the picture shown (or being laid out); the stage's module is its
    // after side, or its before side for the input.
    std::shared_ptr<const PassView> view;
    std::optional<std::unordered_set<std::string>> expanded;
    bool pending = false;
    // Where each followed instruction is drawn in this pane's picture (node id, -1: nowhere).
    std::unordered_map<int64_t, int> located;
  };
  // Where the shared viewport looks, in terms every pane can find: a node and the offset
  // from it, else a position relative to the picture.
  struct ViewAnchor {
    double zoom = 1;
    int64_t instruction = -1;
    ir::ProvenanceSet origins;
    QPointF offset;
    QPointF relative;
  };

  void setupToolbar();
  void setupChoosers();
  void setupLayout();
  void AddPane();
  void RemovePane();
  void SyncPaneCount();
  void UpdateControls();
  void ApplyStageList();
  void RebuildPickMenu();

  const recording::Recording* RecordingOf(int which) const;
  std::shared_ptr<const recording::Recording> SharedRecordingOf(int which) const;
  std::shared_ptr<const PassView> KnownView(const Stage& stage) const;
  void StagesChanged(bool refit);
  void RequestPicture(int pane, bool refit);
  void Deliver(int pane, std::shared_ptr<const PassView> view,
               std::shared_ptr<const GraphPicture> picture, bool refit);
  void SceneComplete(int pane);
  bool AllComplete() const;
  void UpdateTitle(int pane);

  ir::ProvenanceSet SelectionOrigins() const;
  void ApplyMarks(int pane, const ir::ProvenanceSet& origins);
  void ApplyMarks();
  void Clicked(int pane, int64_t instruction_id);
  // Brings the selection (or what stands for it) into view in every pane; false when no
  // pane shows it.
  bool CenterOnSelection();
  void ToggleBox(int pane, int node_id);

  // Where pane `pane` looks, about `instruction` (-1: the node nearest its middle).
  std::optional<ViewAnchor> AnchorOf(int pane, int64_t instruction = -1);
  // The node of pane `pane` that shows `instruction`, else the first that shows what was
  // made from `origins` (cached per picture); -1 when none.
  int Locate(int pane, int64_t instruction, const ir::ProvenanceSet& origins);
  void ApplyAnchor(const ViewAnchor& anchor, int except);
  void FollowPane(int pane);
  // The view every pane shares, as shared_view_ says.
  void ApplySharedView();
  // The automatic view of the pane with the most changes (GraphCanvas::AutoView), the
  // others at the same zoom on the same node.
  void ShowChanges();
  void FitCommon();

  WorkbenchContext* context_;
  StageWindow window_;
  std::shared_ptr<const recording::Recording> second_;
  QString second_title_;
  std::vector<Pane> panes_;
  std::vector<Stage> stages_;
  // What the panes show together: what changed (at first), everything fitted (Fit), or where
  // the user took them (kAnchored: anchor_, followed across stages when the window moves).
  enum class SharedView { kChanges, kFitted, kAnchored };
  SharedView shared_view_ = SharedView::kChanges;
  std::optional<ViewAnchor> anchor_;
  // The recording the panes' stages belong to; another one means every pane is stale.
  const recording::Recording* shown_recording_ = nullptr;
  bool stale_ = true;  // hidden when the stages changed: lay out when shown
  bool refit_ = true;  // the next settled pictures drop the user's view for what changed
  bool view_scheduled_ = false;
  QString list_error_;

  QSplitter* splitter_;
  QSpinBox* panes_box_ = nullptr;
  QToolButton* previous_ = nullptr;
  QToolButton* next_ = nullptr;
  QSlider* slider_ = nullptr;
  QLabel* position_ = nullptr;
  QCheckBox* changed_only_ = nullptr;
  QLineEdit* name_filter_ = nullptr;
  QLineEdit* stage_list_ = nullptr;
  QToolButton* pick_ = nullptr;
  QComboBox* arrangement_ = nullptr;
  QAction* arrangement_action_ = nullptr;  // shows the combo box only with a second recording
  QLabel* status_ = nullptr;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_STAGE_STRIP_PANEL_H_
