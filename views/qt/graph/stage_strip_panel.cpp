#include "views/qt/graph/stage_strip_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <unordered_set>

#include "views/qt/graph/graph_canvas.h"
#include "views/qt/icons.h"
#include "views/qt/workers/latest_task_runner.h"
#include "views/qt/workers/off_thread_release.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

// A one-line label that elides what does not fit and shows it whole in its tool tip; it
// never asks for more width than it has, so long pass names do not decide the panes' widths.
class ElidedLabel : public QLabel {
 public:
  explicit ElidedLabel(QWidget* parent) : QLabel(parent) {
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
  }
  void SetFullText(const QString& text) {
    full_ = text;
    Elide();
  }
  QSize minimumSizeHint() const override { return {0, QLabel::minimumSizeHint().height()}; }

 protected:
  void resizeEvent(QResizeEvent* event) override {
    QLabel::resizeEvent(event);
    Elide();
  }

 private:
  void Elide() {
    const int room = contentsRect().width();
    setText(fontMetrics().elidedText(full_, Qt::ElideRight, std::max(room, 0)));
  }
  QString full_;
};

// The module side a stage's picture shows: the input is the first pass's before side.
GraphSide SideOf(const Stage& stage) {
  return stage.pass < 0 ? GraphSide::kBefore : GraphSide::kAfter;
}

// The pass whose PassView holds the stage's module.
int64_t ViewPassOf(const Stage& stage) { return std::max<int64_t>(stage.pass, 0); }

// Whether the stage shows `id` as itself: a fused instruction keeps its id inside the fusion
// body, but the pane shows its fusion, which is what stands for it there.
bool ShowsItself(const PassView& view, GraphSide side, int64_t id) {
  const ir::Instruction* instruction = view.Find(side, id);
  return instruction && !instruction->parent()->fusion_instruction();
}

// The original instructions `instruction` came from; itself when it carries none.
ir::ProvenanceSet OriginsOf(const ir::Instruction& instruction) {
  if (!instruction.provenance().empty()) return instruction.provenance();
  return ir::ProvenanceSet{instruction.id()};
}

// The instructions of `module` (fusion bodies included) made from any of `origins`: where a
// pass fused or replaced the selected instruction, what now stands for it; before the pass
// that made a fusion, what it absorbed.
std::vector<int64_t> FollowedInstructions(const ir::Module& module,
                                          const ir::ProvenanceSet& origins) {
  const std::unordered_set<int64_t> wanted(origins.ids().begin(), origins.ids().end());
  std::vector<int64_t> followed;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      const std::vector<int64_t>& ids = instruction->provenance().ids();
      if (std::any_of(ids.begin(), ids.end(), [&](int64_t id) { return wanted.contains(id); }))
        followed.push_back(instruction->id());
    }
  }
  return followed;
}

QPointF NodeCenter(const GraphPicture& picture, int node) {
  const auto& index = picture.drawing().node_index;
  auto found = index.find(node);
  if (found == index.end()) return {};
  return picture.drawing().nodes[found->second].rect.center();
}

int64_t ChangedNodes(const PassView& view) {
  if (!view.diff()) return 0;
  const ir::DiffCounts& counts = view.diff()->counts();
  return counts.changed + counts.added + counts.removed + counts.fused + counts.replaced;
}

}  // namespace

StageStripPanel::StageStripPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), context_(context), splitter_(new QSplitter(Qt::Horizontal, this)) {
  setupToolbar();
  setupLayout();
  SyncPaneCount();
  UpdateControls();
  context_->AddObserver(this, this);
}

StageStripPanel::~StageStripPanel() {
  for (Pane& pane : panes_) ReleaseOffThread(pane.view);
}

void StageStripPanel::setupToolbar() {
  panes_box_ = new QSpinBox(this);
  panes_box_->setRange(StageWindow::kMinPanes, StageWindow::kMaxPanes);
  panes_box_->setValue(window_.pane_count());
  panes_box_->setSuffix(tr(" panes"));
  panes_box_->setToolTip(tr("How many stages to show side by side"));
  connect(panes_box_, &QSpinBox::valueChanged, this, &StageStripPanel::SetPaneCount);
  previous_ = new QToolButton(this);
  previous_->setIcon(Icons::Get("step-prev"));
  previous_->setToolTip(tr("Move the strip one stage back"));
  connect(previous_, &QToolButton::clicked, this, [this] { Step(-1); });
  next_ = new QToolButton(this);
  next_->setIcon(Icons::Get("step-next"));
  next_->setToolTip(tr("Move the strip one stage on"));
  connect(next_, &QToolButton::clicked, this, [this] { Step(1); });
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setMinimumWidth(120);
  slider_->setPageStep(1);
  slider_->setToolTip(tr("Scrub through the stages"));
  connect(slider_, &QSlider::valueChanged, this, &StageStripPanel::SetPosition);
  position_ = new QLabel(this);
  status_ = new QLabel(this);
  setupChoosers();
}

