#include "passes/fusion_decision_recorder.h"

#include <utility>

namespace fusescope::passes {

void FusionDecisionRecorder::Record(FusionDecisionRecord record) {
  if (record.accepted()) {
    ++accepted_;
  } else {
    auto key = std::make_tuple(record.producer_id, record.consumer_id,
                               static_cast<int>(record.reason), record.explanation);
    if (!refusals_.insert(std::move(key)).second) return;
  }
  context_.Record(std::move(record));
}

}  // namespace fusescope::passes
