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
                 const std::vector<std::unique_ptr<Pass>>& passes,
                 const std::vector<PassInstrumentation*>& instrumentations);

  // Runs pass number `index`, or records it as skipped when disabled.
  Status RunPass(int64_t index);

 private:
  Status RunEnabled(Pass& pass, PassRunInfo& info);
  Status Fail(const PassRunInfo& info, const Status& error, std::string_view what);
  std::unique_ptr<ir::Module> RebuildBefore(int64_t index);
  bool Disabled(const Pass& pass) const {
    return options_.disabled_passes.count(std::string(pass.name())) != 0;
  }

  ir::Module& module_;
  const PipelineOptions& options_;
  const std::vector<std::unique_ptr<Pass>>& passes_;
  const std::vector<PassInstrumentation*>& instrumentations_;
  // Fingerprints and the reproducer only serve observers; without any, a run costs just the
  // passes and the verifier.
  const bool observed_;
  DecisionForwarder forwarder_;
  PassContext context_;
  uint64_t fingerprint_ = 0;
  // The input as it arrived. A reproducer (the module before a failing pass) is rebuilt from
  // it by replaying the passes before the failure, as MLIR's crash reproducers do: one copy
  // per run instead of one before every pass, and replay work only when something failed.
  std::unique_ptr<ir::Module> input_;
};

PipelineRunner::PipelineRunner(ir::Module& module, const PipelineOptions& options,
                               const std::vector<std::unique_ptr<Pass>>& passes,
                               const std::vector<PassInstrumentation*>& instrumentations)
    : module_(module),
      options_(options),
      passes_(passes),
      instrumentations_(instrumentations),
      observed_(!instrumentations.empty()),
      forwarder_(instrumentations) {
  context_.decisions = observed_ ? &forwarder_ : nullptr;
  context_.options = &options_;
  if (observed_) {
    fingerprint_ = ir::Fingerprint(module_);
    input_ = module_.Clone();
  }
}

Status PipelineRunner::RunPass(int64_t index) {
  Pass& pass = *passes_[static_cast<size_t>(index)];
  PassRunInfo info;
  info.index = index;
  info.name = std::string(pass.name());
  info.fingerprint_before = fingerprint_;
  info.fingerprint_after = fingerprint_;
  if (!Disabled(pass)) return RunEnabled(pass, info);
  info.skipped = true;
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->BeforePass(info, module_);
    instrumentation->AfterPass(info, module_);
  }
  return Status::Ok();
}

Status PipelineRunner::RunEnabled(Pass& pass, PassRunInfo& info) {
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
  return Status::Ok();
}

// Replays the enabled passes before `index` on the input, quietly (no hooks, no decisions).
std::unique_ptr<ir::Module> PipelineRunner::RebuildBefore(int64_t index) {
  std::unique_ptr<ir::Module> module = std::move(input_);
  PassContext replay;
  replay.options = &options_;
  for (int64_t i = 0; i < index; ++i) {
    Pass& pass = *passes_[static_cast<size_t>(i)];
    if (Disabled(pass)) continue;
    replay.pass_name = std::string(pass.name());
    if (!pass.Run(*module, replay).ok()) break;  // the fingerprint check reports it
    replay.stats.clear();
  }
  return module;
}

Status PipelineRunner::Fail(const PassRunInfo& info, const Status& error, std::string_view what) {
  Status reported = error;
  if (observed_) {
    std::unique_ptr<ir::Module> before = RebuildBefore(info.index);
    if (ir::Fingerprint(*before) != info.fingerprint_before) {
      reported = Status::Error(error.message() +
                               " (the reproducer is inexact: replaying the earlier passes on "
                               "the input did not give the same module)");
    }
    for (PassInstrumentation* instrumentation : instrumentations_) {
      instrumentation->PassFailed(info, module_, *before, reported);
    }
  }
  return Status::Error(PassLabel(info) + " " + std::string(what) + ": " + reported.message());
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
  PipelineRunner runner(module, options_, passes_, instrumentations_);
  Status result = Status::Ok();
  for (size_t i = 0; i < passes_.size() && result.ok(); ++i) {
    result = runner.RunPass(static_cast<int64_t>(i));
    if (passes_[i]->name() == options_.stop_after) break;
  }
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->AfterPipeline(module);
  }
  return result;
}

}  // namespace fusescope::passes