// What picks the stages: the filters over the passes, a typed or picked list, and with a
// second recording how its stages stand beside the first's.
void StageStripPanel::setupChoosers() {
  changed_only_ = new QCheckBox(tr("Changed only"), this);
  changed_only_->setToolTip(tr("Only the passes that changed the module"));
  connect(changed_only_, &QCheckBox::toggled, this, &StageStripPanel::SetChangedOnly);
  name_filter_ = new QLineEdit(this);
  name_filter_->setPlaceholderText(tr("Pass name contains…"));
  name_filter_->setClearButtonEnabled(true);
  name_filter_->setMaximumWidth(180);
  name_filter_->setToolTip(tr("Only the passes whose names contain this (\"fusion\")"));
  connect(name_filter_, &QLineEdit::textChanged, this, &StageStripPanel::SetNameFilter);
  stage_list_ = new QLineEdit(this);
  stage_list_->setPlaceholderText(tr("Stages: 3, 7-9, last, B:last"));
  stage_list_->setClearButtonEnabled(true);
  stage_list_->setMaximumWidth(200);
  stage_list_->setToolTip(
      tr("Exactly these stages: pass numbers, ranges, input, last; B: for the second "
         "recording. Empty: the passes the filters let through."));
  connect(stage_list_, &QLineEdit::editingFinished, this, &StageStripPanel::ApplyStageList);
  pick_ = new QToolButton(this);
  pick_->setText(tr("Pick"));
  pick_->setToolTip(tr("Add a pass to the list of stages"));
  pick_->setPopupMode(QToolButton::InstantPopup);
  pick_->setMenu(new QMenu(pick_));
  arrangement_ = new QComboBox(this);
  arrangement_->addItem(tr("First recording"), static_cast<int>(StageArrangement::kFirst));
  arrangement_->addItem(tr("Interleaved A / B"), static_cast<int>(StageArrangement::kInterleaved));
  arrangement_->addItem(tr("Second recording"), static_cast<int>(StageArrangement::kSecond));
  arrangement_->setToolTip(tr("How the stages of the second recording stand beside the first's"));
  connect(arrangement_, &QComboBox::activated, this, [this](int index) {
    SetArrangement(static_cast<StageArrangement>(arrangement_->itemData(index).toInt()));
  });
}

