#include "views/qt/kernel/kernel_panel.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>
#include <algorithm>

#include "views/qt/graph/diff_colors.h"
#include "views/qt/kernel/kernel_stage_model.h"
#include "views/qt/row_table.h"
#include "views/qt/workbench_context.h"
#include "views/qt/workers/latest_task_runner.h"

namespace fusescope::views {
namespace {

QString Text(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString FormatMs(double seconds) { return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 2); }

// Writes `diff` into the empty `document` as diff -u marks its lines ("+ ", "- ", "  "), added
// lines on green, removed on red; returns the block of the first change, or -1.
int WriteDiff(QTextDocument& document, const std::vector<DiffLine>& diff) {
  QTextCursor cursor(&document);
  cursor.beginEditBlock();
  const QTextBlockFormat plain;
  QTextBlockFormat added;
  added.setBackground(DiffColors::Tint(ir::DiffStatus::kAdded));
  QTextBlockFormat removed;
  removed.setBackground(DiffColors::Tint(ir::DiffStatus::kRemoved));
  QTextCharFormat removed_text;
  removed_text.setForeground(DiffColors::Stroke(ir::DiffStatus::kRemoved));
  const QTextCharFormat normal_text;
  int first_change = -1;
  for (size_t i = 0; i < diff.size(); ++i) {
    const bool is_added = diff[i].change == LineChange::kAdded;
    const bool is_removed = diff[i].change == LineChange::kRemoved;
    const QTextBlockFormat& format = is_added ? added : is_removed ? removed : plain;
    if (i == 0) {
      cursor.setBlockFormat(format);
    } else {
      cursor.insertBlock(format);
    }
    if (first_change < 0 && (is_added || is_removed)) first_change = cursor.blockNumber();
    const QString mark = is_added     ? QStringLiteral("+ ")
                         : is_removed ? QStringLiteral("- ")
                                      : QStringLiteral("  ");
    cursor.insertText(mark + Text(diff[i].text), is_removed ? removed_text : normal_text);
  }
  cursor.endEditBlock();
  return first_change;
}

}  // namespace

KernelPanel::KernelPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new KernelStageModel(this)),
      header_(new QLabel(this)),
      placeholder_(new QLabel(this)),
      stages_(new QTableView(this)),
      text_(new QPlainTextEdit(this)),
      diff_toggle_(new QCheckBox(tr("Diff against the stage before"), this)),
      indentation_toggle_(new QCheckBox(tr("Ignore indentation"), this)),
      find_(new QLineEdit(this)),
      find_status_(new QLabel(this)),
      splitter_(new QSplitter(Qt::Horizontal, this)),
      stack_(new QStackedWidget(this)),
      list_runner_(new LatestTaskRunner(this)),
      kernel_runner_(new LatestTaskRunner(this)) {
  setupStages();
  setupTextPane();
  setupLayout();
  for (LatestTaskRunner* runner : {list_runner_, kernel_runner_}) {
    connect(runner, &LatestTaskRunner::busyChanged, this, [this] { emit busyChanged(busy()); });
  }
  context_->AddObserver(this, this);
}

KernelPanel::~KernelPanel() = default;

void KernelPanel::setupStages() {
  stages_->setModel(model_);
  SetUpRowTable(stages_);
  QHeaderView* header = stages_->horizontalHeader();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(KernelStageModel::kStage, QHeaderView::Stretch);
  const QFontMetrics metrics(stages_->font());
  const auto width = [&metrics](const char* sample) {
    return metrics.horizontalAdvance(QString::fromUtf8(sample)) + 20;
  };
  stages_->setColumnWidth(KernelStageModel::kIndex, width("00"));
  stages_->setColumnWidth(KernelStageModel::kLines, width("Lines0"));
  stages_->setColumnWidth(KernelStageModel::kChange, width("+000 −000"));
  connect(stages_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this] { RenderStage(); });
}

