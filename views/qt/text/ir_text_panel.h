#ifndef FUSESCOPE_VIEWS_QT_TEXT_IR_TEXT_PANEL_H_
#define FUSESCOPE_VIEWS_QT_TEXT_IR_TEXT_PANEL_H_

// The pass as HLO text: its text diff (or one side), highlighted. Clicking a line selects
// its instruction; selecting an instruction elsewhere scrolls to its line.

#include <QWidget>

#include "views/qt/context_observer.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListView;

namespace fusescope::views {

class IrLineDelegate;
class IrTextModel;
class WorkbenchContext;

class IrTextPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit IrTextPanel(WorkbenchContext* context, QWidget* parent = nullptr);

  QListView* view() const { return view_; }
  IrTextModel* model() const { return model_; }
  QComboBox* mode_box() const { return mode_; }

  void OnPassChanged(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

 private:
  void setupView();
  void setupToolbar();
  void setupLayout();
  void CurrentLineChanged(const QModelIndex& current);
  void ScrollToSelection();
  void CopySelectedLines();
  void UpdateSummary();

  WorkbenchContext* context_;
  IrTextModel* model_;
  IrLineDelegate* delegate_;
  QListView* view_;
  QComboBox* mode_;
  QCheckBox* changes_only_;
  QLabel* summary_;
  bool following_ = false;  // moving the current line to follow the context
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TEXT_IR_TEXT_PANEL_H_
