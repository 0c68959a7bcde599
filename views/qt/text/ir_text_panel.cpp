#include "views/qt/text/ir_text_panel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>

#include "views/qt/text/ir_line_delegate.h"
#include "views/qt/text/ir_text_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {

IrTextPanel::IrTextPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new IrTextModel(this)),
      delegate_(new IrLineDelegate(model_, this)),
      view_(new QListView(this)),
      mode_(new QComboBox(this)),
      changes_only_(new QCheckBox(tr("Changes only"), this)),
      summary_(new QLabel(this)) {
  setupView();
  setupToolbar();
  setupLayout();
  context_->AddObserver(this, this);
}

void IrTextPanel::setupView() {
  const QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  delegate_->SetFont(font);
  view_->setFont(font);
  view_->setModel(model_);
  view_->setItemDelegate(delegate_);
  view_->setUniformItemSizes(true);
  view_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setTextElideMode(Qt::ElideNone);
  connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) { CurrentLineChanged(current); });
  auto* copy = new QAction(tr("Copy"), view_);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  connect(copy, &QAction::triggered, this, &IrTextPanel::CopySelectedLines);
  view_->addAction(copy);
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
}

void IrTextPanel::setupToolbar() {
  mode_->addItem(tr("Diff of the pass"), static_cast<int>(IrTextModel::Mode::kDiff));
  mode_->addItem(tr("Before the pass"), static_cast<int>(IrTextModel::Mode::kBefore));
  mode_->addItem(tr("After the pass"), static_cast<int>(IrTextModel::Mode::kAfter));
  connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
    model_->SetMode(static_cast<IrTextModel::Mode>(mode_->currentData().toInt()));
    ScrollToSelection();
  });
  connect(changes_only_, &QCheckBox::toggled, this, [this](bool on) {
    model_->SetChangesOnly(on);
    ScrollToSelection();
  });
}

void IrTextPanel::setupLayout() {
  auto* bar = new QHBoxLayout();
  bar->setContentsMargins(4, 4, 4, 4);
  bar->addWidget(mode_);
  bar->addWidget(changes_only_);
  bar->addStretch(1);
  bar->addWidget(summary_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(bar);
  layout->addWidget(view_);
}

void IrTextPanel::CurrentLineChanged(const QModelIndex& current) {
  if (following_ || !current.isValid()) return;
  const int64_t id = current.data(IrTextModel::kInstructionIdRole).toLongLong();
  if (id < 0) return;
  const auto side = static_cast<GraphSide>(current.data(IrTextModel::kSideRole).toInt());
  context_->SetSelection(Selection{id, side, -1}, this);
}

void IrTextPanel::ScrollToSelection() {
  const Selection& selection = context_->selection();
  const int row =
      selection.instruction_id < 0 ? -1 : model_->RowOf(selection.instruction_id, selection.side);
  following_ = true;
  if (row < 0) {
    view_->selectionModel()->clearSelection();
  } else {
    const QModelIndex index = model_->index(row);
    view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    view_->scrollTo(index, QAbstractItemView::PositionAtCenter);
    view_->horizontalScrollBar()->setValue(0);
  }
  following_ = false;
}

void IrTextPanel::CopySelectedLines() {
  QModelIndexList rows = view_->selectionModel()->selectedIndexes();
  std::sort(rows.begin(), rows.end(),
            [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  QStringList lines;
  for (const QModelIndex& index : rows) lines << index.data().toString();
  QApplication::clipboard()->setText(lines.join('\n'));
}

void IrTextPanel::UpdateSummary() {
  const PassView* view = context_->pass_view();
  if (view && !view->source_language().empty()) {
    int added = 0;
    int removed = 0;
    for (const IrLine& line : view->diff_lines()) {
      added += line.status == ir::DiffStatus::kAdded;
      removed += line.status == ir::DiffStatus::kRemoved;
    }
    // Named as the compiler's engineers name what they read.
    const QString source =
        view->source_language() == "tvmscript"  ? tr("TVMScript as TVM printed it")
        : view->source_language() == "fx graph" ? tr("The FX graph as Inductor printed it")
        : view->source_language() == "inductor ir"
            ? tr("Inductor's scheduler nodes (and generated code) as it printed them")
            : tr("%1 as the log printed it")
                  .arg(QString::fromStdString(view->source_language()).toUpper());
    summary_->setText(tr("%1: %2 lines added, %3 removed").arg(source).arg(added).arg(removed));
    return;
  }
  if (!view || !view->diff()) {
    summary_->setText(view ? QString::fromStdString(view->error()) : QString());
    return;
  }
  summary_->setText(QString::fromStdString(view->diff()->CountsLine()));
}

void IrTextPanel::OnPassChanged(const WorkbenchContext& context) {
  model_->setData(context.shared_pass_view());
  UpdateSummary();
  ScrollToSelection();
}

void IrTextPanel::OnSelectionChanged(const WorkbenchContext&) { ScrollToSelection(); }

}  // namespace fusescope::views
