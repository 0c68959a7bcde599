#include "views/qt/graph/graph_canvas.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "views/qt/graph/graph_edge_item.h"
#include "views/qt/workers/off_thread_release.h"
#include "views/view_focus.h"

namespace fusescope::views {
namespace {

constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 4.0;
// Fitting never enlarges a small graph beyond this.
constexpr double kMaxFitZoom = 1.25;
// Room around what the automatic view shows, in scene units.
constexpr double kFocusMargin = 40;
// Longest stretch spent deleting items before the event loop gets a turn.
constexpr qint64 kDisposeSliceMs = 8;

}  // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QGraphicsView(parent) {
  shown_.scene = NewScene(this);
  for (QScrollBar* bar : {horizontalScrollBar(), verticalScrollBar()}) {
    connect(bar, &QScrollBar::actionTriggered, this, [this] {
      // The bar moves after this signal; report once it has.
      QTimer::singleShot(0, this, [this] { emit userMovedView(); });
    });
  }
  setScene(shown_.scene);
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
  // A bar that comes and goes as pictures grow and shrink would resize the viewport after
  // each new picture is shown, and have it fitted and painted a second time.
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
}

void GraphCanvas::SetMessage(const QString& message) {
  message_ = message;
  viewport()->update();
}

void GraphCanvas::SetPicture(std::shared_ptr<const GraphPicture> picture, bool refit) {
  ++build_generation_;
  complete_ = false;
  SceneContent incoming;
  incoming.scene = NewScene(this);
  incoming.picture = std::move(picture);
  // A toggled box keeps the view where it was; a new pass opens in the automatic view.
  ViewTarget view{zoom(), mapToScene(viewport()->rect().center())};
  if (const GraphPicture* shown = incoming.picture.get(); shown && !shown->empty()) {
    const GraphLayout& layout = shown->layout();
    incoming.scene->setSceneRect(
        QRectF(0, 0, layout.width(), layout.height()).adjusted(-40, -40, 40, 40));
    incoming.made.assign(shown->drawing().nodes.size() + shown->drawing().edges.size(), false);
    if (refit) view = AutoTarget(*shown, std::nullopt);
    // Off screen, so that the view paints the new scene once, whole.
    MakeItems(incoming, AreaOf(view));
  }
  SwapIn(std::move(incoming), view, refit);
  const int64_t generation = build_generation_;
  QTimer::singleShot(0, this, [this, generation] { FinishBuild(generation); });
}

QGraphicsScene* GraphCanvas::NewScene(QObject* parent) {
  auto* scene = new QGraphicsScene(parent);
  // Items never move, and a scene is rebuilt per picture: a spatial index would be rebuilt
  // for every picture on its first paint, while the few hundred items made for the view are
  // scanned in no time.
  scene->setItemIndexMethod(QGraphicsScene::NoIndex);
  return scene;
}

QRectF GraphCanvas::AreaOf(const ViewTarget& target) const {
  const double zoom = std::max(target.zoom, kMinZoom);
  const QSizeF size(viewport()->width() / zoom, viewport()->height() / zoom);
  return QRectF(target.center - QPointF(size.width() / 2, size.height() / 2), size);
}

void GraphCanvas::MakeItems(SceneContent& content, const QRectF& view) const {
  if (!content.picture || content.made_area.contains(view)) return;
  // Half a view around it, so that a small pan finds its items made.
  const QRectF area =
      view.adjusted(-view.width() / 2, -view.height() / 2, view.width() / 2, view.height() / 2);
  content.made_area = area;
  const GraphDrawing& drawing = content.picture->drawing();
  for (size_t i = 0; i < drawing.nodes.size(); ++i) {
    if (!content.made[i] && drawing.nodes[i].rect.intersects(area)) MakeNode(content, i);
  }
  const size_t edges = drawing.nodes.size();
  for (size_t i = 0; i < drawing.edges.size(); ++i) {
    if (content.made[edges + i]) continue;
    // A decision's note is always made: the panel brings it into view.
    const EdgeDrawing& edge = drawing.edges[i];
    if (!edge.note.isEmpty() || edge.Reaches(area)) MakeEdge(content, i);
  }
}

GraphNodeItem* GraphCanvas::MakeNode(SceneContent& content, size_t index) const {
  content.made[index] = true;
  const NodeDrawing& drawing = content.picture->drawing().nodes[index];
  auto* item = new GraphNodeItem(drawing);
  if (heat_) item->SetHeat(HeatOf(*content.picture, drawing.node));
  content.items.emplace(drawing.node, item);
  content.nodes.push_back(item);
  content.scene->addItem(item);
  content.added.push_back(item);
  return item;
}

void GraphCanvas::MakeEdge(SceneContent& content, size_t index) {
  const GraphDrawing& drawing = content.picture->drawing();
  content.made[drawing.nodes.size() + index] = true;
  auto* item = new GraphEdgeItem(drawing.edges[index]);
  content.edges.push_back(item);
  content.scene->addItem(item);
  content.added.push_back(item);
}

