#include "views/qt/inspector/inspector_panel.h"

#include <algorithm>

#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

#include "views/qt/graph/diff_colors.h"
#include "views/qt/inspector/inspector_builder.h"
#include "views/qt/inspector/inspector_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {

InspectorPanel::InspectorPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new InspectorModel(this)),
      heading_(new QLabel(this)),
      subheading_(new QLabel(this)),
      tree_(new QTreeView(this)) {
  setupViews();
  setupLayout();
  Refresh();
  context_->AddObserver(this, this);
}

void InspectorPanel::setupViews() {
  QFont font = heading_->font();
  font.setPointSizeF(font.pointSizeF() * 1.25);
  font.setBold(true);
  heading_->setFont(font);
  heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  subheading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  subheading_->setWordWrap(true);
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  tree_->setWordWrap(false);
  tree_->setTextElideMode(Qt::ElideMiddle);
  tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
  tree_->header()->setStretchLastSection(true);
  connect(tree_, &QTreeView::activated, this, &InspectorPanel::FollowLink);
  connect(tree_, &QTreeView::doubleClicked, this, &InspectorPanel::FollowLink);
}

void InspectorPanel::setupLayout() {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 0);
  layout->setSpacing(2);
  layout->addWidget(heading_);
  layout->addWidget(subheading_);
  layout->addSpacing(4);
  layout->addWidget(tree_, 1);
}

void InspectorPanel::Refresh() {
  const PassView* view = context_->pass_view();
  const Selection& selection = context_->selection();
  InspectorContent content;
  if (view && selection.instruction_id >= 0) {
    content = InspectorBuilder(*view, selection.side, selection.instruction_id).Build();
  }
  if (content.empty()) {
    heading_->setText(tr("Nothing selected"));
    subheading_->setText(tr("Click a node in a graph, a line of IR text or a search result."));
  } else {
    heading_->setText(QString::fromStdString(content.heading));
    const QColor color = DiffColors::Stroke(content.status);
    const QString status = DiffColors::Label(content.status);
    subheading_->setText(
        QStringLiteral("%1 <span style='color:%2'><b>%3</b></span>")
            .arg(QString::fromStdString(content.subheading).toHtmlEscaped(),
                 color.isValid() ? color.name() : palette().color(QPalette::WindowText).name(),
                 status));
  }
  model_->setData(std::move(content));
  // Section headings span the row, so that the longest of them ("History across passes")
  // does not widen the property column.
  for (int row = 0; row < model_->rowCount(); ++row)
    tree_->setFirstColumnSpanned(row, QModelIndex(), true);
  tree_->expandAll();
  FitColumns();
}

void InspectorPanel::FitColumns() {
  // The property column fits its longest name, but takes at most half the width: in a
  // narrow dock the values keep the rest, elided in the middle (the full value is the row's
  // tooltip).
  const QFontMetrics metrics(tree_->font());
  int widest = 0;
  for (int section = 0; section < model_->rowCount(); ++section) {
    const QModelIndex parent = model_->index(section, InspectorModel::kKey);
    for (int row = 0; row < model_->rowCount(parent); ++row) {
      const QString key = model_->index(row, InspectorModel::kKey, parent).data().toString();
      widest = std::max(widest, metrics.horizontalAdvance(key));
    }
  }
  // A property sits two levels in (its section's branch mark, then its own), plus margins.
  const int wanted = widest + 2 * tree_->indentation() + 2 * metrics.averageCharWidth();
  const int limit = std::max(60, tree_->viewport()->width() / 2);
  tree_->setColumnWidth(InspectorModel::kKey, std::min(wanted, limit));
}

void InspectorPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  FitColumns();
}

void InspectorPanel::FollowLink(const QModelIndex& index) {
  const int64_t decision = index.data(InspectorModel::kDecisionIndexRole).toLongLong();
  const int64_t link = index.data(InspectorModel::kLinkIdRole).toLongLong();
  const recording::Recording* recording = context_->recording();
  if (decision >= 0 && recording) {
    const auto& record = recording->decisions[static_cast<size_t>(decision)];
    if (record.pass_index != context_->requested_pass()) context_->SetPass(record.pass_index);
    context_->SetSelection(WorkbenchContext::DecisionSelection(*recording, decision));
    return;
  }
  if (link < 0) return;
  const auto side = static_cast<GraphSide>(index.data(InspectorModel::kLinkSideRole).toInt());
  context_->SetSelection(Selection{link, side, -1});
}

void InspectorPanel::OnRecordingLoaded(const WorkbenchContext&) { Refresh(); }

void InspectorPanel::OnPassChanged(const WorkbenchContext&) { Refresh(); }

void InspectorPanel::OnSelectionChanged(const WorkbenchContext&) { Refresh(); }

}  // namespace fusescope::views
