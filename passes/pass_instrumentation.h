#ifndef FUSESCOPE_PASSES_PASS_INSTRUMENTATION_H_
#define FUSESCOPE_PASSES_PASS_INSTRUMENTATION_H_

// Observation is instrumentation: recording snapshots, timing and storing are each one
// instrumentation, never code inside the pipeline. Instrumentations observe; they never
// change the module.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "passes/fusion_decision.h"

namespace fusescope::passes {

class Pass;

struct PassRunInfo {
  int64_t index = 0;              // position in the pipeline run (0-based)
  std::string name;               // pass name
  bool reported_changed = false;  // what Run() returned
  uint64_t fingerprint_before = 0;
  uint64_t fingerprint_after = 0;
  double wall_seconds = 0;
  bool skipped = false;           // disabled by options: not run, module unchanged
  std::vector<std::pair<std::string, std::string>> stats;  // PassContext::AddStat figures
  // Measured change: fingerprints differ.
  bool changed() const { return fingerprint_before != fingerprint_after; }
  // The pass said "changed" but nothing changed, or the reverse.
  bool change_flag_lies() const { return !skipped && reported_changed != changed(); }
};

class PassInstrumentation {
 public:
  virtual ~PassInstrumentation() = default;
  // Called once before the first pass with the input module.
  virtual void BeforePipeline(const ir::Module& /*module*/) {}
  virtual void BeforePass(const PassRunInfo& /*info*/, const ir::Module& /*module*/) {}
  virtual void AfterPass(const PassRunInfo& /*info*/, const ir::Module& /*module*/) {}
  // The pass returned an error, or the invariant checker refused the module after it.
  // `module` is the broken module; `before` the module as it was before the pass (the
  // reproducer together with the pass name).
  virtual void PassFailed(const PassRunInfo& /*info*/, const ir::Module& /*module*/,
                          const ir::Module& /*before*/, const Status& /*error*/) {}
  virtual void OnFusionDecision(const FusionDecisionRecord& /*record*/) {}
  virtual void AfterPipeline(const ir::Module& /*module*/) {}
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PASS_INSTRUMENTATION_H_