void KernelPanel::setupTextPane() {
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  diff_toggle_->setChecked(true);
  diff_toggle_->setToolTip(
      tr("Show the stage as a diff against the stage before (added lines green, removed red); "
         "off: the stage's text alone"));
  connect(diff_toggle_, &QCheckBox::toggled, this, [this] { RenderStage(); });
  indentation_toggle_->setToolTip(
      tr("Lines that differ only in leading whitespace are the same line (MLIR prints a "
         "function alone after a function pass and indented inside its module after a module "
         "pass)"));
  connect(indentation_toggle_, &QCheckBox::toggled, this, [this] { RenderStage(); });
  find_->setPlaceholderText(tr("Find in text"));
  find_->setClearButtonEnabled(true);
  find_->setMaximumWidth(260);
  connect(find_, &QLineEdit::returnPressed, this, [this] { Find(find_->text()); });
  connect(find_, &QLineEdit::textEdited, this, [this](const QString& text) {
    QTextCursor cursor = text_->textCursor();
    cursor.setPosition(cursor.selectionStart());
    text_->setTextCursor(cursor);
    Find(text);
  });
}

void KernelPanel::setupLayout() {
  header_->setTextFormat(Qt::RichText);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setContentsMargins(6, 4, 6, 4);
  header_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  placeholder_->setWordWrap(true);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  placeholder_->setContentsMargins(12, 12, 12, 12);

  auto* text_pane = new QWidget(this);
  auto* text_layout = new QVBoxLayout(text_pane);
  text_layout->setContentsMargins(0, 0, 0, 0);
  text_layout->setSpacing(2);
  auto* tools = new QHBoxLayout();
  tools->setContentsMargins(4, 0, 4, 0);
  tools->addWidget(diff_toggle_);
  tools->addWidget(indentation_toggle_);
  tools->addStretch(1);
  tools->addWidget(find_status_);
  tools->addWidget(find_);
  text_layout->addLayout(tools);
  text_layout->addWidget(text_, 1);

  splitter_->addWidget(stages_);
  splitter_->addWidget(text_pane);
  splitter_->setStretchFactor(0, 0);
  splitter_->setStretchFactor(1, 1);
  splitter_->setSizes({440, 1000});
  splitter_->setChildrenCollapsible(false);

  auto* content = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->setSpacing(0);
  content_layout->addWidget(header_);
  content_layout->addWidget(splitter_, 1);
  stack_->addWidget(placeholder_);
  stack_->addWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
  ShowPlaceholder(tr("No recording is open."));
}

bool KernelPanel::busy() const { return list_runner_->busy() || kernel_runner_->busy(); }

int KernelPanel::current_stage() const {
  const QModelIndex current = stages_->currentIndex();
  return current.isValid() ? current.row() : -1;
}

void KernelPanel::ShowPlaceholder(const QString& text) {
  placeholder_->setText(text);
  stack_->setCurrentIndex(0);
}

QString KernelPanel::CompileHint() const {
  const QString file =
      context_->file_path().isEmpty() ? QStringLiteral("RUN.fsdb") : context_->file_path();
  return tr("run `fusescope run %1 --device cpu` to compile").arg(file);
}

void KernelPanel::OnRecordingLoaded(const WorkbenchContext& context) {
  list_runner_->Cancel();
  kernel_runner_->Cancel();
  compiled_origin_.clear();
  compiled_instruction_ = -1;
  kernels_.clear();
  listed_ = false;
  timeline_.reset();
  model_->setData(nullptr);
  shown_snapshot_ = -1;
  shown_name_.clear();
  if (!context.recording()) {
    ShowPlaceholder(tr("No recording is open."));
    return;
  }
  if (context.file_path().isEmpty()) {
    listed_ = true;
    ShowPlaceholder(
        tr("No kernels: this recording was compiled in the workbench and is not "
           "saved. Save it (File ▸ Save Recording As…), then run `fusescope run "
           "RUN.fsdb --device cpu` to compile its kernels."));
    emit kernelsListed(0);
    return;
  }
  ListKernels(context.file_path());
}