void StageStripPanel::setupLayout() {
  auto* bar = new QToolBar(this);
  bar->setIconSize(QSize(16, 16));
  bar->addWidget(panes_box_);
  bar->addWidget(previous_);
  bar->addWidget(slider_);
  bar->addWidget(next_);
  bar->addWidget(position_);
  bar->addSeparator();
  bar->addWidget(changed_only_);
  bar->addWidget(name_filter_);
  bar->addWidget(stage_list_);
  bar->addWidget(pick_);
  arrangement_action_ = bar->addWidget(arrangement_);
  arrangement_action_->setVisible(false);
  bar->addSeparator();
  bar->addAction(Icons::Get("zoom-in"), tr("Zoom In"), this, [this] { ZoomBy(1.25); });
  bar->addAction(Icons::Get("zoom-out"), tr("Zoom Out"), this, [this] { ZoomBy(0.8); });
  bar->addAction(Icons::Get("zoom-fit"), tr("Fit"), this, &StageStripPanel::FitAll);
  bar->addAction(Icons::Get("expand"), tr("Expand All Boxes"), this, &StageStripPanel::ExpandAll);
  bar->addAction(Icons::Get("collapse"), tr("Collapse All Boxes"), this,
                 &StageStripPanel::CollapseAll);
  bar->addSeparator();
  bar->addWidget(status_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(bar);
  layout->addWidget(splitter_, 1);
  splitter_->setChildrenCollapsible(false);
}

GraphCanvas* StageStripPanel::canvas(int pane) const {
  return panes_[static_cast<size_t>(pane)].canvas;
}

QLabel* StageStripPanel::title(int pane) const { return panes_[static_cast<size_t>(pane)].title; }

QLabel* StageStripPanel::detail(int pane) const { return panes_[static_cast<size_t>(pane)].detail; }

void StageStripPanel::AddPane() {
  const int index = static_cast<int>(panes_.size());
  Pane pane;
  pane.frame = new QWidget(splitter_);
  pane.title = new ElidedLabel(pane.frame);
  QFont bold = pane.title->font();
  bold.setBold(true);
  pane.title->setFont(bold);
  pane.detail = new ElidedLabel(pane.frame);
  pane.canvas = new GraphCanvas(pane.frame);
  pane.canvas->installEventFilter(this);
  pane.runner = new LatestTaskRunner(this);
  auto* layout = new QVBoxLayout(pane.frame);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  pane.title->setContentsMargins(6, 3, 6, 0);
  pane.detail->setContentsMargins(6, 0, 6, 3);
  layout->addWidget(pane.title);
  layout->addWidget(pane.detail);
  layout->addWidget(pane.canvas, 1);
  connect(pane.canvas, &GraphCanvas::instructionClicked, this,
          [this, index](int64_t id) { Clicked(index, id); });
  connect(pane.canvas, &GraphCanvas::backgroundClicked, this,
          [this, index] { Clicked(index, -1); });
  connect(pane.canvas, &GraphCanvas::boxToggled, this,
          [this, index](int node) { ToggleBox(index, node); });
  connect(pane.canvas, &GraphCanvas::sceneComplete, this, [this, index] { SceneComplete(index); });
  connect(pane.canvas, &GraphCanvas::userMovedView, this, [this, index] { FollowPane(index); });
  splitter_->addWidget(pane.frame);
  panes_.push_back(std::move(pane));
}

void StageStripPanel::RemovePane() {
  Pane& pane = panes_.back();
  ReleaseOffThread(pane.view);
  delete pane.frame;
  delete pane.runner;
  panes_.pop_back();
}

void StageStripPanel::SyncPaneCount() {
  const auto wanted = static_cast<size_t>(window_.pane_count());
  const bool resized = panes_.size() != wanted;
  while (panes_.size() < wanted) AddPane();
  while (panes_.size() > wanted) RemovePane();
  for (size_t i = 0; i < panes_.size(); ++i) panes_[i].frame->setVisible(i < stages_.size());
  if (resized) splitter_->setSizes(QList<int>(static_cast<qsizetype>(wanted), 1000));
}

void StageStripPanel::UpdateControls() {
  const QSignalBlocker block_slider(slider_);
  const QSignalBlocker block_panes(panes_box_);
  slider_->setRange(0, window_.last_position());
  slider_->setValue(window_.position());
  panes_box_->setValue(window_.pane_count());
  previous_->setEnabled(window_.position() > 0);
  next_->setEnabled(window_.position() < window_.last_position());
  const int steps = static_cast<int>(window_.steps().size());
  int last = window_.position();
  for (int shown = 0; last < steps && shown < window_.pane_count(); ++last) {
    shown += static_cast<int>(window_.steps()[static_cast<size_t>(last)].size());
  }
  position_->setText(steps == 0
                         ? tr("no stage")
                         : tr("%1–%2 of %3").arg(window_.position() + 1).arg(last).arg(steps));
  const bool listed = !window_.explicit_stages().empty();
  changed_only_->setEnabled(!listed);
  name_filter_->setEnabled(!listed);
  arrangement_action_->setVisible(second_ != nullptr);
  arrangement_->setEnabled(!listed);
  arrangement_->setCurrentIndex(arrangement_->findData(static_cast<int>(window_.arrangement())));
}

void StageStripPanel::RebuildPickMenu() {
  QMenu* menu = pick_->menu();
  menu->clear();
  auto add_passes = [this](QMenu* into, const recording::Recording& recording, int which) {
    into->addAction(tr("input"), this, [this, which] {
      const QString text = stage_list_->text().trimmed();
      const QString stage = QString::fromStdString(FormatStage({which, -1}));
      SetStageList(text.isEmpty() ? stage : text + ", " + stage);
    });
    for (const recording::PassRecord& pass : recording.passes) {
      const Stage stage{which, pass.index};
      const QString label = QStringLiteral("%1  %2%3")
                                .arg(pass.index)
                                .arg(QString::fromStdString(pass.name))
                                .arg(pass.changed ? tr("  (changed)") : QString());
      into->addAction(label, this, [this, stage] {
        const QString text = stage_list_->text().trimmed();
        const QString item = QString::fromStdString(FormatStage(stage));
        SetStageList(text.isEmpty() ? item : text + ", " + item);
      });
    }
  };
  if (const recording::Recording* first = context_->recording()) {
    add_passes(second_ ? menu->addMenu(tr("A: %1").arg(context_->title())) : menu, *first, 0);
  }
  if (second_) add_passes(menu->addMenu(tr("B: %1").arg(second_title_)), *second_, 1);
  pick_->setEnabled(!menu->isEmpty());
}

const recording::Recording* StageStripPanel::RecordingOf(int which) const {
  return SharedRecordingOf(which).get();
}

std::shared_ptr<const recording::Recording> StageStripPanel::SharedRecordingOf(int which) const {
  return which == 1 ? second_ : context_->shared_recording();
}

void StageStripPanel::SetSecondRecording(std::shared_ptr<const recording::Recording> recording,
                                         QString title) {
  ReleaseOffThread(second_);
  second_ = std::move(recording);
  second_title_ = std::move(title);
  window_.SetRecordings(context_->recording(), second_.get());
  if (second_ && window_.arrangement() == StageArrangement::kFirst) {
    window_.SetArrangement(StageArrangement::kInterleaved);
  }
  RebuildPickMenu();
  StagesChanged(true);
}

void StageStripPanel::SetPaneCount(int panes) {
  window_.SetPaneCount(panes);
  StagesChanged(false);
}

void StageStripPanel::SetNameFilter(const QString& text) {
  if (name_filter_->text() != text) {
    const QSignalBlocker block(name_filter_);
    name_filter_->setText(text);
  }
  StageFilter filter = window_.filter();
  filter.name = text.trimmed().toStdString();
  window_.SetFilter(filter);
  StagesChanged(false);
}

void StageStripPanel::SetChangedOnly(bool changed_only) {
  if (changed_only_->isChecked() != changed_only) {
    const QSignalBlocker block(changed_only_);
    changed_only_->setChecked(changed_only);
  }
  StageFilter filter = window_.filter();
  filter.changed_only = changed_only;
  window_.SetFilter(filter);
  StagesChanged(false);
}

void StageStripPanel::SetArrangement(StageArrangement arrangement) {
  window_.SetArrangement(arrangement);
  StagesChanged(false);
}

bool StageStripPanel::SetStageList(const QString& text) {
  if (stage_list_->text() != text) {
    const QSignalBlocker block(stage_list_);
    stage_list_->setText(text);
  }
  const recording::Recording* first = context_->recording();
  if (!first) return text.trimmed().isEmpty();
  const StageList list = ParseStageList(text.toStdString(), *first, second_.get());
  list_error_ = QString::fromStdString(list.error);
  if (!list.error.empty()) {
    status_->setText(list_error_);
    return false;
  }
  window_.SetExplicit(list.stages);
  StagesChanged(false);
  return true;
}

void StageStripPanel::ApplyStageList() { SetStageList(stage_list_->text()); }

void StageStripPanel::SetPosition(int position) {
  window_.SetPosition(position);
  StagesChanged(false);
}

void StageStripPanel::Step(int steps) { SetPosition(window_.position() + steps); }

bool StageStripPanel::settled() const {
  if (stale_) return false;
  for (size_t i = 0; i < stages_.size(); ++i) {
    const Pane& pane = panes_[i];
    if (pane.pending || !pane.canvas->complete() || !(pane.stage == stages_[i])) return false;
    if (!pane.view || pane.view->shared_recording() != SharedRecordingOf(pane.stage.recording))
      return false;
  }
  return true;
}

bool StageStripPanel::AllComplete() const {
  for (size_t i = 0; i < stages_.size(); ++i) {
    const Pane& pane = panes_[i];
    if (pane.pending || !pane.canvas->complete() || !pane.canvas->picture()) return false;
  }
  return true;
}

std::shared_ptr<const PassView> StageStripPanel::KnownView(const Stage& stage) const {
  const auto recording = SharedRecordingOf(stage.recording);
  const auto holds = [&](const std::shared_ptr<const PassView>& view) {
    return view && view->shared_recording() == recording &&
           view->pass_index() ==
               std::min<int64_t>(ViewPassOf(stage),
                                 static_cast<int64_t>(recording->passes.size()) - 1);
  };
  for (const Pane& pane : panes_) {
    if (holds(pane.view)) return pane.view;
  }
  if (holds(context_->shared_pass_view())) return context_->shared_pass_view();
  return nullptr;
}

// The window or what it shows changed: every pane whose stage is not the one it shows (or is
// laying out) asks for a picture. `refit`: the view the user took is dropped for what changed.
void StageStripPanel::StagesChanged(bool refit) {
  refit_ = refit_ || refit;
  stages_ = context_->recording() ? window_.Visible() : std::vector<Stage>();
  SyncPaneCount();
  UpdateControls();
  if (!isVisible()) {
    stale_ = true;
    return;
  }
  stale_ = false;
  bool requested = false;
  for (size_t i = 0; i < stages_.size(); ++i) {
    Pane& pane = panes_[i];
    const bool same = pane.stage == stages_[i] && (pane.pending || pane.view) &&
                      pane.recording == SharedRecordingOf(stages_[i].recording);
    if (same) continue;
    pane.stage = stages_[i];
    pane.recording = SharedRecordingOf(stages_[i].recording);
    RequestPicture(static_cast<int>(i), true);
    requested = true;
  }
  // Titles say which recording a stage is of, once there are two.
  for (size_t i = 0; i < stages_.size(); ++i) {
    if (!panes_[i].pending) UpdateTitle(static_cast<int>(i));
  }
  if (requested) {
    status_->setText(tr("Laying out…"));
  } else if (list_error_.isEmpty()) {
    status_->clear();
  }
}

void StageStripPanel::RequestPicture(int index, bool refit) {
  Pane& pane = panes_[static_cast<size_t>(index)];
  const Stage stage = pane.stage;
  GraphRequest request;
  request.side = SideOf(stage);
  // The input is a stage of its own: what pass 0 does to it is the next pane's business.
  request.attach_diff = stage.pass >= 0;
  request.expanded = pane.expanded;
  pane.pending = true;
  auto recording = pane.recording;
  auto known = KnownView(stage);
  const int64_t pass = ViewPassOf(stage);
  pane.runner->Submit(
      [this, index, recording, known, pass, request, refit]() mutable -> LatestTaskRunner::Deliver {
        std::shared_ptr<const PassView> view = known ? known : PassView::Build(recording, pass);
        request.view = view;
        std::shared_ptr<const GraphPicture> picture = GraphPicture::Build(request);
        return [this, index, view, picture, refit] { Deliver(index, view, picture, refit); };
      });
}

void StageStripPanel::Deliver(int index, std::shared_ptr<const PassView> view,
                              std::shared_ptr<const GraphPicture> picture, bool refit) {
  Pane& pane = panes_[static_cast<size_t>(index)];
  pane.pending = false;
  ReleaseOffThread(pane.view);
  pane.view = std::move(view);
  pane.located.clear();
  if (!picture->empty()) pane.expanded = picture->expanded_keys();
  pane.canvas->SetPicture(std::move(picture), refit);
  UpdateTitle(index);
}

void StageStripPanel::SceneComplete(int index) {
  ApplyMarks(index, SelectionOrigins());
  if (!AllComplete() || static_cast<size_t>(index) >= stages_.size()) return;
  if (refit_) {
    refit_ = false;
    if (shared_view_ == SharedView::kAnchored) shared_view_ = SharedView::kChanges;
  }
  ApplySharedView();
  if (list_error_.isEmpty()) status_->clear();
  emit picturesSettled();
}

void StageStripPanel::UpdateTitle(int index) {
  Pane& pane = panes_[static_cast<size_t>(index)];
  const Stage& stage = pane.stage;
  const PassView* view = pane.view.get();
  const recording::PassRecord* pass = stage.pass >= 0 && view ? view->pass() : nullptr;
  QString prefix;
  if (second_) prefix = stage.recording == 1 ? tr("B · ") : tr("A · ");
  const QString name =
      pass ? tr("#%1 %2").arg(pass->index).arg(QString::fromStdString(pass->name)) : tr("input");
  static_cast<ElidedLabel*>(pane.title)->SetFullText(prefix + name);
  QString detail;
  if (view) {
    const recording::OperationCounts& counts = view->counts(SideOf(stage));
    const int64_t changed = pass ? ChangedNodes(*view) : 0;
    detail = !pass          ? tr("the input")
             : changed == 0 ? tr("no change")
             : changed == 1 ? tr("1 node changed")
                            : tr("%1 nodes changed").arg(changed);
    detail += tr(" · %1 operations").arg(counts.operations);
    if (counts.fusions > 0) detail += tr(", %1 fusions").arg(counts.fusions);
  }
  static_cast<ElidedLabel*>(pane.detail)->SetFullText(detail);
  const QString source = stage.recording == 1 ? second_title_ : context_->title();
  QString tip = pass ? tr("After pass %1 %2 of %3")
                           .arg(pass->index)
                           .arg(QString::fromStdString(pass->name), source)
                     : tr("The input of %1").arg(source);
  if (pass && view->diff()) tip += '\n' + QString::fromStdString(view->diff()->CountsLine());
  pane.title->setToolTip(tip);
  pane.detail->setToolTip(tip);
}

ir::ProvenanceSet StageStripPanel::SelectionOrigins() const {
  const Selection& selection = context_->selection();
  ir::ProvenanceSet origins;
  if (selection.instruction_id < 0) return origins;
  for (size_t i = 0; i < stages_.size() && i < panes_.size(); ++i) {
    const Pane& pane = panes_[i];
    const ir::Instruction* instruction =
        pane.view ? pane.view->Find(SideOf(pane.stage), selection.instruction_id) : nullptr;
    if (instruction) origins.Union(OriginsOf(*instruction));
  }
  if (origins.empty() && context_->pass_view()) {
    const ir::Instruction* instruction =
        context_->pass_view()->Find(selection.side, selection.instruction_id);
    if (instruction) origins = OriginsOf(*instruction);
  }
  if (origins.empty()) origins.Insert(selection.instruction_id);
  return origins;
}

void StageStripPanel::ApplyMarks(int index, const ir::ProvenanceSet& origins) {
  Pane& pane = panes_[static_cast<size_t>(index)];
  const GraphSide side = SideOf(pane.stage);
  const ir::Module* module = pane.view ? pane.view->module(side) : nullptr;
  if (!module || !pane.canvas->picture()) return;
  const int64_t id = context_->selection().instruction_id;
  std::vector<int64_t> selected;
  std::vector<int64_t> followed;
  if (id >= 0 && ShowsItself(*pane.view, side, id)) {
    selected.push_back(id);
  } else if (id >= 0) {
    followed = FollowedInstructions(*module, origins);
  }
  pane.canvas->SetMarks(selected, followed, {});
}

void StageStripPanel::ApplyMarks() {
  const ir::ProvenanceSet origins = SelectionOrigins();
  for (size_t i = 0; i < stages_.size(); ++i) ApplyMarks(static_cast<int>(i), origins);
}

void StageStripPanel::Clicked(int index, int64_t instruction_id) {
  Selection selection;
  if (instruction_id >= 0) {
    // The workbench's selection names a side of its current pass; ids are stable across
    // passes, so the side that holds the node is the one to name.
    const PassView* current = context_->pass_view();
    const bool after = !current || current->Find(GraphSide::kAfter, instruction_id) ||
                       !current->Find(GraphSide::kBefore, instruction_id);
    selection = Selection{instruction_id, after ? GraphSide::kAfter : GraphSide::kBefore, -1};
  }
  context_->SetSelection(selection, this);
  ApplyMarks();
  if (instruction_id < 0) return;
  // The clicked pane stays where the user is looking; the others come to what stands for
  // the node there.
  anchor_ = AnchorOf(index, instruction_id);
  shared_view_ = SharedView::kAnchored;
  if (anchor_) ApplyAnchor(*anchor_, index);
}

bool StageStripPanel::CenterOnSelection() {
  const int64_t id = context_->selection().instruction_id;
  if (id < 0) return false;
  const ir::ProvenanceSet origins = SelectionOrigins();
  int lead = -1;
  for (size_t i = 0; i < stages_.size(); ++i) {
    const Pane& pane = panes_[i];
    if (pane.canvas->picture() && pane.canvas->picture()->VisibleNodeOf(id) >= 0) {
      lead = static_cast<int>(i);
      break;
    }
    if (lead < 0 && Locate(static_cast<int>(i), id, origins) >= 0) lead = static_cast<int>(i);
  }
  if (lead < 0) return false;
  panes_[static_cast<size_t>(lead)].canvas->CenterOnMarks();
  anchor_ = AnchorOf(lead, id);
  shared_view_ = SharedView::kAnchored;
  if (anchor_) ApplyAnchor(*anchor_, lead);
  return true;
}

void StageStripPanel::ToggleBox(int index, int node_id) {
  const GraphPicture* picture = panes_[static_cast<size_t>(index)].canvas->picture();
  if (!picture) return;
  const DisplayNode& node = picture->graph().node(node_id);
  const bool expand = !node.expanded;
  const std::string key = node.key;
  // Boxes are keyed alike in every stage of a recording: the strip opens or closes the box
  // in every pane, so that they keep showing the same thing.
  for (size_t i = 0; i < stages_.size(); ++i) {
    Pane& pane = panes_[i];
    std::unordered_set<std::string> keys =
        pane.expanded.value_or(std::unordered_set<std::string>());
    if (expand) {
      keys.insert(key);
    } else {
      keys.erase(key);
    }
    pane.expanded = std::move(keys);
    RequestPicture(static_cast<int>(i), false);
  }
}

void StageStripPanel::ExpandAll() {
  for (size_t i = 0; i < stages_.size(); ++i) {
    Pane& pane = panes_[i];
    const GraphPicture* picture = pane.canvas->picture();
    pane.expanded = picture ? picture->box_keys() : std::unordered_set<std::string>();
    RequestPicture(static_cast<int>(i), true);
  }
  refit_ = true;
}

void StageStripPanel::CollapseAll() {
  for (size_t i = 0; i < stages_.size(); ++i) {
    panes_[i].expanded = std::unordered_set<std::string>();
    RequestPicture(static_cast<int>(i), true);
  }
  refit_ = true;
}

std::optional<StageStripPanel::ViewAnchor> StageStripPanel::AnchorOf(int index,
                                                                     int64_t instruction) {
  const Pane& pane = panes_[static_cast<size_t>(index)];
  const GraphPicture* picture = pane.canvas->picture();
  if (!picture || picture->empty() || !pane.view) return std::nullopt;
  ViewAnchor anchor;
  anchor.zoom = pane.canvas->zoom();
  const QPointF center = pane.canvas->ViewCenter();
  const QRectF extent = pane.canvas->sceneRect();
  anchor.relative = QPointF((center.x() - extent.left()) / std::max(1.0, extent.width()),
                            (center.y() - extent.top()) / std::max(1.0, extent.height()));
  int node = -1;
  if (instruction >= 0) {
    node = Locate(index, instruction, SelectionOrigins());
  } else {
    // The node nearest the middle of the view, drawn as a node (not an open box's frame).
    double best = std::numeric_limits<double>::max();
    for (const NodeDrawing& drawing : picture->drawing().nodes) {
      const DisplayNode& shown = picture->graph().node(drawing.node);
      if (drawing.expanded || !shown.instruction) continue;
      const QPointF delta = drawing.rect.center() - center;
      const double distance = QPointF::dotProduct(delta, delta);
      if (distance < best) {
        best = distance;
        node = drawing.node;
        instruction = shown.instruction->id();
      }
    }
  }
  if (node < 0 || instruction < 0) return anchor;
  anchor.instruction = instruction;
  const ir::Instruction* found = pane.view->Find(SideOf(pane.stage), instruction);
  anchor.origins = found ? OriginsOf(*found) : SelectionOrigins();
  anchor.offset = center - NodeCenter(*picture, node);
  return anchor;
}

int StageStripPanel::Locate(int index, int64_t instruction, const ir::ProvenanceSet& origins) {
  Pane& pane = panes_[static_cast<size_t>(index)];
  const GraphPicture* picture = pane.canvas->picture();
  if (!picture || !pane.view) return -1;
  auto cached = pane.located.find(instruction);
  if (cached != pane.located.end()) return cached->second;
  int node = picture->VisibleNodeOf(instruction);
  const ir::Module* module = pane.view->module(SideOf(pane.stage));
  if (node < 0 && module) {
    for (int64_t id : FollowedInstructions(*module, origins)) {
      node = picture->VisibleNodeOf(id);
      if (node >= 0) break;
    }
  }
  pane.located.emplace(instruction, node);
  return node;
}

void StageStripPanel::ApplyAnchor(const ViewAnchor& anchor, int except) {
  for (size_t i = 0; i < stages_.size(); ++i) {
    if (static_cast<int>(i) == except) continue;
    GraphCanvas* target = panes_[i].canvas;
    const GraphPicture* picture = target->picture();
    if (!picture || picture->empty()) continue;
    const int node = anchor.instruction >= 0
                         ? Locate(static_cast<int>(i), anchor.instruction, anchor.origins)
                         : -1;
    QPointF center;
    if (node >= 0) {
      center = NodeCenter(*picture, node) + anchor.offset;
    } else {
      const QRectF extent = target->sceneRect();
      center = extent.topLeft() +
               QPointF(anchor.relative.x() * extent.width(), anchor.relative.y() * extent.height());
    }
    target->ShowAt(anchor.zoom, center);
  }
}

void StageStripPanel::FollowPane(int index) {
  anchor_ = AnchorOf(index);
  shared_view_ = SharedView::kAnchored;
  if (anchor_) ApplyAnchor(*anchor_, index);
}

void StageStripPanel::ZoomBy(double factor) {
  for (size_t i = 0; i < stages_.size(); ++i) {
    if (!panes_[i].canvas->picture()) continue;
    panes_[i].canvas->ZoomBy(factor);
    FollowPane(static_cast<int>(i));
    return;
  }
}

void StageStripPanel::FitAll() {
  shared_view_ = SharedView::kFitted;
  FitCommon();
}

void StageStripPanel::ApplySharedView() {
  switch (shared_view_) {
    case SharedView::kAnchored:
      if (anchor_) ApplyAnchor(*anchor_, -1);
      return;
    case SharedView::kFitted:
      FitCommon();
      return;
    case SharedView::kChanges:
      // The selection, when there is one, matters more than the overview.
      if (!CenterOnSelection()) ShowChanges();
      return;
  }
}

void StageStripPanel::ShowChanges() {
  int lead = -1;
  size_t most = 0;
  for (size_t i = 0; i < stages_.size(); ++i) {
    const GraphPicture* picture = panes_[i].canvas->picture();
    if (!picture || picture->empty()) continue;
    const size_t changed = GraphCanvas::ChangedNodes(*picture).size();
    if (lead < 0 || changed > most) {
      lead = static_cast<int>(i);
      most = changed;
    }
  }
  if (lead < 0) return;
  panes_[static_cast<size_t>(lead)].canvas->AutoView();
  if (std::optional<ViewAnchor> anchor = AnchorOf(lead)) ApplyAnchor(*anchor, lead);
}

// One zoom for all, the one at which the largest picture fits, each picture from its top:
// the inputs of the module sit at the same height in every pane.
void StageStripPanel::FitCommon() {
  double zoom = std::numeric_limits<double>::max();
  for (size_t i = 0; i < stages_.size(); ++i) {
    const GraphPicture* picture = panes_[i].canvas->picture();
    if (picture && !picture->empty()) zoom = std::min(zoom, panes_[i].canvas->FitZoom());
  }
  if (zoom == std::numeric_limits<double>::max()) return;
  for (size_t i = 0; i < stages_.size(); ++i) {
    GraphCanvas* target = panes_[i].canvas;
    const GraphPicture* picture = target->picture();
    if (!picture || picture->empty()) continue;
    const QRectF extent = target->sceneRect();
    const double visible_height = target->viewport()->height() / zoom;
    target->ShowAt(zoom, QPointF(extent.center().x(), extent.top() + visible_height / 2));
  }
}

bool StageStripPanel::eventFilter(QObject* watched, QEvent* event) {
  // The automatic views are redone when the strip or a splitter handle resizes the panes;
  // where the user took them stays.
  if (event->type() == QEvent::Resize && shared_view_ != SharedView::kAnchored &&
      !view_scheduled_) {
    view_scheduled_ = true;
    QTimer::singleShot(0, this, [this] {
      view_scheduled_ = false;
      if (shared_view_ != SharedView::kAnchored && AllComplete()) ApplySharedView();
    });
  }
  return QWidget::eventFilter(watched, event);
}

void StageStripPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (stale_) StagesChanged(false);
}

void StageStripPanel::OnRecordingLoaded(const WorkbenchContext& context) {
  window_.SetRecordings(context.recording(), second_.get());
  for (Pane& pane : panes_) {
    pane.expanded.reset();
    pane.located.clear();
  }
  refit_ = true;
  RebuildPickMenu();
  if (!stage_list_->text().trimmed().isEmpty()) SetStageList(stage_list_->text());
  if (!context.recording()) StagesChanged(true);
}

void StageStripPanel::OnPassChanged(const WorkbenchContext& context) {
  // The strip shows the pass the workbench is on, with the stage before it where the window
  // allows, unless it shows it already.
  if (const PassView* view = context.pass_view()) {
    window_.Reveal(Stage{0, view->pass_index()}, 1);
  }
  StagesChanged(false);
}

void StageStripPanel::OnSelectionChanged(const WorkbenchContext&) {
  ApplyMarks();
  if (AllComplete()) CenterOnSelection();
}

}  // namespace fusescope::views
