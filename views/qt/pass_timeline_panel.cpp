#include "views/qt/pass_timeline_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include "views/qt/pass_actions.h"
#include "views/qt/pass_timeline_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {

PassTimelinePanel::PassTimelinePanel(WorkbenchContext* context, PassActions* actions,
                                     QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new PassTimelineModel(this)),
      table_(new QTableView(this)),
      summary_(new QLabel(this)) {
  setupTable();
  setupLayout(actions);
  context_->AddObserver(this, this);
}

void PassTimelinePanel::setupTable() {
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->setShowGrid(false);
  table_->setAlternatingRowColors(false);
  table_->setWordWrap(false);
  QHeaderView* header = table_->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(PassTimelineModel::kName, QHeaderView::Stretch);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) context_->SetPass(current.row());
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
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(bar);
  layout->addWidget(table_);
}

void PassTimelinePanel::SelectRow(int64_t pass) {
  if (pass < 0 || pass >= model_->rowCount()) return;
  const QModelIndex index = model_->index(static_cast<int>(pass), PassTimelineModel::kName);
  if (table_->currentIndex().row() == index.row()) return;
  QSignalBlocker blocker(table_->selectionModel());
  table_->selectionModel()->setCurrentIndex(
      index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table_->viewport()->update();
  table_->scrollTo(index);
}

void PassTimelinePanel::UpdateSummary() {
  const recording::Recording* recording = context_->recording();
  if (!recording) {
    summary_->clear();
    return;
  }
  int changed = 0;
  for (const recording::PassRecord& pass : recording->passes) changed += pass.changed ? 1 : 0;
  summary_->setText(tr("%1 passes, %2 changed").arg(recording->passes.size()).arg(changed));
}

void PassTimelinePanel::OnRecordingLoaded(const WorkbenchContext& context) {
  model_->setData(context.shared_recording());
  UpdateSummary();
}

void PassTimelinePanel::OnPassChanged(const WorkbenchContext& context) {
  SelectRow(context.requested_pass());
}

}  // namespace fusescope::views
