#include "passes/pipeline.h"

#include <chrono>
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

void ReportFailure(const std::vector<PassInstrumentation*>& instrumentations,
                   const PassRunInfo& info, const ir::Module& module, const ir::Module* before,
                   const Status& error) {
  if (before == nullptr) return;  // no observers, so no copy was kept
  for (PassInstrumentation* instrumentation : instrumentations) {
    instrumentation->PassFailed(info, module, *before, error);
  }
}

// Runs one enabled pass: hooks, timing, stats, fingerprint and the invariant check.
// `before` is the module before the pass when there are observers, else null.
Status RunOnePass(Pass& pass, PassRunInfo& info, ir::Module& module, PassContext& context,
                  const std::vector<PassInstrumentation*>& instrumentations,
                  const ir::Module* before, bool verify) {
  for (PassInstrumentation* instrumentation : instrumentations) {
    instrumentation->BeforePass(info, module);
  }
  context.pass_name = info.name;
  context.stats.clear();
  const auto start = std::chrono::steady_clock::now();
  StatusOr<bool> changed = pass.Run(module, context);
  info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  info.stats = std::move(context.stats);
  context.stats.clear();
  if (!instrumentations.empty()) info.fingerprint_after = ir::Fingerprint(module);

  if (!changed.ok()) {
    // A failed pass returns no flag; take the measured one so that no lie is flagged.
    info.reported_changed = info.changed();
    ReportFailure(instrumentations, info, module, before, changed.status());
    return Status::Error(PassLabel(info) + " failed: " + changed.message());
  }
  info.reported_changed = *changed;
  if (verify) {
    Status verified = ir::VerifyModule(module);
    if (!verified.ok()) {
      ReportFailure(instrumentations, info, module, before, verified);
      return Status::Error(PassLabel(info) + " broke the IR: " + verified.message());
    }
  }
  for (PassInstrumentation* instrumentation : instrumentations) {
    instrumentation->AfterPass(info, module);
  }
  return Status::Ok();
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
  // Fingerprints and reproducer clones only serve observers; without any, a run costs just
  // the passes and the verifier.
  const bool observed = !instrumentations_.empty();
  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->BeforePipeline(module);
  }

  DecisionForwarder forwarder(instrumentations_);
  PassContext context;
  context.decisions = observed ? &forwarder : nullptr;
  context.options = &options_;

  uint64_t fingerprint = observed ? ir::Fingerprint(module) : 0;
  // The module as it was before the current pass, for the reproducer. A pass that reports no
  // change and leaves the fingerprint alone leaves the module as it was, so the previous
  // copy still serves and no-op passes (common in fixed-point loops) cost no clone.
  std::unique_ptr<ir::Module> before;
  Status result = Status::Ok();
  for (size_t i = 0; i < passes_.size(); ++i) {
    Pass& pass = *passes_[i];
    PassRunInfo info;
    info.index = static_cast<int64_t>(i);
    info.name = std::string(pass.name());
    info.fingerprint_before = fingerprint;
    info.fingerprint_after = fingerprint;

    if (options_.disabled_passes.count(info.name) != 0) {
      info.skipped = true;
      for (PassInstrumentation* instrumentation : instrumentations_) {
        instrumentation->BeforePass(info, module);
        instrumentation->AfterPass(info, module);
      }
    } else {
      if (observed && !before) before = module.Clone();
      forwarder.set_pass_index(info.index);
      result = RunOnePass(pass, info, module, context, instrumentations_, before.get(),
                          options_.verify_between_passes);
      if (!result.ok()) break;
      fingerprint = info.fingerprint_after;
      if (info.reported_changed || info.changed()) before.reset();
    }
    if (!options_.stop_after.empty() && info.name == options_.stop_after) break;
  }

  for (PassInstrumentation* instrumentation : instrumentations_) {
    instrumentation->AfterPipeline(module);
  }
  return result;
}

}  // namespace fusescope::passes
