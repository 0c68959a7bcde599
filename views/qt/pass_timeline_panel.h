#ifndef FUSESCOPE_VIEWS_QT_PASS_TIMELINE_PANEL_H_
#define FUSESCOPE_VIEWS_QT_PASS_TIMELINE_PANEL_H_

// Every pass of the recording in order, the current one selected. Clicking a pass shows it;
// the toolbar steps like a debugger.

#include <QWidget>

#include "views/qt/context_observer.h"

class QLabel;
class QTableView;

namespace fusescope::views {

class PassActions;
class PassTimelineModel;
class WorkbenchContext;

class PassTimelinePanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  PassTimelinePanel(WorkbenchContext* context, PassActions* actions, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  PassTimelineModel* model() const { return model_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;

 private:
  void setupTable();
  void setupLayout(PassActions* actions);
  void SelectRow(int64_t pass);
  void UpdateSummary();

  WorkbenchContext* context_;
  PassTimelineModel* model_;
  QTableView* table_;
  QLabel* summary_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_PASS_TIMELINE_PANEL_H_
