#ifndef FUSESCOPE_PASSES_PASS_H_
#define FUSESCOPE_PASSES_PASS_H_

// A pass is small: a name and Run(module) returning whether it changed anything, or an
// error. What a pass needs from its surroundings (where to report fusion decisions, tuning
// options) arrives in the PassContext.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "passes/fusion_decision.h"
#include "passes/pipeline_options.h"

namespace fusescope::passes {

struct PassContext {
  FusionDecisionSink* decisions = nullptr;  // may be null: decisions are then dropped
  const PipelineOptions* options = nullptr; // may be null: defaults apply
  std::string pass_name;                    // the running pass's name, for records
  // Figures a pass reports about its run ("peak_bytes" -> "1048576", "fusions" -> "12");
  // the pipeline copies them into PassRunInfo::stats and clears them between passes.
  std::vector<std::pair<std::string, std::string>> stats;

  void AddStat(std::string key, std::string value) {
    stats.emplace_back(std::move(key), std::move(value));
  }

  void Record(FusionDecisionRecord record) const {
    if (decisions) {
      if (record.pass.empty()) record.pass = pass_name;
      decisions->Record(std::move(record));
    }
  }
  const PipelineOptions& opts() const {
    static const PipelineOptions kDefaults;
    return options ? *options : kDefaults;
  }
};

class Pass {
 public:
  virtual ~Pass() = default;
  // Stable, XLA-like name ("algsimp", "cse", "dce", "fusion", "priority-fusion", ...).
  virtual std::string_view name() const = 0;
  // True when the module changed. On error the module may be left broken; the pipeline keeps
  // it for the reproducer. Must be deterministic (the same module and options give the same
  // result): the pipeline rebuilds reproducers by replaying passes.
  virtual StatusOr<bool> Run(ir::Module& module, PassContext& context) = 0;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PASS_H_
