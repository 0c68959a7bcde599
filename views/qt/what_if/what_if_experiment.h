#ifndef FUSESCOPE_VIEWS_QT_WHAT_IF_EXPERIMENT_H_
#define FUSESCOPE_VIEWS_QT_WHAT_IF_EXPERIMENT_H_

// A what-if experiment: the open recording (A) compiled again from its input module with
// other pipeline options (B), by a worker process as every compile of the workbench is
// (RecordingLoader: progress, cancel, a worker that fails reported with its pass), then the
// two compared (recording/recording_comparison.h) on a pool thread. A stays where it is:
// this object has a loader of its own. One experiment at a time; a new one abandons the
// running one.

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "passes/pipeline_options.h"
#include "recording/recording.h"
#include "recording/recording_comparison.h"

namespace fusescope::views {

class RecordingLoader;
class WorkerFailure;

struct WhatIfResult {
  std::shared_ptr<const recording::Recording> a;
  std::shared_ptr<const recording::Recording> b;
  QString a_title;
  QString b_title;  // what B changed: "fusion.max_operands=8, without cse"
  recording::RecordingComparison comparison;
};

class WhatIfExperiment : public QObject {
  Q_OBJECT

 public:
  explicit WhatIfExperiment(QObject* parent = nullptr);

  // Compiles `a`'s input with `b_options` and compares. `a` must have its input text.
  void Start(std::shared_ptr<const recording::Recording> a, const QString& a_title,
             const passes::PipelineOptions& b_options);
  void Cancel();
  bool busy() const;
  RecordingLoader* loader() const { return loader_; }

  // The `fusescope compile` arguments that give `options` (less the target, which has
  // --pipeline): every option of the option table, the disabled passes, --stop-after.
  static QStringList PipelineArguments(const passes::PipelineOptions& options);
  // What B changes against A, for titles: "fusion.max_operands=8, without cse"; "same
  // options" when nothing.
  static QString DescribeChanges(const passes::PipelineOptions& a,
                                 const passes::PipelineOptions& b);

 signals:
  void started(const QString& what);
  void progress(int done, int total, const QString& pass);
  void finished(std::shared_ptr<const fusescope::views::WhatIfResult> result);
  // B could not be compiled or read, or the two could not be compared.
  void failed(const QString& message);
  void workerFailed(std::shared_ptr<const fusescope::views::WorkerFailure> failure);
  void canceled();

 private:
  void Compare(std::shared_ptr<const recording::Recording> b);

  RecordingLoader* loader_;
  std::shared_ptr<const recording::Recording> a_;
  QString a_title_;
  QString b_title_;
  int generation_ = 0;  // a comparison of an abandoned experiment is dropped
  bool comparing_ = false;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WHAT_IF_EXPERIMENT_H_
