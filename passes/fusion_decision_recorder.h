#ifndef FUSESCOPE_PASSES_FUSION_DECISION_RECORDER_H_
#define FUSESCOPE_PASSES_FUSION_DECISION_RECORDER_H_

// Hands a fusion pass's decisions to the PassContext, each distinct refusal once per run:
// fusion passes revisit pairs (a consumer that grew, a producer whose priority is
// recomputed) and would otherwise repeat what was already said. Accepts always pass.

#include <cstdint>
#include <set>
#include <string>
#include <tuple>

#include "passes/pass.h"

namespace fusescope::passes {

class FusionDecisionRecorder {
 public:
  explicit FusionDecisionRecorder(const PassContext& context) : context_(context) {}

  void Record(FusionDecisionRecord record);
  int64_t accepted() const { return accepted_; }

 private:
  const PassContext& context_;
  std::set<std::tuple<int64_t, int64_t, int, std::string>> refusals_;
  int64_t accepted_ = 0;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_FUSION_DECISION_RECORDER_H_
