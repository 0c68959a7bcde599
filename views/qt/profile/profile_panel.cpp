#include "views/qt/profile/profile_panel.h"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "passes/cost_analysis.h"
#include "profiler/attribution.h"
#include "profiler/profile_store.h"
#include "views/qt/profile/hot_node_model.h"
#include "views/qt/profile/roofline_view.h"
#include "views/qt/row_table.h"
#include "views/qt/workbench_context.h"
#include "views/qt/workers/latest_task_runner.h"

namespace fusescope::views {

// What a worker made of one profile on one pass.
struct ProfileResult {
  int64_t profile_id = -1;
  int64_t pass = -1;
  int64_t snapshot = 0;  // the graph after the pass
  std::shared_ptr<const profiler::Attribution> attribution;
  std::vector<profiler::HotNode> nodes;  // of `snapshot`
  std::shared_ptr<const HeatOverlay> heat;
  std::vector<RooflineKernel> kernels;
  QString error;
};

namespace {

QString Text(const std::string& text) { return QString::fromStdString(text); }

int64_t Runs(const profiler::Profile& profile) {
  if (!profile.run_latency_us.empty()) return static_cast<int64_t>(profile.run_latency_us.size());
  return profile.kernels.empty() ? 0
                                 : static_cast<int64_t>(profile.kernels.front().samples_us.size());
}

// The graphs of pass `pass`: the snapshot it ran on and the one it produced.
int64_t BeforeSnapshot(int64_t pass) { return std::max<int64_t>(pass, 0); }
int64_t AfterSnapshot(int64_t pass) { return pass + 1; }

// The profiled snapshot's kernels, counted from its IR: FLOPs, bytes and median time.
std::vector<RooflineKernel> Kernels(const recording::Recording& recording,
                                    const profiler::Profile& profile) {
  std::vector<RooflineKernel> kernels;
  if (profile.snapshot_index < 0 ||
      profile.snapshot_index >= static_cast<int64_t>(recording.snapshots.size()))
    return kernels;
  auto module = recording.snapshots[static_cast<size_t>(profile.snapshot_index)].ToModule();
  if (!module.ok()) return kernels;
  for (const profiler::KernelTime& kernel : profile.kernels) {
    const ir::Instruction* instruction = (*module)->FindInstructionById(kernel.instruction_id);
    if (!instruction || kernel.samples_us.empty()) continue;
    RooflineKernel point;
    point.instruction_id = kernel.instruction_id;
    point.name = Text(kernel.name);
    point.flops = passes::KernelFlops(*instruction);
    point.bytes = passes::KernelBytes(*instruction);
    point.seconds = kernel.Summary().median * 1e-6;
    kernels.push_back(std::move(point));
  }
  return kernels;
}

// Runs on a worker: everything the panel shows for `profile` on `pass`.
std::shared_ptr<const ProfileResult> Compute(
    const std::shared_ptr<const recording::Recording>& recording, const profiler::Profile& profile,
    int64_t pass, std::shared_ptr<const profiler::Attribution> attribution, bool with_kernels) {
  auto result = std::make_shared<ProfileResult>();
  result->profile_id = profile.profile_id;
  result->pass = pass;
  result->snapshot = AfterSnapshot(pass);
  if (!attribution) {
    auto made = profiler::AttributeToOriginals(*recording, profile);
    if (!made.ok()) {
      result->error = Text(made.message());
      return result;
    }
    attribution = std::make_shared<const profiler::Attribution>(std::move(*made));
  }
  result->attribution = attribution;
  auto after = profiler::HotNodes(*recording, profile, *attribution, result->snapshot);
  auto before = profiler::HotNodes(*recording, profile, *attribution, BeforeSnapshot(pass));
  if (!after.ok() || !before.ok()) {
    result->error = Text(after.ok() ? before.message() : after.message());
    return result;
  }
  // A loop's node carries its body's time: the graphs show the entry computation.
  auto before_shares = profiler::InclusiveShares(*recording, BeforeSnapshot(pass), *before);
  auto after_shares = profiler::InclusiveShares(*recording, result->snapshot, *after);
  if (!before_shares.ok() || !after_shares.ok()) {
    result->error = Text(after_shares.ok() ? before_shares.message() : after_shares.message());
    return result;
  }
  auto heat = std::make_shared<HeatOverlay>();
  heat->share[0] = std::move(*before_shares);
  heat->share[1] = std::move(*after_shares);
  heat->estimate[0] = BeforeSnapshot(pass) != profile.snapshot_index;
  heat->estimate[1] = result->snapshot != profile.snapshot_index;
  for (const auto& side : heat->share) {
    for (const auto& [id, share] : side) heat->max_share = std::max(heat->max_share, share);
  }
  heat->profile_label = Text(profile.label);
  heat->pass = pass;
  result->heat = std::move(heat);
  result->nodes = std::move(*after);
  if (with_kernels) result->kernels = Kernels(*recording, profile);
  return result;
}

}  // namespace

ProfilePanel::ProfilePanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new HotNodeModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      profiles_box_(new QComboBox(this)),
      heat_button_(new QToolButton(this)),
      heat_action_(new QAction(tr("Heat Overlay"), this)),
      reload_action_(new QAction(tr("Read Profiles Again"), this)),
      reload_button_(new QToolButton(this)),
      placeholder_reload_(new QToolButton(this)),
      summary_(new QLabel(this)),
      placeholder_(new QLabel(this)),
      table_(new QTableView(this)),
      roofline_(new RooflineView(this)),
      splitter_(new QSplitter(Qt::Horizontal, this)),
      stack_(new QStackedWidget(this)),
      load_runner_(new LatestTaskRunner(this)),
      compute_runner_(new LatestTaskRunner(this)),
      profiles_(std::make_shared<const std::vector<profiler::Profile>>()) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(HotNodeModel::kSortRole);
  setupHeader();
  setupTable();
  setupLayout();
  connect(roofline_, &RooflineView::kernelClicked, this, &ProfilePanel::SelectInstruction);
  context_->AddObserver(this, this);
}

