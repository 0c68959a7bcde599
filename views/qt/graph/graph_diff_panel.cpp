#include "views/qt/graph/graph_diff_panel.h"

#include <QAction>
#include <QLabel>
#include <QSettings>
#include <QSplitter>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "views/qt/graph/graph_canvas.h"
#include "views/qt/graph/heat_legend.h"
#include "views/qt/icons.h"
#include "views/qt/workers/latest_task_runner.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

constexpr char kAlignSetting[] = "graph/align_sides";

size_t Index(GraphSide side) { return side == GraphSide::kBefore ? 0 : 1; }

GraphSide Other(GraphSide side) {
  return side == GraphSide::kBefore ? GraphSide::kAfter : GraphSide::kBefore;
}

const passes::FusionDecisionRecord* FocusedDecision(const WorkbenchContext& context) {
  const recording::Recording* recording = context.recording();
  const PassView* view = context.pass_view();
  const int64_t index = context.selection().decision_index;
  if (!recording || !view || index < 0 ||
      index >= static_cast<int64_t>(recording->decisions.size()))
    return nullptr;
  const passes::FusionDecisionRecord& decision = recording->decisions[static_cast<size_t>(index)];
  return decision.pass_index == view->pass_index() ? &decision : nullptr;
}

}  // namespace

GraphDiffPanel::GraphDiffPanel(WorkbenchContext* context, bool use_settings, QWidget* parent)
    : QWidget(parent),
      context_(context),
      splitter_(new QSplitter(Qt::Horizontal, this)),
      status_(new QLabel(this)),
      heat_legend_(new HeatLegend(this)),
      pair_runner_(new LatestTaskRunner(this)),
      use_settings_(use_settings) {
  setupSide(GraphSide::kBefore);
  setupSide(GraphSide::kAfter);
  setupToolbar();
  setupLayout();
  context_->AddObserver(this, this);
}

GraphCanvas* GraphDiffPanel::canvas(GraphSide which) const { return sides_[Index(which)].canvas; }

GraphDiffPanel::Side& GraphDiffPanel::side(GraphSide which) { return sides_[Index(which)]; }

bool GraphDiffPanel::settled() const {
  return !sides_[0].pending && !sides_[1].pending && sides_[0].canvas->complete() &&
         sides_[1].canvas->complete() && context_->pass_view() &&
         shown_pass_ == context_->pass_view()->pass_index();
}

void GraphDiffPanel::setupSide(GraphSide which) {
  Side& s = side(which);
  s.canvas = new GraphCanvas(this);
  s.title = new QLabel(this);
  s.title->setContentsMargins(6, 3, 6, 3);
  s.title->setTextFormat(Qt::RichText);
  s.title->setWordWrap(true);
  // Long titles must not decide how the two sides share the width.
  s.title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  s.runner = new LatestTaskRunner(this);
  connect(s.canvas, &GraphCanvas::instructionClicked, this,
          [this, which](int64_t id) { Clicked(which, id); });
  connect(s.canvas, &GraphCanvas::backgroundClicked, this,
          [this] { context_->SetSelection(Selection()); });
  connect(s.canvas, &GraphCanvas::boxToggled, this,
          [this, which](int node) { ToggleBox(which, node); });
  connect(s.canvas, &GraphCanvas::sceneComplete, this, [this, which] { SceneComplete(which); });
  connect(s.canvas, &GraphCanvas::userMovedView, this, [this, which] {
    // Aligned pictures share coordinates: the other side follows the user's view.
    if (align_sides_->isChecked()) canvas(Other(which))->FollowView(*canvas(which));
  });
  auto* pane = new QWidget(splitter_);
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(s.title);
  layout->addWidget(s.canvas, 1);
  splitter_->addWidget(pane);
}

void GraphDiffPanel::SetSinglePane(bool single) {
  if (single == single_pane_) return;
  single_pane_ = single;
  // The first pane of the splitter is the graph before the pass.
  if (QWidget* before = splitter_->widget(0)) before->setVisible(!single);
  QTimer::singleShot(0, this, [this] { canvas(GraphSide::kAfter)->FitAll(); });
}

