#ifndef FUSESCOPE_VIEWS_QT_KERNEL_KERNEL_PANEL_H_
#define FUSESCOPE_VIEWS_QT_KERNEL_KERNEL_PANEL_H_

// The kernel level of the open recording (recording/kernel_store.h): when the selected node
// has a kernel, its header (backend, options, compile time, note, the failed stage and error),
// its lowering stages as a timeline (lines each changed against the stage before) and the
// chosen stage's text as a diff against the stage before, or plain. Without a kernel, a line
// saying how to make one. The listing and the kernel's texts and diffs are read on workers; a
// newer request supersedes a stale one. A kernel compiled elsewhere and not stored (a tuning
// trial's) can be shown in its place while its node stays selected.

#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "recording/kernel_store.h"
#include "views/kernel_timeline.h"
#include "views/qt/context_observer.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace fusescope::views {

class KernelStageModel;
class LatestTaskRunner;
class WorkbenchContext;

class KernelPanel : public QWidget, public ContextObserver {
  Q_OBJECT

 public:
  explicit KernelPanel(WorkbenchContext* context, QWidget* parent = nullptr);
  ~KernelPanel() override;

  QLabel* header() const { return header_; }
  // The line shown instead of a kernel, and why.
  QLabel* placeholder() const { return placeholder_; }
  QTableView* stage_view() const { return stages_; }
  KernelStageModel* model() const { return model_; }
  QPlainTextEdit* text_view() const { return text_; }
  // Checked: the stage as a diff against the stage before; unchecked: its plain text.
  QCheckBox* diff_toggle() const { return diff_toggle_; }
  // Checked: lines that differ only in indentation count as kept in the diff.
  QCheckBox* indentation_toggle() const { return indentation_toggle_; }
  QLineEdit* find_box() const { return find_; }
  // The kernel on display, or null.
  const KernelTimeline* timeline() const { return timeline_.get(); }
  // Kernels in the recording's file, every snapshot.
  const std::vector<recording::KernelSummary>& kernels() const { return kernels_; }
  int current_stage() const;
  bool busy() const;

  // Shows kernel `name` of the latest snapshot that has one: moves to the pass that made that
  // snapshot if needed and selects the kernel's node everywhere; `stage` (a name or position)
  // is shown once the kernel is read, else its last stage. False when there is no such kernel.
  bool FocusKernel(const QString& name, const QString& stage = {});
  void SelectStage(int row);
  // Shows `timeline`, a kernel compiled elsewhere and not stored (a tuning trial's
  // configuration), `origin` saying in the header what it is. It stays while its node is
  // selected; another selection, or another recording, goes back to the stored kernels.
  void ShowCompiledKernel(std::shared_ptr<const KernelTimeline> timeline, const QString& origin);
  // What the kernel on display was compiled for, when ShowCompiledKernel put it there; empty
  // for a stored kernel.
  const QString& compiled_origin() const { return compiled_origin_; }
  // Selects the next line holding `text` in the text pane, wrapping around; false if none.
  bool Find(const QString& text);

  void OnRecordingLoaded(const WorkbenchContext& context) override;
  void OnPassChanged(const WorkbenchContext& context) override;
  void OnSelectionChanged(const WorkbenchContext& context) override;

 signals:
  // The kernels of a newly opened recording were listed; `count` of them.
  void kernelsListed(int count);
  // The panel shows what the selection asks for: a kernel, or the placeholder saying why not.
  void updated();
  // Reading kernels started or ended (a superseded read ends without an update).
  void busyChanged(bool busy);

 private:
  void setupStages();
  void setupTextPane();
  void setupLayout();
  void ShowPlaceholder(const QString& text);
  void ListKernels(const QString& path);
  void Refresh();
  const recording::KernelSummary* KernelOf(int64_t instruction_id) const;
  // The fusion holding `instruction_id` when it is a fused instruction, else -1.
  int64_t EnclosingFusion(int64_t instruction_id) const;
  QString NodeName(int64_t instruction_id) const;
  void LoadKernel(const recording::KernelSummary& summary);
  void Show(std::shared_ptr<const KernelTimeline> timeline);
  void UpdateHeader();
  void RenderStage();
  QString CompileHint() const;
  void ForgetCompiled();

  WorkbenchContext* context_;
  KernelStageModel* model_;
  QLabel* header_;
  QLabel* placeholder_;
  QTableView* stages_;
  QPlainTextEdit* text_;
  QCheckBox* diff_toggle_;
  QCheckBox* indentation_toggle_;
  QLineEdit* find_;
  QLabel* find_status_;
  QSplitter* splitter_;
  QStackedWidget* stack_;
  LatestTaskRunner* list_runner_;
  LatestTaskRunner* kernel_runner_;
  std::vector<recording::KernelSummary> kernels_;
  bool listed_ = false;
  std::shared_ptr<const KernelTimeline> timeline_;
  // Which stored kernel timeline_ (or the load under way) is: snapshot and name.
  int shown_snapshot_ = -1;
  std::string shown_name_;
  QString pending_stage_;
  // The fused instruction selected when the kernel shown is its fusion's; empty otherwise.
  QString selected_inside_;
  // The kernel on display came from ShowCompiledKernel: what for, and its node.
  QString compiled_origin_;
  int64_t compiled_instruction_ = -1;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_KERNEL_KERNEL_PANEL_H_
