#ifndef FUSESCOPE_PASSES_PIPELINE_H_
#define FUSESCOPE_PASSES_PIPELINE_H_

// Runs passes in order with the invariant checker (the verifier) between them, and tells its
// instrumentations about every step. When a pass fails or breaks the IR, the pipeline stops
// and reports PassFailed with the broken module and the module before the pass.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "passes/pass.h"
#include "passes/pass_instrumentation.h"
#include "passes/pipeline_options.h"

namespace fusescope::passes {

class Pipeline {
 public:
  explicit Pipeline(std::string name, PipelineOptions options = {});

  const std::string& name() const { return name_; }
  const PipelineOptions& options() const { return options_; }

  // Takes ownership; returns the pass for configuration.
  Pass* AddPass(std::unique_ptr<Pass> pass);
  template <typename P, typename... Args>
  P* Add(Args&&... args) {
    return static_cast<P*>(AddPass(std::make_unique<P>(std::forward<Args>(args)...)));
  }
  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }

  // Not owned; must outlive Run().
  void AddInstrumentation(PassInstrumentation* instrumentation);

  // Runs the passes (honouring disabled_passes and stop_after). Returns the first error:
  // "pass NAME (#INDEX) failed: ..." or "pass NAME (#INDEX) broke the IR: ...", or
  // "input module is invalid: ..." when verification is on and the input fails it.
  //
  // Hooks: BeforePipeline, then per pass BeforePass and AfterPass (a disabled pass gets both
  // with info.skipped set and is not run); a pass that fails or breaks the IR gets PassFailed
  // instead of AfterPass and ends the run; AfterPipeline comes last, after a failure too.
  // Fusion decisions reach OnFusionDecision as the pass makes them, with pass_index set.
  //
  // Reproducer: PassFailed's `before` is rebuilt by replaying the earlier passes on a copy of
  // the input taken when the run starts (passes must be deterministic; when the replay does
  // not reproduce the fingerprint the error says the reproducer is inexact).
  // Cost: with instrumentations, one copy of the input per run and one fingerprint per pass;
  // without, neither.
  Status Run(ir::Module& module);

 private:
  std::string name_;
  PipelineOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
  std::vector<PassInstrumentation*> instrumentations_;
};

// The built-in pipelines, XLA-like: "cpu" and "gpu" (different fusion passes, limits and
// heuristics). Returns an error for an unknown name.
StatusOr<std::unique_ptr<Pipeline>> MakeBuiltinPipeline(const PipelineOptions& options);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PIPELINE_H_