void GraphDiffPanel::setupToolbar() {
  show_counterparts_ = new QAction(Icons::Get("counterpart"), tr("Show Counterparts"), this);
  show_counterparts_->setCheckable(true);
  show_counterparts_->setChecked(true);
  show_counterparts_->setToolTip(
      tr("Mark on the other side what the selected node became or came from"));
  connect(show_counterparts_, &QAction::toggled, this, [this] { ApplyMarks(true); });
  hide_constants_ = new QAction(tr("Hide Constants"), this);
  hide_constants_->setCheckable(true);
  connect(hide_constants_, &QAction::toggled, this, [this] { RequestPictures(); });
  align_sides_ = new QAction(tr("Align Sides"), this);
  align_sides_->setCheckable(true);
  // Off by default: the union of a fusion pass's two graphs is wide, and each side alone
  // reads better at first sight. The user's choice is remembered.
  align_sides_->setChecked(use_settings_ && QSettings().value(kAlignSetting, false).toBool());
  align_sides_->setToolTip(
      tr("Lay both graphs out together so that what the pass left alone "
         "lines up"));
  connect(align_sides_, &QAction::toggled, this, [this](bool on) {
    if (use_settings_) QSettings().setValue(kAlignSetting, on);
    for (Side& s : sides_) s.refit = true;
    RequestPictures();
  });
}