void GraphCanvas::MakeItemsInView() {
  if (!shown_.picture || shown_.picture->empty()) return;
  MakeItems(shown_, AreaOf(ViewTarget{zoom(), mapToScene(viewport()->rect().center())}));
}

void GraphCanvas::SwapIn(SceneContent incoming, const ViewTarget& view, bool refit) {
  SceneContent old = std::move(shown_);
  shown_ = std::move(incoming);
  marked_.clear();
  const GraphPicture* picture = shown_.picture.get();
  message_ =
      picture && !picture->error().empty() ? QString::fromStdString(picture->error()) : QString();
  if (picture && picture->empty() && message_.isEmpty()) message_ = tr("Nothing to show");
  setScene(shown_.scene);
  if (refit) {
    view_mode_ = ViewMode::kAuto;
    auto_focus_.reset();
  }
  Apply(view);
  Dispose(std::move(old));
}

void GraphCanvas::FinishBuild(int64_t generation) {
  if (generation != build_generation_) return;
  complete_ = true;
  emit sceneComplete();
}

void GraphCanvas::Dispose(SceneContent content) {
  // The items copied what they draw; the picture can go (its modules are large).
  ReleaseOffThread(content.picture);
  if (!content.scene) return;
  // A scene of thousands of items (everything Fit All showed) is emptied off screen a slice
  // at a time, oldest item first: the scene's item lists then give each up at their front.
  DisposeItems(content.scene, std::move(content.added), 0);
}

void GraphCanvas::DisposeItems(QGraphicsScene* scene, std::vector<QGraphicsItem*> items,
                               size_t next) {
  QElapsedTimer clock;
  clock.start();
  while (next < items.size() && clock.elapsed() < kDisposeSliceMs) delete items[next++];
  if (next == items.size()) {
    delete scene;
    return;
  }
  QTimer::singleShot(0, this, [this, scene, items = std::move(items), next]() mutable {
    DisposeItems(scene, std::move(items), next);
  });
}

GraphNodeItem* GraphCanvas::ItemOfNode(int node_id) const {
  auto found = shown_.items.find(node_id);
  if (found != shown_.items.end()) return found->second;
  if (!shown_.picture) return nullptr;
  const auto& index = shown_.picture->drawing().node_index;
  auto at = index.find(node_id);
  return at == index.end() ? nullptr : MakeNode(shown_, at->second);
}

