#ifndef FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_PANEL_H_
#define FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_PANEL_H_

// Everything about the selected instruction. Rows that name another instruction or a
// fusion decision are links: activating one selects it.

#include <QWidget>

#include "views/qt/context_observer.h"

class QLabel;
class QTreeView;

namespace fusescope::views {

class InspectorModel;
class WorkbenchContext;

class InspectorPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit InspectorPanel(WorkbenchContext* context, QWidget* parent = nullptr);

  InspectorModel* model() const { return model_; }
  QTreeView* tree() const { return tree_; }
  QLabel* heading() const { return heading_; }

  void OnPassChanged(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;
  void OnRecordingLoaded(const WorkbenchContext& context) override;

 private:
  void setupViews();
  void setupLayout();
  void Refresh();
  void FitColumns();
  void resizeEvent(QResizeEvent* event) override;
  void FollowLink(const QModelIndex& index);

  WorkbenchContext* context_;
  InspectorModel* model_;
  QLabel* heading_;
  QLabel* subheading_;
  QTreeView* tree_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_PANEL_H_
