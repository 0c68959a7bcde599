#ifndef FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_CANVAS_H_
#define FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_CANVAS_H_

// Draws one GraphPicture in a QGraphicsView: zoom with the wheel (around the pointer), pan by
// dragging, fit to the window. A click on a node reports its instruction; a double click on
// a box asks to expand or collapse it. Marks (selection, counterparts, a focused decision's
// pair) are set by instruction id and land on whatever visible node shows that instruction.

#include <QGraphicsView>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "views/qt/graph/graph_node_item.h"
#include "views/qt/graph/graph_picture.h"
#include "views/qt/graph/heat_overlay.h"

namespace fusescope::views {

class GraphEdgeItem;

class GraphCanvas : public QGraphicsView {
  Q_OBJECT

 public:
  explicit GraphCanvas(QWidget* parent = nullptr);

  // `refit`: show the new picture in the automatic view (a new pass); otherwise keep the
  // zoom (a box was toggled).
  void SetPicture(std::shared_ptr<const GraphPicture> picture, bool refit);
  const GraphPicture* picture() const { return shown_.picture.get(); }
  // Shown instead of a graph: "Laying out…", an error.
  void SetMessage(const QString& message);
  // The new picture is on screen at once; sceneComplete() follows on the next turn of the
  // event loop (the panel then places marks and shared views).
  bool complete() const { return complete_; }
  const QString& message() const { return message_; }

  void SetMarks(const std::vector<int64_t>& selected, const std::vector<int64_t>& counterparts,
                const std::vector<int64_t>& decision_pair);
  // Paints every node by its share of a profile's time (`side`'s shares); null: diff
  // colours. A closed box's share is the sum of what it holds; open boxes and nodes inside a
  // fusion (their fusion carries the time) keep their diff colours; nodes without time are
  // plain. The overlay colours only a picture of its own pass.
  void SetHeat(std::shared_ptr<const HeatOverlay> heat, GraphSide side);
  // Brings the marked nodes into view without changing the zoom unless they are too small.
  void CenterOnMarks();
  // The item of a visible node, made if it was not yet; null when the node is not visible.
  GraphNodeItem* ItemOfInstruction(int64_t instruction_id) const;
  GraphNodeItem* ItemOfNode(int node_id) const;
  // The items made so far: every one in view, and edges with a note.
  const std::vector<GraphEdgeItem*>& edge_items() const { return shown_.edges; }
  const std::vector<GraphNodeItem*>& node_items() const { return shown_.nodes; }

  // User zooms; they end the automatic modes.
  void ZoomBy(double factor);
  // Takes the zoom and centre of `other` (aligned pictures share coordinates).
  void FollowView(const GraphCanvas& other);
  // Shows scene point `center` in the middle at `zoom` (clamped like a user's zoom); ends the
  // automatic modes like FollowView. Panes that share one viewport are moved with it.
  void ShowAt(double zoom, const QPointF& center);
  // The scene point in the middle of the viewport.
  QPointF ViewCenter() const;
  // The zoom at which the whole picture fits the viewport, as FitAll() would set it.
  double FitZoom() const;
  // Grows the scene to cover `rect` too: aligned sides get the same extent.
  void UniteSceneRect(const QRectF& rect);
  // Fits the whole picture, and keeps it fitted when resized until the user zooms or pans.
  void FitAll();
  // What a picture first shows: what the pass changed at a zoom where labels are readable
  // (ReadableZoom() or more); when that does not fit, its densest part (views::DensestWindow);
  // when nothing changed, the top of the picture. Kept when resized until the user zooms or
  // pans.
  void AutoView();
  // The automatic view over `focus` (scene coordinates): aligned sides share one.
  void AutoView(std::vector<Rect> focus);
  // Scene rectangles of the visible nodes that differ from the other side.
  std::vector<Rect> ChangedNodes() const;
  static std::vector<Rect> ChangedNodes(const GraphPicture& picture);
  // The zoom at which a node's title is drawn at kReadablePoints on screen.
  double ReadableZoom() const;
  static constexpr double kReadablePoints = 9;
  double zoom() const { return transform().m11(); }

 signals:
  void instructionClicked(int64_t instruction_id);
  void backgroundClicked();
  void boxToggled(int node_id);
  void sceneComplete();
  // The user zoomed or panned (not emitted for programmatic moves).
  void userMovedView();

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void scrollContentsBy(int dx, int dy) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  // One scene and what it holds. Items are made only for what has been in view (with a
  // margin), marked or asked for: a picture of 20k nodes costs the GUI thread the few hundred
  // it shows, and panning or zooming makes the rest as they come into view.
  struct SceneContent {
    QGraphicsScene* scene = nullptr;
    std::shared_ptr<const GraphPicture> picture;
    std::unordered_map<int, GraphNodeItem*> items;  // by DisplayGraph node id
    std::vector<GraphNodeItem*> nodes;
    std::vector<GraphEdgeItem*> edges;
    std::vector<QGraphicsItem*> added;  // in the order they went into the scene
    // Per drawing entry (nodes, then edges): whether its item exists.
    std::vector<bool> made;
    QRectF made_area;  // every item touching it exists
  };
  // Where a view looks: its zoom and the scene point at its centre.
  struct ViewTarget {
    double zoom = 1;
    QPointF center;
  };

  static QGraphicsScene* NewScene(QObject* parent);
  // Makes the items of `content` around `view` (scene coordinates) and those of edges with
  // a note; nothing when the last call already covered `view`.
  void MakeItems(SceneContent& content, const QRectF& view) const;
  GraphNodeItem* MakeNode(SceneContent& content, size_t index) const;
  std::optional<double> HeatOf(const GraphPicture& picture, int node_id) const;
  double ShareOf(const DisplayGraph& graph, int node_id) const;
  static void MakeEdge(SceneContent& content, size_t index);
  void MakeItemsInView();
  void SwapIn(SceneContent incoming, const ViewTarget& view, bool refit);
  void FinishBuild(int64_t generation);
  void Dispose(SceneContent content);
  void DisposeItems(QGraphicsScene* scene, std::vector<QGraphicsItem*> items, size_t next);
  GraphNodeItem* NodeItemAt(const QPoint& position) const;
  void Mark(const std::vector<int64_t>& ids, GraphNodeItem::Mark mark);
  enum class ViewMode { kAuto, kFitAll, kUser };
  void Fit();
  void FitChanges();
  // The automatic view of `picture` in this viewport.
  ViewTarget AutoTarget(const GraphPicture& picture,
                        const std::optional<std::vector<Rect>>& focus) const;
  // Centred on `window`, fitted within [least_zoom, most_zoom]; least_zoom wins.
  ViewTarget WindowTarget(const Rect& window, double least_zoom, double most_zoom) const;
  void Apply(const ViewTarget& target);
  // The scene rectangle a view shows.
  QRectF AreaOf(const ViewTarget& target) const;

  // On screen. Mutable: asking for an item makes it when it was not made yet.
  mutable SceneContent shown_;
  std::vector<GraphNodeItem*> marked_;
  std::shared_ptr<const HeatOverlay> heat_;
  GraphSide heat_side_ = GraphSide::kAfter;
  QString message_;
  QPoint press_position_;
  int64_t build_generation_ = 0;
  bool complete_ = true;
  ViewMode view_mode_ = ViewMode::kAuto;
  // Set: the automatic view shows these instead of ChangedNodes().
  std::optional<std::vector<Rect>> auto_focus_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_GRAPH_GRAPH_CANVAS_H_
