#ifndef FUSESCOPE_VIEWS_QT_DECISIONS_FUSION_DECISIONS_PANEL_H_
#define FUSESCOPE_VIEWS_QT_DECISIONS_FUSION_DECISIONS_PANEL_H_

// The fusion decisions of the recording, filterable. Activating a row shows its pass and
// focuses the pair in the graphs, with the reason written on the edge between them.

#include <QWidget>

#include "views/qt/context_observer.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace fusescope::views {

class FusionDecisionFilterModel;
class FusionDecisionModel;
class WorkbenchContext;

class FusionDecisionsPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit FusionDecisionsPanel(WorkbenchContext* context, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  FusionDecisionModel* model() const { return model_; }
  FusionDecisionFilterModel* filter() const { return filter_; }
  QComboBox* verdict_box() const { return verdict_; }
  QComboBox* pass_box() const { return pass_; }
  QComboBox* reason_box() const { return reason_; }
  QLineEdit* text_filter() const { return text_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

 private:
  void setupFilters();
  void setupTable();
  void setupLayout();
  void FillPassChoices();
  void FillReasonChoices();
  void Activate(const QModelIndex& proxy_index);
  void UpdateCount();
  void SizeColumns();

  WorkbenchContext* context_;
  FusionDecisionModel* model_;
  FusionDecisionFilterModel* filter_;
  QComboBox* verdict_;
  QComboBox* pass_;
  QComboBox* reason_;
  QLineEdit* text_;
  QLabel* count_;
  QTableView* table_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_DECISIONS_FUSION_DECISIONS_PANEL_H_
