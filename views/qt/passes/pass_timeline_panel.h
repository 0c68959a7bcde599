#ifndef FUSESCOPE_VIEWS_QT_PASSES_PASS_TIMELINE_PANEL_H_
#define FUSESCOPE_VIEWS_QT_PASSES_PASS_TIMELINE_PANEL_H_

// Every pass of the recording in order, the current one selected. Clicking a pass shows it;
// the toolbar steps like a debugger. A filter keeps the passes whose name holds some text,
// and, checked, only those that changed the module: a 600-pass MLIR log stays readable.
// Names too long for the column are elided in the middle (the tooltip has them whole), and the
// window widens the panel to its names (WidthForNames) when a recording loads;
// columns with nothing to say for the recording (Time of an imported one) are hidden.

#include <QWidget>

#include "views/qt/context_observer.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
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
  // What the table shows: the model through the name filter and "Changed only".
  QSortFilterProxyModel* shown() const { return shown_; }
  QLineEdit* filter() const { return filter_; }
  QCheckBox* changed_only() const { return changed_only_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;

  // The width the panel wants for the loaded recording's pass names: the table's other
  // columns and a name as long as 9 in 10 of the names, so that most names show whole and
  // the rest are elided in the middle.
  int WidthForNames() const;

 private:
  void setupTable();
  void setupFilter();
  void setupLayout(PassActions* actions);
  void SelectRow(int64_t pass);
  void UpdateSummary();
  void UpdateColumns();

  WorkbenchContext* context_;
  PassTimelineModel* model_;
  QSortFilterProxyModel* shown_;
  QTableView* table_;
  QLineEdit* filter_;
  QCheckBox* changed_only_;
  QLabel* summary_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_PASSES_PASS_TIMELINE_PANEL_H_
