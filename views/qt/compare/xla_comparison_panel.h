#ifndef FUSESCOPE_VIEWS_QT_COMPARE_XLA_COMPARISON_PANEL_H_
#define FUSESCOPE_VIEWS_QT_COMPARE_XLA_COMPARISON_PANEL_H_

// XLA's fusion next to ours, for a recording imported from an XLA dump: our cpu or gpu
// pipeline compiles the module XLA's fusion passes saw (the snapshot before XLA's first
// fusing pass), and every producer -> consumer pair of that module is listed as fused by
// both, by XLA only (with our recorded reason for refusing) or by us only. The compile and
// the comparison run on a worker; a newer request supersedes a stale one. A row selects its
// producer on the "before" graph of XLA's first fusing pass, where both ends of the pair are
// still separate instructions.

#include <QString>
#include <QWidget>
#include <memory>

#include "recording/fusion_comparison.h"
#include "recording/recording.h"
#include "views/qt/context_observer.h"

class QComboBox;
class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace fusescope::views {

class FusionPairModel;
class LatestTaskRunner;
class WorkbenchContext;

// What a worker made of one recording with one pipeline.
struct XlaComparisonResult {
  QString pipeline;
  int64_t base_snapshot = 0;  // XLA's module before its first fusing pass
  recording::FusionComparison comparison;
  QString error;  // set when our pipeline or the comparison failed
};

class XlaComparisonPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit XlaComparisonPanel(WorkbenchContext* context, QWidget* parent = nullptr);
  ~XlaComparisonPanel() override;

  // Whether `recording` was imported from an XLA dump (its pipeline is XLA's: "xla-gpu").
  static bool IsXlaDump(const recording::Recording& recording);
  // Runs on any thread: compiles the base snapshot of `xla` with our `pipeline` and compares.
  static XlaComparisonResult Compare(const recording::Recording& xla, const QString& pipeline);

  // The pipeline a dump opened from now on starts with ("cpu", "gpu"); empty: the dump's
  // platform.
  void set_preferred_pipeline(const QString& pipeline) { preferred_pipeline_ = pipeline; }

  QComboBox* pipeline_box() const { return pipeline_box_; }
  QComboBox* filter_box() const { return filter_box_; }
  QLabel* summary() const { return summary_; }
  QLabel* placeholder() const { return placeholder_; }
  QTableView* table() const { return table_; }
  FusionPairModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  const std::shared_ptr<const XlaComparisonResult>& result() const { return result_; }
  bool busy() const;
  // The open recording is an XLA dump: the panel has something to show.
  bool available() const { return available_; }

  void OnRecordingLoaded(const WorkbenchContext& context) override;

 signals:
  // The table shows the comparison for the chosen pipeline (or its error).
  void updated();
  // A recording was opened; `available` tells whether it is an XLA dump.
  void availabilityChanged(bool available);
  // busy() changed; also when a superseded comparison ends without updating the table.
  void busyChanged(bool busy);

 private:
  void setupHeader();
  void setupTable();
  void setupLayout();
  void ShowPlaceholder(const QString& text);
  void Recompute();
  void Deliver(std::shared_ptr<const XlaComparisonResult> result);
  void ApplyFilter();
  void Activate(const QModelIndex& proxy_index);

  WorkbenchContext* context_;
  FusionPairModel* model_;
  QSortFilterProxyModel* proxy_;
  QComboBox* pipeline_box_;
  QComboBox* filter_box_;
  QLabel* summary_;
  QLabel* placeholder_;
  QTableView* table_;
  QStackedWidget* stack_;
  LatestTaskRunner* runner_;
  std::shared_ptr<const XlaComparisonResult> result_;
  bool available_ = false;
  QString preferred_pipeline_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_COMPARE_XLA_COMPARISON_PANEL_H_