ProfilePanel::~ProfilePanel() = default;

void ProfilePanel::setupHeader() {
  profiles_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  profiles_box_->setToolTip(tr("The profiles stored in this recording"));
  connect(profiles_box_, &QComboBox::currentIndexChanged, this, [this] {
    attribution_.reset();
    attribution_profile_ = -1;
    Recompute();
  });
  heat_action_->setCheckable(true);
  heat_action_->setEnabled(false);
  heat_action_->setToolTip(tr("Colour both graphs by each node's share of the profile's time"));
  connect(heat_action_, &QAction::toggled, this, [this] { EmitHeat(); });
  heat_button_->setDefaultAction(heat_action_);
  reload_action_->setToolTip(tr("Read the recording's profiles again from its file"));
  reload_action_->setEnabled(false);
  connect(reload_action_, &QAction::triggered, this, [this] {
    if (!context_->file_path().isEmpty()) LoadProfiles(context_->file_path());
  });
  reload_button_->setDefaultAction(reload_action_);
  reload_button_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  placeholder_reload_->setDefaultAction(reload_action_);
  placeholder_reload_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  heat_button_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  summary_->setTextFormat(Qt::RichText);
  summary_->setWordWrap(true);
  summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  placeholder_->setWordWrap(true);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  placeholder_->setContentsMargins(12, 12, 12, 12);
}

void ProfilePanel::setupTable() {
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(HotNodeModel::kTime, Qt::DescendingOrder);
  SetUpRowTable(table_);
  const QFontMetrics metrics(table_->font());
  const auto width = [&metrics](const char* sample) {
    return metrics.horizontalAdvance(QString::fromLatin1(sample)) + 24;
  };
  table_->setColumnWidth(HotNodeModel::kNode, width("loop_add_fusion.12"));
  table_->setColumnWidth(HotNodeModel::kOpcode, width("convolution"));
  table_->setColumnWidth(HotNodeModel::kTime, width("123456.78"));
  table_->setColumnWidth(HotNodeModel::kShare, width("100.0%") + 16);
  table_->setColumnWidth(HotNodeModel::kKind, width("~ estimate"));
  table_->setColumnWidth(HotNodeModel::kAnswersFor, width("dot.1, exponential.2, add.3"));
  connect(table_, &QTableView::clicked, this, &ProfilePanel::Activate);
  connect(table_, &QTableView::activated, this, &ProfilePanel::Activate);
  // Arrow keys walk the hot nodes in the graphs too; rows the panel selects itself do not.
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!following_ && current.isValid()) Activate(current);
          });
}

void ProfilePanel::setupLayout() {
  auto* header = new QHBoxLayout();
  header->setContentsMargins(4, 4, 4, 4);
  header->addWidget(new QLabel(tr("Profile:"), this));
  header->addWidget(profiles_box_);
  header->addWidget(heat_button_);
  header->addWidget(reload_button_);
  header->addWidget(summary_, 1);
  // Side by side: a bottom dock is wide and short, and a chart needs height more than width.
  splitter_->addWidget(table_);
  splitter_->addWidget(roofline_);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 2);
  splitter_->setSizes({3000, 2000});
  splitter_->setChildrenCollapsible(false);
  auto* content = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->setSpacing(0);
  content_layout->addLayout(header);
  content_layout->addWidget(splitter_, 1);
  auto* empty = new QWidget(this);
  auto* empty_layout = new QVBoxLayout(empty);
  empty_layout->addStretch(1);
  empty_layout->addWidget(placeholder_);
  empty_layout->addWidget(placeholder_reload_, 0, Qt::AlignHCenter);
  empty_layout->addStretch(1);
  stack_->addWidget(empty);
  stack_->addWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
  ShowPlaceholder(tr("No recording is open."));
}