void KernelPanel::ListKernels(const QString& path) {
  ShowPlaceholder(tr("Reading kernels…"));
  list_runner_->Submit([this, path]() -> LatestTaskRunner::Deliver {
    auto listed = recording::ListKernels(path.toStdString());
    return [this, path, listed = std::move(listed)]() mutable {
      listed_ = true;
      if (!listed.ok()) {
        ShowPlaceholder(tr("Could not read the kernels of %1: %2")
                            .arg(QFileInfo(path).fileName(), Text(listed.message())));
        emit kernelsListed(0);
        emit updated();
        return;
      }
      kernels_ = std::move(*listed);
      emit kernelsListed(static_cast<int>(kernels_.size()));
      Refresh();
    };
  });
}

void KernelPanel::OnPassChanged(const WorkbenchContext&) { Refresh(); }

void KernelPanel::OnSelectionChanged(const WorkbenchContext&) { Refresh(); }

// The kernel of the snapshot after the current pass, else the latest snapshot's: ids are
// stable, so a node that is still there is the one that was compiled.
const recording::KernelSummary* KernelPanel::KernelOf(int64_t instruction_id) const {
  const PassView* view = context_->pass_view();
  const int after = view ? static_cast<int>(view->pass_index() + 1) : -1;
  const recording::KernelSummary* found = nullptr;
  for (const recording::KernelSummary& kernel : kernels_) {
    if (kernel.instruction_id != instruction_id) continue;
    if (kernel.snapshot == after) return &kernel;
    if (!found || kernel.snapshot >= found->snapshot) found = &kernel;
  }
  return found;
}

int64_t KernelPanel::EnclosingFusion(int64_t instruction_id) const {
  const PassView* view = context_->pass_view();
  if (!view) return -1;
  for (GraphSide side : {GraphSide::kAfter, GraphSide::kBefore}) {
    const ir::Instruction* instruction = view->Find(side, instruction_id);
    // Fusions nest (a fusion inside a fused computation): the outermost is the kernel.
    const ir::Instruction* fusion = nullptr;
    while (instruction && instruction->parent() && instruction->parent()->fusion_instruction()) {
      fusion = instruction = instruction->parent()->fusion_instruction();
    }
    if (fusion) return fusion->id();
  }
  return -1;
}

QString KernelPanel::NodeName(int64_t instruction_id) const {
  const PassView* view = context_->pass_view();
  if (!view) return QString::number(instruction_id);
  for (GraphSide side : {GraphSide::kAfter, GraphSide::kBefore}) {
    if (const ir::Instruction* instruction = view->Find(side, instruction_id)) {
      return Text(instruction->name());
    }
  }
  return tr("node %1").arg(instruction_id);
}

void KernelPanel::Refresh() {
  if (!listed_ || !context_->recording() || context_->file_path().isEmpty()) return;
  const int64_t id = context_->selection().instruction_id;
  if (compiled_instruction_ >= 0) {
    if (id == compiled_instruction_) {
      stack_->setCurrentIndex(1);
      UpdateHeader();
      emit updated();
      return;
    }
    ForgetCompiled();
  }
  if (id < 0) {
    kernel_runner_->Cancel();
    shown_snapshot_ = -1;
    shown_name_.clear();
    ShowPlaceholder(kernels_.empty()
                        ? tr("No kernels in this recording: %1.").arg(CompileHint())
                        : tr("Select a fusion to see its kernel: %1 kernel(s) in this recording.")
                              .arg(kernels_.size()));
    emit updated();
    return;
  }
  const recording::KernelSummary* kernel = KernelOf(id);
  selected_inside_.clear();
  if (!kernel) {
    if (const int64_t fusion = EnclosingFusion(id); fusion >= 0 && (kernel = KernelOf(fusion))) {
      selected_inside_ = NodeName(id);
    }
  }
  if (!kernel) {
    kernel_runner_->Cancel();
    shown_snapshot_ = -1;
    shown_name_.clear();
    ShowPlaceholder(tr("No kernel recorded for %1: %2.").arg(NodeName(id), CompileHint()));
    emit updated();
    return;
  }
  if (kernel->snapshot == shown_snapshot_ && kernel->kernel == shown_name_) {
    if (!kernel_runner_->busy()) {
      stack_->setCurrentIndex(1);
      UpdateHeader();
      emit updated();
    }
    return;
  }
  LoadKernel(*kernel);
}

