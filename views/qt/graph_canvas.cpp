#include "views/qt/graph_canvas.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "views/qt/graph_edge_item.h"
#include "views/qt/off_thread_release.h"
#include "views/view_focus.h"

namespace fusescope::views {
namespace {

constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 4.0;
// Fitting never enlarges a small graph beyond this.
constexpr double kMaxFitZoom = 1.25;
// Room around what the automatic view shows, in scene units.
constexpr double kFocusMargin = 40;
// Longest stretch spent adding items before the event loop gets a turn.
constexpr qint64 kBuildSliceMs = 12;

QString EdgeLabel(const DisplayGraph& graph, const EdgeRoute& route) {
  if (route.edges.empty()) return QString();
  return QString::fromStdString(graph.edges()[static_cast<size_t>(route.edges.front())].label);
}

}  // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QGraphicsView(parent), scene_(NewScene()) {
  for (QScrollBar* bar : {horizontalScrollBar(), verticalScrollBar()}) {
    connect(bar, &QScrollBar::actionTriggered, this, [this] {
      // The bar moves after this signal; report once it has.
      QTimer::singleShot(0, this, [this] { emit userMovedView(); });
    });
  }
  setScene(scene_);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  // Every item sets the pen, brush and hints it needs.
  setOptimizationFlags(QGraphicsView::DontSavePainterState |
                       QGraphicsView::DontAdjustForAntialiasing);
  setBackgroundBrush(palette().color(QPalette::Base));
  setFrameShape(QFrame::NoFrame);
}

void GraphCanvas::SetMessage(const QString& message) {
  message_ = message;
  viewport()->update();
}

void GraphCanvas::SetPicture(std::shared_ptr<const GraphPicture> picture, bool refit) {
  // The scene's items point into the old picture: they go first, then the picture.
  std::shared_ptr<const GraphPicture> old = std::move(picture_);
  picture_ = std::move(picture);
  message_ = picture_ && !picture_->error().empty() ? QString::fromStdString(picture_->error())
                                                    : QString();
  if (picture_ && picture_->empty() && message_.isEmpty()) message_ = tr("Nothing to show");
  BuildScene();
  ReleaseOffThread(old);
  if (refit) AutoView();
}

void GraphCanvas::BuildScene() {
  ++build_generation_;
  next_node_ = 0;
  next_edge_ = 0;
  complete_ = false;
  // A toggled box keeps the view where it was; a new pass is placed by the caller.
  const QPointF center = mapToScene(viewport()->rect().center());
  ReplaceScene();
  marked_.clear();
  items_.clear();
  nodes_.clear();
  edges_.clear();
  if (!picture_ || picture_->empty()) {
    scene_->setSceneRect(QRectF());
    FinishBuild();
    return;
  }
  const GraphLayout& layout = picture_->layout();
  scene_->setSceneRect(QRectF(0, 0, layout.width(), layout.height()).adjusted(-40, -40, 40, 40));
  centerOn(center);
  ContinueBuild(build_generation_);
}

QGraphicsScene* GraphCanvas::NewScene() {
  auto* scene = new QGraphicsScene(this);
  // Items never move, and a scene is rebuilt per picture: a spatial index would be rebuilt
  // for every picture on its first paint (hundreds of milliseconds for 10k items), while a
  // linear scan of the items costs about a millisecond.
  scene->setItemIndexMethod(QGraphicsScene::NoIndex);
  return scene;
}

void GraphCanvas::ReplaceScene() {
  // Clearing a scene of thousands of items at once stalls the GUI thread: the old scene is
  // taken off screen and emptied a slice at a time instead.
  QGraphicsScene* old = scene_;
  scene_ = NewScene();
  setScene(scene_);
  // Our own lists, not old->items(), which sorts every item by stacking order first.
  QList<QGraphicsItem*> items;
  items.reserve(static_cast<qsizetype>(nodes_.size() + edges_.size()));
  items.append(QList<QGraphicsItem*>(nodes_.begin(), nodes_.end()));
  items.append(QList<QGraphicsItem*>(edges_.begin(), edges_.end()));
  DisposeScene(old, std::move(items));
}

void GraphCanvas::DisposeScene(QGraphicsScene* scene, QList<QGraphicsItem*> items) {
  QElapsedTimer clock;
  clock.start();
  while (!items.isEmpty() && clock.elapsed() < kBuildSliceMs) delete items.takeLast();
  if (items.isEmpty()) {
    delete scene;
    return;
  }
  QTimer::singleShot(0, this, [this, scene, items = std::move(items)]() mutable {
    DisposeScene(scene, std::move(items));
  });
}