bool ProfilePanel::busy() const { return load_runner_->busy() || compute_runner_->busy(); }

std::shared_ptr<const HeatOverlay> ProfilePanel::heat() const {
  if (!heat_action_->isChecked() || !result_ || result_->heat == nullptr) return nullptr;
  return result_->heat;
}

void ProfilePanel::ShowPlaceholder(const QString& text) {
  placeholder_->setText(text);
  stack_->setCurrentIndex(0);
}

void ProfilePanel::OnRecordingLoaded(const WorkbenchContext& context) {
  load_runner_->Cancel();
  compute_runner_->Cancel();
  profiles_ = std::make_shared<const std::vector<profiler::Profile>>();
  attribution_.reset();
  attribution_profile_ = -1;
  result_.reset();
  model_->setData({});
  roofline_->SetKernels({});
  heat_action_->setEnabled(false);
  reload_action_->setEnabled(context.recording() && !context.file_path().isEmpty());
  placeholder_reload_->setVisible(reload_action_->isEnabled());
  EmitHeat();
  {
    QSignalBlocker blocker(profiles_box_);
    profiles_box_->clear();
  }
  if (!context.recording()) {
    ShowPlaceholder(tr("No recording is open."));
    return;
  }
  if (context.file_path().isEmpty()) {
    ShowPlaceholder(
        tr("No profiles: this recording was compiled in the workbench and is not saved. Save it "
           "(File ▸ Save Recording As…), open the saved file and add a profile (Run ▸ Profile…, "
           "or fusescope xla-trace TRACE RUN.fsdb --save)."));
    emit profilesLoaded(0);
    return;
  }
  LoadProfiles(context.file_path());
}

void ProfilePanel::LoadProfiles(const QString& path) {
  ShowPlaceholder(tr("Reading profiles…"));
  load_runner_->Submit([this, path]() -> LatestTaskRunner::Deliver {
    auto loaded = profiler::LoadProfiles(path.toStdString());
    return [this, path, loaded = std::move(loaded)]() mutable {
      if (!loaded.ok()) {
        ShowPlaceholder(
            tr("Could not read the profiles of %1: %2").arg(path, Text(loaded.message())));
        emit profilesLoaded(0);
        emit updated();
        return;
      }
      profiles_ = std::make_shared<const std::vector<profiler::Profile>>(std::move(*loaded));
      if (profiles_->empty()) {
        ShowPlaceholder(tr("No profiles in %1. Add one: Run ▸ Profile…, or fusescope xla-trace "
                           "TRACE %2 --save")
                            .arg(QFileInfo(path).fileName(), path));
        emit profilesLoaded(0);
        emit updated();
        return;
      }
      FillProfileChoices();
      stack_->setCurrentIndex(1);
      heat_action_->setEnabled(true);
      // Submitted first: whoever hears profilesLoaded finds the panel busy until it shows them.
      Recompute();
      emit profilesLoaded(static_cast<int>(profiles_->size()));
    };
  });
}

void ProfilePanel::FillProfileChoices() {
  QSignalBlocker blocker(profiles_box_);
  profiles_box_->clear();
  for (const profiler::Profile& profile : *profiles_) {
    const QString text = tr("%1 — %2, %3 runs, %4")
                             .arg(Text(profile.label), Text(profile.source))
                             .arg(Runs(profile))
                             .arg(Text(profile.created_at));
    profiles_box_->addItem(text, static_cast<qlonglong>(profile.profile_id));
    profiles_box_->setItemData(
        profiles_box_->count() - 1,
        tr("%1 on %2; %3").arg(text, Text(profile.device), Text(profile.settings)),
        Qt::ToolTipRole);
  }
  // The latest profile, as `fusescope hot` picks.
  profiles_box_->setCurrentIndex(profiles_box_->count() - 1);
}

const profiler::Profile* ProfilePanel::CurrentProfile() const {
  const int index = profiles_box_->currentIndex();
  if (index < 0 || index >= static_cast<int>(profiles_->size())) return nullptr;
  return &(*profiles_)[static_cast<size_t>(index)];
}

void ProfilePanel::OnPassChanged(const WorkbenchContext&) { Recompute(); }