void KernelPanel::ForgetCompiled() {
  compiled_origin_.clear();
  compiled_instruction_ = -1;
  shown_snapshot_ = -1;
  shown_name_.clear();
}

void KernelPanel::ShowCompiledKernel(std::shared_ptr<const KernelTimeline> timeline,
                                     const QString& origin) {
  if (!timeline) return;
  kernel_runner_->Cancel();
  compiled_origin_ = origin;
  compiled_instruction_ = timeline->kernel().instruction_id;
  shown_snapshot_ = timeline->kernel().snapshot;
  shown_name_ = timeline->kernel().kernel;
  selected_inside_.clear();
  Show(std::move(timeline));
}

void KernelPanel::LoadKernel(const recording::KernelSummary& summary) {
  shown_snapshot_ = summary.snapshot;
  shown_name_ = summary.kernel;
  ShowPlaceholder(tr("Reading kernel %1…").arg(Text(summary.kernel)));
  const std::string path = context_->file_path().toStdString();
  kernel_runner_->Submit([this, path, snapshot = summary.snapshot,
                          name = summary.kernel]() -> LatestTaskRunner::Deliver {
    auto loaded = recording::LoadKernel(path, snapshot, name);
    std::shared_ptr<const KernelTimeline> timeline;
    QString error;
    if (!loaded.ok()) {
      error = Text(loaded.message());
    } else if (!loaded->has_value()) {
      error = tr("kernel %1 is no longer in %2").arg(Text(name), Text(path));
    } else {
      timeline = KernelTimeline::Build(std::move(**loaded));
    }
    return [this, timeline = std::move(timeline), error] {
      if (!timeline) {
        ShowPlaceholder(tr("Could not read the kernel: %1").arg(error));
        emit updated();
        return;
      }
      Show(timeline);
    };
  });
}

void KernelPanel::Show(std::shared_ptr<const KernelTimeline> timeline) {
  // The stage asked for, else the one shown before if the new kernel has it, else the last.
  QString wanted = pending_stage_;
  pending_stage_.clear();
  if (wanted.isEmpty() && timeline_ && current_stage() >= 0 &&
      current_stage() < static_cast<int>(timeline_->stages().size())) {
    wanted = Text(timeline_->stages()[static_cast<size_t>(current_stage())].name);
  }
  timeline_ = std::move(timeline);
  model_->setData(timeline_);
  int row = wanted.isEmpty() ? -1 : timeline_->FindStage(wanted.toStdString());
  if (row < 0) row = static_cast<int>(timeline_->stages().size()) - 1;
  if (row < 0) row = model_->failed_row();
  UpdateHeader();
  stack_->setCurrentIndex(1);
  SelectStage(row);
  RenderStage();
  emit updated();
}

void KernelPanel::UpdateHeader() {
  if (!timeline_) return;
  const recording::KernelRecord& kernel = timeline_->kernel();
  QStringList parts = {QStringLiteral("<b>%1</b>").arg(Text(kernel.kernel).toHtmlEscaped()),
                       Text(kernel.backend).toHtmlEscaped()};
  if (!kernel.options.empty()) parts << Text(kernel.options).toHtmlEscaped();
  parts << tr("compiled in %1").arg(FormatMs(kernel.compile_seconds));
  const PassView* view = context_->pass_view();
  const bool this_pass = view && kernel.snapshot == view->pass_index() + 1;
  parts << (kernel.snapshot == 0 ? tr("from the input graph")
                                 : tr("from the graph after pass %1").arg(kernel.snapshot - 1));
  QString text = parts.join(QStringLiteral(" · "));
  if (!this_pass) text += tr(" <i>(not this pass's graph)</i>");
  if (!selected_inside_.isEmpty()) {
    text += tr(" · the kernel of the fusion that holds %1").arg(selected_inside_.toHtmlEscaped());
  }
  if (!compiled_origin_.isEmpty()) {
    text += QStringLiteral("<br><i>%1</i>").arg(compiled_origin_.toHtmlEscaped());
  }
  if (!kernel.note.empty()) text += QStringLiteral("<br>") + Text(kernel.note).toHtmlEscaped();
  if (timeline_->stages().empty() && kernel.failed_stage.empty()) {
    text += tr("<br>No lowering stages: a %1 kernel.").arg(Text(kernel.backend).toHtmlEscaped());
  }
  if (!kernel.failed_stage.empty()) {
    text += QStringLiteral("<br><span style=\"color:%1\"><b>%2</b></span>")
                .arg(DiffColors::Stroke(ir::DiffStatus::kRemoved).name(),
                     tr("Lowering failed at %1: %2")
                         .arg(Text(kernel.failed_stage), Text(kernel.error))
                         .toHtmlEscaped());
  }
  header_->setText(text);
}