void GraphCanvas::ContinueBuild(int64_t generation) {
  if (generation != build_generation_ || !picture_) return;
  // Thousands of items are added a slice at a time so that the event loop keeps turning.
  QElapsedTimer clock;
  clock.start();
  const auto& nodes = picture_->layout().nodes();
  const auto& edges = picture_->layout().edges();
  while (next_node_ < nodes.size() && clock.elapsed() < kBuildSliceMs) AddNode(nodes[next_node_++]);
  while (next_node_ == nodes.size() && next_edge_ < edges.size() &&
         clock.elapsed() < kBuildSliceMs) {
    AddEdge(edges[next_edge_++]);
  }
  if (next_node_ < nodes.size() || next_edge_ < edges.size()) {
    QTimer::singleShot(0, this, [this, generation] { ContinueBuild(generation); });
    return;
  }
  FinishBuild();
}

void GraphCanvas::FinishBuild() {
  complete_ = true;
  emit sceneComplete();
}

void GraphCanvas::AddNode(const NodePlacement& placement) {
  auto* item = new GraphNodeItem(picture_->graph().node(placement.node), placement.rect);
  scene_->addItem(item);
  items_.emplace(placement.node, item);
  nodes_.push_back(item);
}

void GraphCanvas::AddEdge(const EdgeRoute& route) {
  const DisplayGraph& graph = picture_->graph();
  QString note;
  bool refused = false;
  for (int edge : route.edges) {
    const DisplayEdge& display_edge = graph.edges()[static_cast<size_t>(edge)];
    if (display_edge.note.empty()) continue;
    note = QString::fromStdString(display_edge.note);
    refused = refused || display_edge.refused;
  }
  auto* item = new GraphEdgeItem(route, EdgeLabel(graph, route), note, refused);
  scene_->addItem(item);
  edges_.push_back(item);
}

GraphNodeItem* GraphCanvas::ItemOfNode(int node_id) const {
  auto found = items_.find(node_id);
  return found == items_.end() ? nullptr : found->second;
}

GraphNodeItem* GraphCanvas::ItemOfInstruction(int64_t instruction_id) const {
  if (!picture_) return nullptr;
  return ItemOfNode(picture_->VisibleNodeOf(instruction_id));
}

void GraphCanvas::Mark(const std::vector<int64_t>& ids, GraphNodeItem::Mark mark) {
  for (int64_t id : ids) {
    GraphNodeItem* item = ItemOfInstruction(id);
    if (!item || item->mark() == GraphNodeItem::Mark::kSelected) continue;
    item->SetMark(mark);
    marked_.push_back(item);
  }
}

void GraphCanvas::SetMarks(const std::vector<int64_t>& selected,
                           const std::vector<int64_t>& counterparts,
                           const std::vector<int64_t>& decision_pair) {
  for (GraphNodeItem* item : marked_) item->SetMark(GraphNodeItem::Mark::kNone);
  marked_.clear();
  Mark(selected, GraphNodeItem::Mark::kSelected);
  Mark(decision_pair, GraphNodeItem::Mark::kDecision);
  Mark(counterparts, GraphNodeItem::Mark::kCounterpart);
}

void GraphCanvas::CenterOnMarks() {
  if (marked_.empty()) return;
  std::vector<Rect> area;
  auto add = [&area](const QRectF& rect) {
    area.push_back(Rect{rect.x(), rect.y(), rect.width(), rect.height()});
  };
  for (const GraphNodeItem* item : marked_) add(item->sceneBoundingRect());
  // A decision's reason belongs with its pair.
  for (const GraphEdgeItem* edge : edges_) {
    if (edge->has_note()) add(edge->sceneBoundingRect());
  }
  view_mode_ = ViewMode::kUser;
  // Readable, and no further in than the user had it.
  const double readable = ReadableZoom();
  const double most = std::max(readable, std::min(zoom(), kMaxFitZoom));
  const Rect window =
      DensestWindow(area, std::max(1.0, viewport()->width() / readable - 2 * kFocusMargin),
                    std::max(1.0, viewport()->height() / readable - 2 * kFocusMargin));
  ShowWindow(window, readable, most);
}

void GraphCanvas::ZoomBy(double factor) {
  view_mode_ = ViewMode::kUser;
  const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  scale(target / zoom(), target / zoom());
}

void GraphCanvas::FitAll() {
  view_mode_ = ViewMode::kFitAll;
  Fit();
}

void GraphCanvas::AutoView() {
  view_mode_ = ViewMode::kAuto;
  auto_focus_.reset();
  FitChanges();
}

void GraphCanvas::AutoView(std::vector<Rect> focus) {
  view_mode_ = ViewMode::kAuto;
  auto_focus_ = std::move(focus);
  FitChanges();
}

std::vector<Rect> GraphCanvas::ChangedNodes() const {
  std::vector<Rect> changed;
  if (!picture_) return changed;
  // From the layout, not the items: the scene may still be filling.
  for (const NodePlacement& placement : picture_->layout().nodes()) {
    const DisplayNode& node = picture_->graph().node(placement.node);
    if (node.diff == ir::DiffStatus::kUnchanged || (node.is_box() && node.expanded)) continue;
    changed.push_back(placement.rect);
  }
  return changed;
}