void ProfilePanel::Recompute() {
  const profiler::Profile* profile = CurrentProfile();
  const PassView* view = context_->pass_view();
  auto recording = context_->shared_recording();
  if (!profile || !view || !recording) return;
  const int64_t pass = view->pass_index();
  const bool same_profile = attribution_profile_ == profile->profile_id;
  auto attribution = same_profile ? attribution_ : nullptr;
  const bool with_kernels = !same_profile;
  compute_runner_->Submit([this, recording, profile = *profile, pass, attribution,
                           with_kernels]() -> LatestTaskRunner::Deliver {
    auto result = Compute(recording, profile, pass, attribution, with_kernels);
    return [this, result, with_kernels] {
      if (with_kernels && result->error.isEmpty()) roofline_->SetKernels(result->kernels);
      Deliver(result);
    };
  });
}

void ProfilePanel::Deliver(std::shared_ptr<const ProfileResult> result) {
  result_ = std::move(result);
  if (!result_->error.isEmpty()) {
    model_->setData({});
    summary_->setText(tr("<b>Could not attribute the profile:</b> %1").arg(result_->error));
  } else {
    attribution_ = result_->attribution;
    attribution_profile_ = result_->profile_id;
    model_->setData(result_->nodes);
    UpdateSummary();
  }
  SelectRowOf(context_->selection().instruction_id);
  EmitHeat();
  emit updated();
}

void ProfilePanel::UpdateSummary() {
  const profiler::Profile* profile = CurrentProfile();
  const recording::Recording* recording = context_->recording();
  if (!profile || !recording || !result_) return;
  const auto where = [recording](int64_t snapshot) {
    if (snapshot <= 0) return tr("the input");
    const size_t pass = static_cast<size_t>(snapshot - 1);
    return tr("after pass %1 %2")
        .arg(snapshot - 1)
        .arg(pass < recording->passes.size() ? Text(recording->passes[pass].name) : QString());
  };
  const bool measured = result_->snapshot == profile->snapshot_index;
  QString text = tr("%1 µs over %2 runs, measured %3 on %4. Graph %5: ")
                     .arg(result_->attribution->profile_total_us, 0, 'f', 1)
                     .arg(Runs(*profile))
                     .arg(where(profile->snapshot_index),
                          Text(profile->device.empty() ? std::string("?") : profile->device),
                          where(result_->snapshot));
  text += measured ? tr("kernel times <b>measured</b>.")
                   : tr("times <b>estimated</b> (each kernel's measured time split over the "
                        "model's ops it answers for by a roofline estimate).");
  if (!result_->attribution->kernels_not_found.empty()) {
    text += tr(" %1 measured kernel(s) not found in the recording.")
                .arg(result_->attribution->kernels_not_found.size());
  }
  summary_->setText(text);
}

void ProfilePanel::EmitHeat() { emit heatChanged(heat()); }

void ProfilePanel::SelectRowOf(int64_t instruction_id) {
  roofline_->SetSelected(instruction_id);
  const int row = instruction_id < 0 ? -1 : model_->RowOf(instruction_id);
  if (row < 0) {
    table_->clearSelection();
    return;
  }
  const QModelIndex proxy = proxy_->mapFromSource(model_->index(row, 0));
  following_ = true;
  table_->selectRow(proxy.row());
  following_ = false;
  table_->scrollTo(proxy);
}

void ProfilePanel::Activate(const QModelIndex& proxy_index) {
  if (!proxy_index.isValid()) return;
  SelectInstruction(proxy_index.data(HotNodeModel::kInstructionIdRole).toLongLong());
}

void ProfilePanel::SelectInstruction(int64_t instruction_id) {
  const PassView* view = context_->pass_view();
  if (!view || instruction_id < 0) return;
  // The table lists the graph after the pass. A roofline point is a kernel of the profiled
  // snapshot: on an earlier pass it may be on neither side yet, and then the pass that
  // produced the profiled snapshot is shown (the selection carries over, ids being stable).
  GraphSide side = GraphSide::kAfter;
  if (!view->Find(GraphSide::kAfter, instruction_id)) {
    if (view->Find(GraphSide::kBefore, instruction_id)) {
      side = GraphSide::kBefore;
    } else if (const profiler::Profile* profile = CurrentProfile();
               profile && profile->snapshot_index > 0) {
      context_->SetPass(profile->snapshot_index - 1);
    }
  }
  context_->SetSelection(Selection{instruction_id, side, -1}, this);
  SelectRowOf(instruction_id);
}

void ProfilePanel::OnSelectionChanged(const WorkbenchContext& context) {
  SelectRowOf(context.selection().instruction_id);
}

}  // namespace fusescope::views
