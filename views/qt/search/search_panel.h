#ifndef FUSESCOPE_VIEWS_QT_SEARCH_SEARCH_PANEL_H_
#define FUSESCOPE_VIEWS_QT_SEARCH_SEARCH_PANEL_H_

// Search the current pass's instructions by name, opcode, shape or regex; step through the
// hits with next/previous (F3, Shift+F3), each one selected in every panel.

#include <QWidget>

#include "views/qt/context_observer.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace fusescope::views {

class SearchResultModel;
class WorkbenchContext;

class SearchPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit SearchPanel(WorkbenchContext* context, QWidget* parent = nullptr);

  QLineEdit* query() const { return query_; }
  QComboBox* field_box() const { return field_; }
  QComboBox* side_box() const { return side_; }
  SearchResultModel* model() const { return model_; }
  QTableView* table() const { return table_; }

  void FocusQuery();
  void Next();
  void Previous();
  // Runs the search now (typing runs it after a short pause).
  void Search();

  void OnPassChanged(const WorkbenchContext& context) override;

 private:
  void setupInputs();
  void setupTable();
  void setupLayout();
  void Go(int row);

  WorkbenchContext* context_;
  SearchResultModel* model_;
  QLineEdit* query_;
  QComboBox* field_;
  QComboBox* side_;
  QLabel* count_;
  QTableView* table_;
  QTimer* debounce_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_SEARCH_SEARCH_PANEL_H_