void KernelPanel::SelectStage(int row) {
  if (row < 0 || row >= model_->rowCount()) return;
  stages_->setCurrentIndex(model_->index(row, KernelStageModel::kStage));
  stages_->scrollTo(stages_->currentIndex());
}

void KernelPanel::RenderStage() {
  text_->clear();
  find_status_->clear();
  const int row = current_stage();
  if (!timeline_ || row < 0) return;
  if (row == model_->failed_row()) {
    diff_toggle_->setEnabled(false);
    indentation_toggle_->setEnabled(false);
    text_->setPlainText(
        tr("Lowering failed at %1:\n%2\n\nThe stages before it are kept.")
            .arg(Text(timeline_->kernel().failed_stage), Text(timeline_->kernel().error)));
    return;
  }
  diff_toggle_->setEnabled(row > 0);
  const bool as_diff = diff_toggle_->isChecked() && row > 0;
  indentation_toggle_->setEnabled(as_diff);
  if (!as_diff) {
    text_->setPlainText(Text(timeline_->kernel().stages[static_cast<size_t>(row)].text));
    return;
  }
  const std::vector<recording::KernelStage>& texts = timeline_->kernel().stages;
  std::vector<DiffLine> loose;
  if (indentation_toggle_->isChecked()) {
    loose = DiffTexts(texts[static_cast<size_t>(row) - 1].text,
                      texts[static_cast<size_t>(row)].text, {.ignore_indentation = true});
  }
  const std::vector<DiffLine>& diff =
      indentation_toggle_->isChecked() ? loose : timeline_->stages()[static_cast<size_t>(row)].diff;
  const int first_change = WriteDiff(*text_->document(), diff);
  // Start at the first change.
  if (first_change >= 0) {
    text_->setTextCursor(QTextCursor(text_->document()->findBlockByNumber(first_change)));
    text_->centerCursor();
  }
}

bool KernelPanel::Find(const QString& text) {
  find_status_->clear();
  if (text.isEmpty()) return false;
  if (text_->find(text)) return true;
  QTextCursor start = text_->textCursor();
  start.movePosition(QTextCursor::Start);
  text_->setTextCursor(start);
  if (text_->find(text)) return true;
  find_status_->setText(tr("not found"));
  return false;
}

bool KernelPanel::FocusKernel(const QString& name, const QString& stage) {
  const recording::KernelSummary* found = nullptr;
  for (const recording::KernelSummary& kernel : kernels_) {
    if (Text(kernel.kernel) != name) continue;
    if (!found || kernel.snapshot >= found->snapshot) found = &kernel;
  }
  if (!found) return false;
  pending_stage_ = stage;
  const PassView* view = context_->pass_view();
  if (found->snapshot > 0 && (!view || view->pass_index() + 1 != found->snapshot)) {
    context_->SetPass(found->snapshot - 1);
  }
  if (timeline_ && found->snapshot == shown_snapshot_ && found->kernel == shown_name_ &&
      !stage.isEmpty()) {
    const int row = timeline_->FindStage(stage.toStdString());
    if (row >= 0) SelectStage(row);
    pending_stage_.clear();
  }
  context_->SetSelection(Selection{found->instruction_id, GraphSide::kAfter, -1}, this);
  Refresh();
  return true;
}

}  // namespace fusescope::views
