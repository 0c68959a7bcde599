#include "passes/pipeline.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "ir/hlo_printer.h"
#include "ir/verifier.h"

namespace fusescope::passes {
namespace {

// Stamps each decision with the running pass's position and hands it to every
// instrumentation as it is made, so observers see decisions in the order passes take them.
class DecisionForwarder : public FusionDecisionSink {
 public:
  explicit DecisionForwarder(const std::vector<PassInstrumentation*>& instrumentations)
      : instrumentations_(instrumentations) {}

  void set_pass_index(int64_t index) { pass_index_ = index; }

  void Record(FusionDecisionRecord record) override {
    record.pass_index = pass_index_;
    for (PassInstrumentation* instrumentation : instrumentations_) {
      instrumentation->OnFusionDecision(record);
    }
  }

 private:
  const std::vector<PassInstrumentation*>& instrumentations_;
  int64_t pass_index_ = -1;
};

std::string PassLabel(const PassRunInfo& info) {
  return "pass " + info.name + " (#" + std::to_string(info.index) + ")";
}

// One run of a pipeline over one module: the state carried from pass to pass.
class PipelineRunner {
 public:
  PipelineRunner(ir::Module& module, const PipelineOptions& options,
                 const std::vector<PassInstrumentation*>& instrumentations);

  // Runs `pass` as number `index`, or records it as skipped when disabled.
  Status RunPass(Pass& pass, int64_t index);

 private:
  Status RunEnabled(Pass& pass, PassRunInfo& info);
  Status Fail(const PassRunInfo& info, const Status& error, std::string_view what);

  ir::Module& module_;
  const PipelineOptions& options_;
  const std::vector<PassInstrumentation*>& instrumentations_;
  // Fingerprints and reproducer copies only serve observers; without any, a run costs just
  // the passes and the verifier.
  const bool observed_;
  DecisionForwarder forwarder_;
  PassContext context_;
  uint64_t fingerprint_ = 0;
  // The module as it was before the current pass, for the reproducer. A pass that reports no
  // change and leaves the fingerprint alone leaves the module as it was, so the previous
  // copy still serves and no-op passes (common in fixed-point loops) cost no copy.
  std::unique_ptr<ir::Module> before_;
};

PipelineRunner::PipelineRunner(ir::Module& module, const PipelineOptions& options,
                               const std::vector<PassInstrumentation*>& instrumentations)
    : module_(module),
      options_(options),
      instrumentations_(instrumentations),
      observed_(!instrumentations.empty()),
      forwarder_(instrumentations) {
  context_.decisions = observed_ ? &forwarder_ : nullptr;
  context_.options = &options_;
  if (observed_) fingerprint_ = ir::Fingerprint(module_);
}

Status PipelineRunner::RunPass(Pass& pass, int64_t index) {
  PassRunInfo info;
  info.index = index;
  info.name = std::string(pass.name());
  info.fingerprint_before = fingerprint_;
  info.fingerprint_after = fingerprint_;
  if (options_.disabled_passes.count(info.name) == 0) return RunEnabled(pass, info);
  info.skipped = true;
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->BeforePass(info, module_);
    instrumentation->AfterPass(info, module_);
  }
  return Status::Ok();
}

Status PipelineRunner::RunEnabled(Pass& pass, PassRunInfo& info) {
  if (observed_ && !before_) before_ = module_.Clone();
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->BeforePass(info, module_);
  }
  forwarder_.set_pass_index(info.index);
  context_.pass_name = info.name;
  context_.stats.clear();
  const auto start = std::chrono::steady_clock::now();
  StatusOr<bool> changed = pass.Run(module_, context_);
  info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  info.stats = std::move(context_.stats);
  context_.stats.clear();
  if (observed_) info.fingerprint_after = ir::Fingerprint(module_);
  // A failed pass returns no flag; take the measured one so that no lie is flagged.
  info.reported_changed = changed.ok() ? *changed : info.changed();
  if (!changed.ok()) return Fail(info, changed.status(), "failed");
  if (options_.verify_between_passes) {
    Status verified = ir::VerifyModule(module_);
    if (!verified.ok()) return Fail(info, verified, "broke the IR");
  }
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->AfterPass(info, module_);
  }
  fingerprint_ = info.fingerprint_after;
  if (info.reported_changed || info.changed()) before_.reset();
  return Status::Ok();
}

Status PipelineRunner::Fail(const PassRunInfo& info, const Status& error, std::string_view what) {
  if (before_) {
    for (PassInstrumentation* instrumentation : instrumentations_) {
      instrumentation->PassFailed(info, module_, *before_, error);
    }
  }
  return Status::Error(PassLabel(info) + " " + std::string(what) + ": " + error.message());
}

}  // namespace

Pipeline::Pipeline(std::string name, PipelineOptions options)
    : name_(std::move(name)), options_(std::move(options)) {}

Pass* Pipeline::AddPass(std::unique_ptr<Pass> pass) {
  passes_.push_back(std::move(pass));
  return passes_.back().get();
}

void Pipeline::AddInstrumentation(PassInstrumentation* instrumentation) {
  instrumentations_.push_back(instrumentation);
}

Status Pipeline::Run(ir::Module& module) {
  if (options_.verify_between_passes) {
    // A module that is broken on arrival must not be blamed on the first pass.
    Status input = ir::VerifyModule(module);
    if (!input.ok()) return Status::Error("input module is invalid: " + input.message());
  }
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->BeforePipeline(module);
  }
  PipelineRunner runner(module, options_, instrumentations_);
  Status result = Status::Ok();
  for (size_t i = 0; i < passes_.size() && result.ok(); ++i) {
    result = runner.RunPass(*passes_[i], static_cast<int64_t>(i));
    if (passes_[i]->name() == options_.stop_after) break;
  }
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->AfterPipeline(module);
  }
  return result;
}

}  // namespace fusescope::passes
