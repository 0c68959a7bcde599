#include "views/qt/inspector/inspector_panel.h"

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
  tree_->expandAll();
  tree_->resizeColumnToContents(InspectorModel::kKey);
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