GraphNodeItem* GraphCanvas::ItemOfInstruction(int64_t instruction_id) const {
  if (!shown_.picture) return nullptr;
  return ItemOfNode(shown_.picture->VisibleNodeOf(instruction_id));
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

void GraphCanvas::SetHeat(std::shared_ptr<const HeatOverlay> heat, GraphSide side) {
  heat_ = std::move(heat);
  heat_side_ = side;
  for (GraphNodeItem* item : shown_.nodes) {
    item->SetHeat(heat_ ? HeatOf(*shown_.picture, item->node_id()) : std::nullopt);
  }
}

double GraphCanvas::ShareOf(const DisplayGraph& graph, int node_id) const {
  const DisplayNode& node = graph.node(node_id);
  if (node.instruction) {
    const auto& shares = heat_->of(heat_side_);
    auto found = shares.find(node.instruction->id());
    return found == shares.end() ? 0 : found->second;
  }
  double sum = 0;
  for (int child : node.children) sum += ShareOf(graph, child);
  return sum;
}

std::optional<double> GraphCanvas::HeatOf(const GraphPicture& picture, int node_id) const {
  // Another pass's overlay (the new one is still being attributed) would colour wrongly.
  if (picture.request().view && picture.request().view->pass_index() != heat_->pass) {
    return std::nullopt;
  }
  const DisplayGraph& graph = picture.graph();
  if (node_id < 0 || node_id >= static_cast<int>(graph.nodes().size())) return std::nullopt;
  const DisplayNode& node = graph.node(node_id);
  // An open box's contents carry its heat; a fused instruction's fusion carries its own.
  if (node.is_box() && node.expanded) return std::nullopt;
  if (node.parent >= 0 && graph.node(node.parent).kind == DisplayNodeKind::kFusion) {
    return std::nullopt;
  }
  return heat_->Fraction(ShareOf(graph, node_id));
}

void GraphCanvas::CenterOnMarks() {
  if (marked_.empty()) return;
  std::vector<Rect> area;
  auto add = [&area](const QRectF& rect) {
    area.push_back(Rect{rect.x(), rect.y(), rect.width(), rect.height()});
  };
  for (const GraphNodeItem* item : marked_) add(item->sceneBoundingRect());
  // A decision's reason belongs with its pair.
  for (const GraphEdgeItem* edge : shown_.edges) {
    if (edge->has_note()) add(edge->sceneBoundingRect());
  }
  view_mode_ = ViewMode::kUser;
  // Readable, and no further in than the user had it.
  const double readable = ReadableZoom();
  const double most = std::max(readable, std::min(zoom(), kMaxFitZoom));
  const Rect window =
      DensestWindow(area, std::max(1.0, viewport()->width() / readable - 2 * kFocusMargin),
                    std::max(1.0, viewport()->height() / readable - 2 * kFocusMargin));
  Apply(WindowTarget(window, readable, most));
}

void GraphCanvas::ZoomBy(double factor) {
  view_mode_ = ViewMode::kUser;
  const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  scale(target / zoom(), target / zoom());
  MakeItemsInView();
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
  return shown_.picture ? ChangedNodes(*shown_.picture) : std::vector<Rect>();
}

std::vector<Rect> GraphCanvas::ChangedNodes(const GraphPicture& picture) {
  std::vector<Rect> changed;
  // From the layout, not the items: the scene may still be filling.
  for (const NodePlacement& placement : picture.layout().nodes()) {
    const DisplayNode& node = picture.graph().node(placement.node);
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
  if (!shown_.picture || shown_.picture->empty()) return;
  Apply(AutoTarget(*shown_.picture, auto_focus_));
}

GraphCanvas::ViewTarget GraphCanvas::AutoTarget(
    const GraphPicture& picture, const std::optional<std::vector<Rect>>& focus) const {
  const double readable = ReadableZoom();
  const double width = std::max(1.0, viewport()->width() / readable - 2 * kFocusMargin);
  const double height = std::max(1.0, viewport()->height() / readable - 2 * kFocusMargin);
  const std::vector<Rect> changed = focus ? *focus : ChangedNodes(picture);
  if (!changed.empty()) {
    return WindowTarget(DensestWindow(changed, width, height), readable, kMaxFitZoom);
  }
  std::vector<Rect> nodes;
  nodes.reserve(picture.layout().nodes().size());
  for (const NodePlacement& placement : picture.layout().nodes()) {
    if (!picture.graph().node(placement.node).expanded) nodes.push_back(placement.rect);
  }
  return WindowTarget(TopWindow(nodes, width, height), readable, kMaxFitZoom);
}

GraphCanvas::ViewTarget GraphCanvas::WindowTarget(const Rect& window, double least_zoom,
                                                  double most_zoom) const {
  if (window.width <= 0 && window.height <= 0) {
    return ViewTarget{zoom(), mapToScene(viewport()->rect().center())};
  }
  const double fitting = std::min(viewport()->width() / (window.width + 2 * kFocusMargin),
                                  viewport()->height() / (window.height + 2 * kFocusMargin));
  const Point middle = window.center();
  return ViewTarget{std::clamp(fitting, least_zoom, std::max(least_zoom, most_zoom)),
                    QPointF(middle.x, middle.y)};
}

void GraphCanvas::Apply(const ViewTarget& target) {
  setTransform(QTransform::fromScale(target.zoom, target.zoom));
  centerOn(target.center);
  MakeItemsInView();
}

void GraphCanvas::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  MakeItemsInView();
}

void GraphCanvas::Fit() {
  if (shown_.scene->sceneRect().isEmpty()) return;
  fitInView(shown_.scene->sceneRect(), Qt::KeepAspectRatio);
  if (zoom() > kMaxFitZoom) setTransform(QTransform::fromScale(kMaxFitZoom, kMaxFitZoom));
  if (zoom() < kMinZoom) setTransform(QTransform::fromScale(kMinZoom, kMinZoom));
  MakeItemsInView();
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
  shown_.scene->setSceneRect(shown_.scene->sceneRect().united(rect));
}

void GraphCanvas::FollowView(const GraphCanvas& other) {
  view_mode_ = ViewMode::kUser;
  setTransform(other.transform());
  centerOn(other.mapToScene(other.viewport()->rect().center()));
  MakeItemsInView();
}

void GraphCanvas::ShowAt(double zoom, const QPointF& center) {
  view_mode_ = ViewMode::kUser;
  Apply(ViewTarget{std::clamp(zoom, kMinZoom, kMaxZoom), center});
}

QPointF GraphCanvas::ViewCenter() const { return mapToScene(viewport()->rect().center()); }

double GraphCanvas::FitZoom() const {
  const QRectF rect = shown_.scene->sceneRect();
  if (rect.isEmpty()) return zoom();
  const double fitting =
      std::min(viewport()->width() / rect.width(), viewport()->height() / rect.height());
  return std::clamp(fitting, kMinZoom, kMaxFitZoom);
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
  const DisplayNode* node =
      item && shown_.picture ? &shown_.picture->graph().node(item->node_id()) : nullptr;
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
  MakeItemsInView();
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
