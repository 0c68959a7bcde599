#include "views/qt/passes/pass_timeline_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <vector>

#include "views/qt/passes/pass_actions.h"
#include "views/qt/passes/pass_timeline_model.h"
#include "views/qt/row_table.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

// Rows whose pass name holds the filter text (any case), and only changed ones when asked.
class PassFilter : public QSortFilterProxyModel {
 public:
  explicit PassFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(PassTimelineModel::kName);
  }
  void SetChangedOnly(bool changed_only) {
    changed_only_ = changed_only;
    invalidateFilter();
  }

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
    const QModelIndex index = sourceModel()->index(row, PassTimelineModel::kName, parent);
    if (changed_only_ && !index.data(PassTimelineModel::kChangedRole).toBool()) return false;
    return QSortFilterProxyModel::filterAcceptsRow(row, parent);
  }

 private:
  bool changed_only_ = false;
};

}  // namespace

PassTimelinePanel::PassTimelinePanel(WorkbenchContext* context, PassActions* actions,
                                     QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new PassTimelineModel(this)),
      shown_(new PassFilter(this)),
      table_(new QTableView(this)),
      filter_(new QLineEdit(this)),
      changed_only_(new QCheckBox(tr("Changed only"), this)),
      summary_(new QLabel(this)) {
  setupTable();
  setupFilter();
  setupLayout(actions);
  context_->AddObserver(this, this);
}

void PassTimelinePanel::setupTable() {
  shown_->setSourceModel(model_);
  table_->setModel(shown_);
  table_->setTextElideMode(Qt::ElideMiddle);
  SetUpRowTable(table_);
  table_->setAlternatingRowColors(false);
  QHeaderView* header = table_->horizontalHeader();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(PassTimelineModel::kName, QHeaderView::Stretch);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid())
              context_->SetPass(current.data(PassTimelineModel::kPassIndexRole).toLongLong());
          });
}

void PassTimelinePanel::setupFilter() {
  filter_->setPlaceholderText(tr("Filter passes"));
  filter_->setClearButtonEnabled(true);
  filter_->setToolTip(tr("Show the passes whose name holds this text"));
  changed_only_->setToolTip(tr("Show only the passes that changed the module"));
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    shown_->setFilterFixedString(text);
    SelectRow(context_->requested_pass());
    UpdateSummary();
  });
  connect(changed_only_, &QCheckBox::toggled, this, [this](bool checked) {
    static_cast<PassFilter*>(shown_)->SetChangedOnly(checked);
    SelectRow(context_->requested_pass());
    UpdateSummary();
  });
}

void PassTimelinePanel::setupLayout(PassActions* actions) {
  auto* bar = new QToolBar(this);
  bar->setIconSize(QSize(16, 16));
  bar->addAction(actions->previous());
  bar->addAction(actions->next());
  bar->addAction(actions->next_changed());
  bar->addSeparator();
  bar->addWidget(summary_);
  summary_->setContentsMargins(6, 0, 0, 0);
  auto* filters = new QHBoxLayout();
  filters->setContentsMargins(4, 2, 4, 2);
  filters->addWidget(filter_, 1);
  filters->addWidget(changed_only_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(bar);
  layout->addLayout(filters);
  layout->addWidget(table_);
}

void PassTimelinePanel::SelectRow(int64_t pass) {
  if (pass < 0 || pass >= model_->rowCount()) return;
  const QModelIndex index =
      shown_->mapFromSource(model_->index(static_cast<int>(pass), PassTimelineModel::kName));
  if (!index.isValid()) return;  // filtered out
  if (table_->currentIndex().row() == index.row()) return;
  QSignalBlocker blocker(table_->selectionModel());
  table_->selectionModel()->setCurrentIndex(
      index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table_->viewport()->update();
  table_->scrollTo(index);
  // A table not laid out yet (a recording opened on a late pass) scrolls to nothing; once
  // the event loop has laid it out, the current row is brought into view again.
  QTimer::singleShot(0, table_, [this] {
    if (table_->currentIndex().isValid())
      table_->scrollTo(table_->currentIndex(), QAbstractItemView::PositionAtCenter);
  });
}

void PassTimelinePanel::UpdateSummary() {
  const recording::Recording* recording = context_->recording();
  if (!recording) {
    summary_->clear();
    return;
  }
  int changed = 0;
  for (const recording::PassRecord& pass : recording->passes) changed += pass.changed ? 1 : 0;
  QString text = tr("%1 passes, %2 changed").arg(recording->passes.size()).arg(changed);
  if (shown_->rowCount() != model_->rowCount()) text += tr(", %1 shown").arg(shown_->rowCount());
  summary_->setText(text);
}

void PassTimelinePanel::UpdateColumns() {
  for (int column = 0; column < PassTimelineModel::kColumnCount; ++column)
    table_->setColumnHidden(column, model_->ColumnIsEmpty(column));
}

void PassTimelinePanel::OnRecordingLoaded(const WorkbenchContext& context) {
  model_->setData(context.shared_recording());
  UpdateColumns();
  UpdateSummary();
  SelectRow(context.requested_pass());
}

int PassTimelinePanel::WidthForNames() const {
  std::vector<int> widths;
  const QFontMetrics metrics(table_->font());
  for (int row = 0; row < model_->rowCount(); ++row) {
    widths.push_back(
        metrics.horizontalAdvance(model_->index(row, PassTimelineModel::kName).data().toString()));
  }
  if (widths.empty()) return 0;
  std::sort(widths.begin(), widths.end());
  const int name = widths[widths.size() * 9 / 10];
  int others = 0;
  for (int column = 0; column < PassTimelineModel::kColumnCount; ++column) {
    if (column != PassTimelineModel::kName && !table_->isColumnHidden(column))
      others += table_->horizontalHeader()->sectionSizeHint(column);
  }
  // Cell padding, the frame and a vertical scroll bar.
  const int chrome = 2 * metrics.averageCharWidth() + 2 * table_->frameWidth() +
                     table_->verticalScrollBar()->sizeHint().width();
  return name + others + chrome;
}

void PassTimelinePanel::OnPassChanged(const WorkbenchContext& context) {
  SelectRow(context.requested_pass());
}

}  // namespace fusescope::views
