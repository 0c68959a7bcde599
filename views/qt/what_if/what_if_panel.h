#ifndef FUSESCOPE_VIEWS_QT_WHAT_IF_WHAT_IF_PANEL_H_
#define FUSESCOPE_VIEWS_QT_WHAT_IF_WHAT_IF_PANEL_H_

// The What If dock: runs a what-if experiment on the open recording (WhatIfExperiment: B
// compiled by a worker, with progress and cancel) and shows how B differs from A: the
// options that differ, the passes side by side (those after which A and B differ marked),
// and the final fusions that differ with the refusals that decided them. Picking a fusion
// selects it on the graph of the open recording (A's fusion while A is open, B's once B is
// opened). A stays the open recording; B is kept here, to open as the main recording or to
// save as a .fsdb file.

#include <QString>
#include <QWidget>
#include <memory>

#include "passes/pipeline_options.h"
#include "recording/recording.h"
#include "views/qt/what_if/what_if_experiment.h"

class QLabel;
class QModelIndex;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTableWidget;
class QTextBrowser;

namespace fusescope::views {

class WhatIfFusionModel;
class WorkbenchContext;

class WhatIfPanel : public QWidget {
  Q_OBJECT

 public:
  explicit WhatIfPanel(WorkbenchContext* context, QWidget* parent = nullptr);

  // Compiles the open recording's input with `b_options` and compares. Fails (failed())
  // when no recording with an input module is open.
  void Run(const passes::PipelineOptions& b_options);
  void Cancel();
  bool busy() const { return experiment_->busy(); }
  // Saves B on a pool thread; savedB() follows, with the error when it failed.
  void SaveB(const QString& path);

  // The last comparison shown; null before the first.
  const std::shared_ptr<const WhatIfResult>& result() const { return result_; }
  WhatIfExperiment* experiment() const { return experiment_; }
  QLabel* title() const { return title_; }
  QLabel* summary() const { return summary_; }
  QLabel* placeholder() const { return placeholder_; }
  QTableWidget* options_table() const { return options_; }
  QTableWidget* pass_table() const { return passes_; }
  QTableView* fusion_table() const { return fusions_; }
  WhatIfFusionModel* fusion_model() const { return model_; }
  QTextBrowser* details() const { return details_; }
  QPushButton* open_b_button() const { return open_b_; }
  QPushButton* save_b_button() const { return save_b_; }
  QPushButton* cancel_button() const { return cancel_; }
  QProgressBar* progress_bar() const { return progress_; }

 signals:
  void started(const QString& what);
  // The comparison of a new B is shown.
  void whatIfReady(std::shared_ptr<const fusescope::recording::Recording> b);
  // The experiment failed or was canceled: nothing new is shown.
  void failed(const QString& message);
  void openRecordingRequested(std::shared_ptr<const fusescope::recording::Recording> recording,
                              const QString& title);
  void savedB(const QString& path, const QString& error);

 private:
  void setupHeader();
  void setupTables();
  void setupLayout();
  void setupExperiment();
  void SetBusy(bool busy);
  void Show(std::shared_ptr<const WhatIfResult> result);
  void ShowOptions(const WhatIfResult& result);
  void ShowPasses(const WhatIfResult& result);
  void ShowDetails(const QModelIndex& index);
  void Activate(const QModelIndex& index);
  void ShowSaveDialog();

  WorkbenchContext* context_;
  WhatIfExperiment* experiment_;
  std::shared_ptr<const WhatIfResult> result_;
  WhatIfFusionModel* model_;
  QLabel* title_;
  QLabel* summary_;
  QLabel* placeholder_;
  QProgressBar* progress_;
  QPushButton* cancel_;
  QPushButton* open_b_;
  QPushButton* save_b_;
  QTableWidget* options_;
  QTableWidget* passes_;
  QTableView* fusions_;
  QTextBrowser* details_;
  QStackedWidget* stack_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WHAT_IF_WHAT_IF_PANEL_H_
