#include "views/qt/what_if/what_if_experiment.h"

#include <QCoreApplication>
#include <QPointer>

#include "passes/pipeline_option_table.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/workers/worker_pool.h"

namespace fusescope::views {

WhatIfExperiment::WhatIfExperiment(QObject* parent)
    : QObject(parent), loader_(new RecordingLoader(this)) {
  connect(loader_, &RecordingLoader::progress, this, &WhatIfExperiment::progress);
  connect(loader_, &RecordingLoader::loaded, this,
          [this](std::shared_ptr<const recording::Recording> b, const QString&, const QString&) {
            Compare(std::move(b));
          });
  connect(loader_, &RecordingLoader::failed, this, &WhatIfExperiment::failed);
  connect(loader_, &RecordingLoader::workerFailed, this, &WhatIfExperiment::workerFailed);
  connect(loader_, &RecordingLoader::canceled, this, &WhatIfExperiment::canceled);
}

QStringList WhatIfExperiment::PipelineArguments(const passes::PipelineOptions& options) {
  QStringList arguments;
  for (const passes::PipelineOption& option : passes::PipelineOptionTable()) {
    arguments << QStringLiteral("--set")
              << QString::fromStdString(std::string(option.key) + "=" +
                                        passes::PipelineOptionValue(options, option));
  }
  for (const std::string& pass : options.disabled_passes) {
    arguments << QStringLiteral("--disable-pass") << QString::fromStdString(pass);
  }
  if (!options.stop_after.empty()) {
    arguments << QStringLiteral("--stop-after") << QString::fromStdString(options.stop_after);
  }
  if (!options.verify_between_passes) arguments << QStringLiteral("--no-verify");
  return arguments;
}

QString WhatIfExperiment::DescribeChanges(const passes::PipelineOptions& a,
                                          const passes::PipelineOptions& b) {
  QStringList changes;
  if (a.target != b.target)
    changes << QStringLiteral("%1 pipeline").arg(QString::fromStdString(b.target));
  for (const passes::PipelineOption* option : passes::ChangedPipelineOptions(a, b)) {
    changes << QString::fromStdString(std::string(option->key) + "=" +
                                      passes::PipelineOptionValue(b, *option));
  }
  for (const std::string& pass : b.disabled_passes) {
    if (!a.disabled_passes.count(pass))
      changes << tr("without %1").arg(QString::fromStdString(pass));
  }
  for (const std::string& pass : a.disabled_passes) {
    if (!b.disabled_passes.count(pass)) changes << tr("with %1").arg(QString::fromStdString(pass));
  }
  if (a.stop_after != b.stop_after) {
    changes << (b.stop_after.empty()
                    ? tr("every pass")
                    : tr("stopping after %1").arg(QString::fromStdString(b.stop_after)));
  }
  return changes.isEmpty() ? tr("same options") : changes.join(QStringLiteral(", "));
}

void WhatIfExperiment::Start(std::shared_ptr<const recording::Recording> a, const QString& a_title,
                             const passes::PipelineOptions& b_options) {
  ++generation_;
  comparing_ = false;
  a_ = std::move(a);
  a_title_ = a_title;
  b_title_ = DescribeChanges(a_->options, b_options);
  emit started(tr("What if: %1 with %2").arg(a_title_, b_title_));
  const QString source = QString::fromStdString(a_->source_path);
  loader_->CompileText(a_->input_text, b_title_, source.isEmpty() ? a_title_ : source,
                       QString::fromStdString(b_options.target), PipelineArguments(b_options));
}

void WhatIfExperiment::Cancel() {
  if (comparing_) {
    ++generation_;
    comparing_ = false;
    emit canceled();
    return;
  }
  loader_->Cancel();
}

bool WhatIfExperiment::busy() const { return comparing_ || loader_->busy(); }

void WhatIfExperiment::Compare(std::shared_ptr<const recording::Recording> b) {
  comparing_ = true;
  const int generation = generation_;
  QPointer<WhatIfExperiment> self(this);
  auto result = std::make_shared<WhatIfResult>();
  result->a = a_;
  result->b = std::move(b);
  result->a_title = a_title_;
  result->b_title = b_title_;
  // The pool thread never touches this object: it posts to the application object, and the
  // posted call checks on the GUI thread whether the experiment still wants the result.
  WorkerPool::Instance()->start([self, generation, result] {
    auto comparison = recording::CompareRecordings(*result->a, *result->b);
    QString error;
    if (comparison.ok()) {
      result->comparison = std::move(comparison).value();
    } else {
      error = QString::fromStdString(comparison.message());
    }
    QMetaObject::invokeMethod(QCoreApplication::instance(), [self, generation, result, error] {
      if (!self || generation != self->generation_) return;
      self->comparing_ = false;
      if (!error.isEmpty()) {
        emit self->failed(tr("Could not compare the two recordings: %1").arg(error));
        return;
      }
      emit self->finished(result);
    });
  });
}

}  // namespace fusescope::views
