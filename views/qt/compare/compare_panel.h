#ifndef FUSESCOPE_VIEWS_QT_COMPARE_COMPARE_PANEL_H_
#define FUSESCOPE_VIEWS_QT_COMPARE_COMPARE_PANEL_H_

// The comparisons stored in the open recording (`fusescope compare ... -o CMP.fsdb`): a chart
// (latency per compiler with its p50/p95/p99, throughput against batch size, build time,
// memory), the table of every compiler variant and shape, each compiler's status, what it
// could not compile and what it was given; and, for the node selected on the graph, the op of
// the model it holds followed into each compiler's kernels with their times. Activating a row
// opens that compiler's own passes (the recording made of its dumps).

#include <QString>
#include <QWidget>
#include <map>
#include <vector>

#include "compare/comparison.h"
#include "views/qt/context_observer.h"

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTextBrowser;

namespace fusescope::views {

class ComparisonRowModel;
class WorkbenchContext;

class ComparePanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  enum class ChartKind { kLatency, kThroughput, kBuild, kMemory };

  explicit ComparePanel(WorkbenchContext* context, QWidget* parent = nullptr);

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

  bool available() const { return !comparisons_.empty(); }
  QComboBox* comparison_box() const { return comparison_box_; }
  QComboBox* chart_box() const { return chart_box_; }
  QComboBox* shape_box() const { return shape_box_; }
  QChart* chart() const { return chart_; }
  QTableView* table() const { return table_; }
  ComparisonRowModel* model() const { return model_; }
  QTextBrowser* compilers() const { return compilers_; }
  QLabel* followed() const { return followed_; }
  QLabel* placeholder() const { return placeholder_; }
  // The recording of `compiler`'s own passes in the shown comparison, or empty.
  QString PeerRecording(const QString& compiler) const;

 signals:
  // A row was activated whose compiler's passes were recorded: open that file.
  void openRecordingRequested(const QString& path);
  void availabilityChanged(bool available);

 private:
  void setupHeader();
  void setupBody();
  void ShowComparison(int index);
  void RedrawChart();
  void DrawLatency(const QString& shape);
  void DrawThroughput();
  void DrawBars(const QString& title, const QString& unit,
                const std::vector<std::pair<QString, std::vector<double>>>& sets);
  void ShowCompilers();
  void FollowSelection(const WorkbenchContext& context);
  void Activate(const QModelIndex& proxy_index);
  const compare::Comparison* current() const;

  WorkbenchContext* context_;
  struct Stored {
    compare::Comparison comparison;
    std::map<std::string, std::string> peer_recordings;
    QString label;
  };
  std::vector<Stored> comparisons_;
  int shown_ = -1;
  QComboBox* comparison_box_;
  QComboBox* chart_box_;
  QComboBox* shape_box_;
  QChart* chart_;
  QChartView* chart_view_;
  ComparisonRowModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QTextBrowser* compilers_;
  QLabel* followed_;
  QLabel* placeholder_;
  QStackedWidget* stack_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_COMPARE_COMPARE_PANEL_H_