double GraphCanvas::ReadableZoom() const {
  const double pixels = kReadablePoints * logicalDpiY() / 72.0;
  return pixels / NodeMetrics::kTitleFontSize;
}

void GraphCanvas::FitChanges() {
  if (!picture_ || picture_->empty()) return;
  const double readable = ReadableZoom();
  const double width = std::max(1.0, viewport()->width() / readable - 2 * kFocusMargin);
  const double height = std::max(1.0, viewport()->height() / readable - 2 * kFocusMargin);
  const std::vector<Rect> changed = auto_focus_ ? *auto_focus_ : ChangedNodes();
  if (!changed.empty()) {
    ShowWindow(DensestWindow(changed, width, height), readable, kMaxFitZoom);
    return;
  }
  std::vector<Rect> nodes;
  nodes.reserve(picture_->layout().nodes().size());
  for (const NodePlacement& placement : picture_->layout().nodes()) {
    if (!picture_->graph().node(placement.node).expanded) nodes.push_back(placement.rect);
  }
  ShowWindow(TopWindow(nodes, width, height), readable, kMaxFitZoom);
}

void GraphCanvas::ShowWindow(const Rect& window, double least_zoom, double most_zoom) {
  if (window.width <= 0 && window.height <= 0) return;
  const double fitting = std::min(viewport()->width() / (window.width + 2 * kFocusMargin),
                                  viewport()->height() / (window.height + 2 * kFocusMargin));
  const double wanted = std::clamp(fitting, least_zoom, std::max(least_zoom, most_zoom));
  setTransform(QTransform::fromScale(wanted, wanted));
  const Point middle = window.center();
  centerOn(middle.x, middle.y);
}

void GraphCanvas::Fit() {
  if (scene_->sceneRect().isEmpty()) return;
  fitInView(scene_->sceneRect(), Qt::KeepAspectRatio);
  if (zoom() > kMaxFitZoom) setTransform(QTransform::fromScale(kMaxFitZoom, kMaxFitZoom));
  if (zoom() < kMinZoom) setTransform(QTransform::fromScale(kMinZoom, kMinZoom));
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return QGraphicsView::wheelEvent(event);
  ZoomBy(std::pow(1.15, steps));
  event->accept();
  emit userMovedView();
}

void GraphCanvas::mouseMoveEvent(QMouseEvent* event) {
  QGraphicsView::mouseMoveEvent(event);
  if (event->buttons() & Qt::LeftButton) emit userMovedView();
}

void GraphCanvas::UniteSceneRect(const QRectF& rect) {
  scene_->setSceneRect(scene_->sceneRect().united(rect));
}

void GraphCanvas::FollowView(const GraphCanvas& other) {
  view_mode_ = ViewMode::kUser;
  setTransform(other.transform());
  centerOn(other.mapToScene(other.viewport()->rect().center()));
}

GraphNodeItem* GraphCanvas::NodeItemAt(const QPoint& position) const {
  // The topmost node under the pointer is the innermost: expanded boxes sit below the nodes
  // and are added before their children.
  for (QGraphicsItem* item : items(position)) {
    if (auto* node = dynamic_cast<GraphNodeItem*>(item)) return node;
  }
  return nullptr;
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
  press_position_ = event->position().toPoint();
  QGraphicsView::mousePressEvent(event);
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
  QGraphicsView::mouseReleaseEvent(event);
  if (event->button() != Qt::LeftButton) return;
  if ((event->position().toPoint() - press_position_).manhattanLength() > 4) {
    view_mode_ = ViewMode::kUser;  // a pan
    return;
  }
  GraphNodeItem* item = NodeItemAt(press_position_);
  const DisplayNode* node = item && picture_ ? &picture_->graph().node(item->node_id()) : nullptr;
  if (node && node->instruction) {
    emit instructionClicked(node->instruction->id());
  } else {
    emit backgroundClicked();
  }
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  GraphNodeItem* item = NodeItemAt(event->position().toPoint());
  if (item && item->is_box()) {
    emit boxToggled(item->node_id());
    return;
  }
  QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphCanvas::changeEvent(QEvent* event) {
  QGraphicsView::changeEvent(event);
  // Follow a theme switch: items read the palette when they paint, the background does not.
  if (event->type() == QEvent::PaletteChange) setBackgroundBrush(palette().color(QPalette::Base));
}

void GraphCanvas::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  if (view_mode_ == ViewMode::kFitAll) Fit();
  if (view_mode_ == ViewMode::kAuto) FitChanges();
}

void GraphCanvas::drawForeground(QPainter* painter, const QRectF& rect) {
  QGraphicsView::drawForeground(painter, rect);
  if (message_.isEmpty()) return;
  painter->save();
  painter->resetTransform();
  painter->setPen(palette().color(QPalette::PlaceholderText));
  painter->drawText(viewport()->rect(), Qt::AlignCenter | Qt::TextWordWrap, message_);
  painter->restore();
}

}  // namespace fusescope::views