void GraphDiffPanel::setupLayout() {
  auto* bar = new QToolBar(this);
  toolbar_ = bar;
  bar->setIconSize(QSize(16, 16));
  auto both = [this](auto call) {
    return [this, call] {
      for (Side& s : sides_) call(s.canvas);
    };
  };
  bar->addAction(Icons::Get("zoom-in"), tr("Zoom In"), this,
                 both([](GraphCanvas* c) { c->ZoomBy(1.25); }));
  bar->addAction(Icons::Get("zoom-out"), tr("Zoom Out"), this,
                 both([](GraphCanvas* c) { c->ZoomBy(0.8); }));
  bar->addAction(Icons::Get("zoom-fit"), tr("Fit"), this,
                 both([](GraphCanvas* c) { c->FitAll(); }));
  bar->addSeparator();
  bar->addAction(Icons::Get("expand"), tr("Expand All Boxes"), this, &GraphDiffPanel::ExpandAll);
  bar->addAction(Icons::Get("collapse"), tr("Collapse All Boxes"), this,
                 &GraphDiffPanel::CollapseAll);
  bar->addSeparator();
  bar->addAction(show_counterparts_);
  bar->addAction(align_sides_);
  bar->addAction(hide_constants_);
  bar->addSeparator();
  bar->addWidget(status_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(bar);
  layout->addWidget(heat_legend_);
  heat_legend_->hide();
  layout->addWidget(splitter_, 1);
  splitter_->setStretchFactor(0, 1);
  splitter_->setStretchFactor(1, 1);
  splitter_->setChildrenCollapsible(false);
}

void GraphDiffPanel::AddOverlayAction(QAction* action) {
  toolbar_->insertAction(toolbar_->actions().value(toolbar_->actions().size() - 2), action);
}

void GraphDiffPanel::SetHeat(std::shared_ptr<const HeatOverlay> heat) {
  heat_ = std::move(heat);
  heat_legend_->SetHeat(heat_);
  for (GraphSide which : {GraphSide::kBefore, GraphSide::kAfter}) {
    canvas(which)->SetHeat(heat_, which);
  }
}

std::optional<EdgeAnnotation> GraphDiffPanel::Annotation() const {
  const passes::FusionDecisionRecord* decision = FocusedDecision(*context_);
  if (!decision) return std::nullopt;
  EdgeAnnotation note;
  note.producer_id = decision->producer_id;
  note.consumer_id = decision->consumer_id;
  note.refused = !decision->accepted();
  const std::string verdict = decision->accepted() ? "✓ fused" : "✗ refused";
  note.text = verdict + " (" + std::string(passes::FusionReasonCode(decision->reason)) +
              "): " + decision->explanation;
  return note;
}

void GraphDiffPanel::RequestPictures(const std::vector<int64_t>& reveal) {
  const PassView* view = context_->pass_view();
  if (!view) return;
  annotated_decision_ = FocusedDecision(*context_) ? context_->selection().decision_index : -1;
  status_->setText(tr("Laying out…"));
  if (align_sides_->isChecked()) {
    RequestAlignedPictures(reveal);
    return;
  }
  RequestPicture(GraphSide::kBefore, reveal);
  RequestPicture(GraphSide::kAfter, reveal);
}

GraphRequest GraphDiffPanel::MakeRequest(GraphSide which, const std::vector<int64_t>& reveal) {
  GraphRequest request;
  request.view = context_->shared_pass_view();
  request.side = which;
  request.options.hide_constants = hide_constants_->isChecked();
  request.expanded = side(which).expanded;
  request.reveal = reveal;
  request.annotation = Annotation();
  return request;
}

void GraphDiffPanel::RequestAlignedPictures(const std::vector<int64_t>& reveal) {
  const GraphRequest before = MakeRequest(GraphSide::kBefore, reveal);
  const GraphRequest after = MakeRequest(GraphSide::kAfter, reveal);
  // A request of the other kind still in flight must not land after this one.
  for (Side& s : sides_) {
    s.runner->Cancel();
    s.pending = true;
  }
  pair_runner_->Submit([this, before, after]() -> LatestTaskRunner::Deliver {
    GraphPicture::Pair pair = GraphPicture::BuildAligned(before, after);
    return [this, pair] {
      Deliver(GraphSide::kBefore, pair.before);
      Deliver(GraphSide::kAfter, pair.after);
    };
  });
}

void GraphDiffPanel::RequestPicture(GraphSide which, const std::vector<int64_t>& reveal) {
  Side& s = side(which);
  const GraphRequest request = MakeRequest(which, reveal);
  pair_runner_->Cancel();
  s.pending = true;
  s.runner->Submit([this, request, which]() -> LatestTaskRunner::Deliver {
    std::shared_ptr<const GraphPicture> picture = GraphPicture::Build(request);
    return [this, picture, which] { Deliver(which, picture); };
  });
}

void GraphDiffPanel::Deliver(GraphSide which, std::shared_ptr<const GraphPicture> picture) {
  Side& s = side(which);
  s.pending = false;
  if (!picture->empty()) s.expanded = picture->expanded_keys();
  const bool refit = s.refit;
  s.refit = false;
  if (refit && align_sides_->isChecked()) align_views_ = true;
  s.canvas->SetPicture(picture, refit);
}

void GraphDiffPanel::SceneComplete(GraphSide which) {
  ApplyMarks(which, false);
  const GraphPicture* before = canvas(GraphSide::kBefore)->picture();
  const GraphPicture* after = canvas(GraphSide::kAfter)->picture();
  if (sides_[0].pending || sides_[1].pending || !before || !after) return;
  if (!canvas(GraphSide::kBefore)->complete() || !canvas(GraphSide::kAfter)->complete()) return;
  if (align_sides_->isChecked()) {
    const QRectF extent =
        canvas(GraphSide::kBefore)->sceneRect().united(canvas(GraphSide::kAfter)->sceneRect());
    for (Side& s : sides_) s.canvas->UniteSceneRect(extent);
  }
  if (align_views_) {
    align_views_ = false;
    std::vector<Rect> changes = canvas(GraphSide::kBefore)->ChangedNodes();
    const std::vector<Rect> after_changes = canvas(GraphSide::kAfter)->ChangedNodes();
    changes.insert(changes.end(), after_changes.begin(), after_changes.end());
    for (Side& s : sides_) s.canvas->AutoView(changes);
  }
  // The selection, when there is one, matters more than the overview.
  ApplyMarks(true);
  shown_pass_ = after->request().view->pass_index();
  status_->clear();
  UpdateTitles();
  emit picturesSettled();
}

void GraphDiffPanel::ApplyMarks(bool center) {
  ApplyMarks(GraphSide::kBefore, center);
  ApplyMarks(GraphSide::kAfter, center);
}

void GraphDiffPanel::ApplyMarks(GraphSide which, bool center) {
  const PassView* view = context_->pass_view();
  GraphCanvas* target = canvas(which);
  if (!view || !target->picture()) return;
  const Selection& selection = context_->selection();
  std::vector<int64_t> selected;
  std::vector<int64_t> counterparts;
  std::vector<int64_t> pair;
  if (selection.instruction_id >= 0 && selection.side == which) {
    selected.push_back(selection.instruction_id);
  } else if (selection.instruction_id >= 0 && show_counterparts_->isChecked()) {
    counterparts = view->Counterparts(selection.side, selection.instruction_id);
  }
  if (const passes::FusionDecisionRecord* decision = FocusedDecision(*context_)) {
    pair = {decision->producer_id, decision->consumer_id};
  }
  target->SetMarks(selected, counterparts, pair);
  if (center) target->CenterOnMarks();
}

bool GraphDiffPanel::NeedsReveal() const {
  const Selection& selection = context_->selection();
  const GraphCanvas* target = canvas(selection.side);
  const GraphPicture* picture = target->picture();
  const PassView* view = context_->pass_view();
  if (selection.instruction_id < 0 || !picture || !view) return false;
  const ir::Instruction* instruction = view->Find(selection.side, selection.instruction_id);
  const int node = instruction ? picture->graph().FindInstruction(instruction) : -1;
  if (node < 0) return false;
  // A fusion body is opened only on request; scopes and groups open to show the node.
  const int shown = picture->graph().Representative(node);
  return shown != node && picture->graph().node(shown).kind != DisplayNodeKind::kFusion;
}

void GraphDiffPanel::Clicked(GraphSide which, int64_t instruction_id) {
  context_->SetSelection(Selection{instruction_id, which, -1}, this);
  if (annotated_decision_ >= 0) {
    RequestPictures();
    return;
  }
  ApplyMarks(which, false);
  ApplyMarks(Other(which), true);
}

void GraphDiffPanel::ToggleBox(GraphSide which, int node_id) {
  Side& s = side(which);
  const GraphPicture* picture = s.canvas->picture();
  if (!picture) return;
  const DisplayNode& node = picture->graph().node(node_id);
  const bool expand = !node.expanded;
  if (align_sides_->isChecked()) {
    // Aligned pictures share one expansion state.
    for (Side& each : sides_) {
      std::unordered_set<std::string> keys = each.canvas->picture()
                                                 ? each.canvas->picture()->expanded_keys()
                                                 : std::unordered_set<std::string>();
      if (expand) {
        keys.insert(node.key);
      } else {
        keys.erase(node.key);
      }
      each.expanded = std::move(keys);
    }
    RequestPictures();
    return;
  }
  std::unordered_set<std::string> keys = picture->expanded_keys();
  if (expand) {
    keys.insert(node.key);
  } else {
    keys.erase(node.key);
  }
  s.expanded = std::move(keys);
  RequestPicture(which, {});
}

void GraphDiffPanel::SetAllExpanded(bool expanded) {
  for (Side& s : sides_) {
    const GraphPicture* picture = s.canvas->picture();
    if (!picture) continue;
    s.expanded = expanded ? picture->box_keys() : std::unordered_set<std::string>();
    s.refit = true;
  }
  RequestPictures();
}

void GraphDiffPanel::ExpandAll() { SetAllExpanded(true); }

void GraphDiffPanel::CollapseAll() { SetAllExpanded(false); }

void GraphDiffPanel::UpdateTitles() {
  const PassView* view = context_->pass_view();
  if (!view) return;
  const recording::PassRecord* pass = view->pass();
  const QString name = pass ? QStringLiteral("pass %1 <b>%2</b>")
                                  .arg(pass->index)
                                  .arg(QString::fromStdString(pass->name))
                            : tr("the input");
  const auto size = [view](GraphSide which) {
    const recording::OperationCounts& counts = view->counts(which);
    QString text = tr("%1 operations").arg(counts.operations);
    if (counts.fusions > 0) {
      text += tr(", %1 fusions holding %2").arg(counts.fusions).arg(counts.fused_instructions);
    }
    return text;
  };
  side(GraphSide::kBefore)
      .title->setText(tr("Before %1 — %2<br><small>%3</small>")
                          .arg(name, size(GraphSide::kBefore), tr("the module the pass ran on")));
  QString after = tr("After %1 — %2").arg(name, size(GraphSide::kAfter));
  if (view->diff())
    after += QStringLiteral("<br><small>%1</small>")
                 .arg(QString::fromStdString(view->diff()->CountsLine()));
  side(GraphSide::kAfter).title->setText(after);
}

void GraphDiffPanel::OnRecordingLoaded(const WorkbenchContext&) {
  for (Side& s : sides_) {
    s.expanded.reset();
    s.refit = true;
  }
  shown_pass_ = -2;
}

void GraphDiffPanel::OnPassChanged(const WorkbenchContext& context) {
  const PassView* view = context.pass_view();
  if (!view) return;
  if (view->pass_index() != shown_pass_) {
    for (Side& s : sides_) s.refit = true;
  }
  std::vector<int64_t> reveal;
  if (const passes::FusionDecisionRecord* decision = FocusedDecision(context)) {
    reveal = {decision->producer_id, decision->consumer_id};
  }
  RequestPictures(reveal);
}

void GraphDiffPanel::OnSelectionChanged(const WorkbenchContext& context) {
  const int64_t wanted = FocusedDecision(context) ? context.selection().decision_index : -1;
  if (wanted != annotated_decision_) {
    std::vector<int64_t> reveal;
    if (const passes::FusionDecisionRecord* decision = FocusedDecision(context)) {
      reveal = {decision->producer_id, decision->consumer_id};
    }
    RequestPictures(reveal);
    return;
  }
  if (NeedsReveal()) {
    RequestPictures({context.selection().instruction_id});
    return;
  }
  ApplyMarks(true);
}

}  // namespace fusescope::views
