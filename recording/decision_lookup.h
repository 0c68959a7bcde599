#ifndef FUSESCOPE_RECORDING_DECISION_LOOKUP_H_
#define FUSESCOPE_RECORDING_DECISION_LOOKUP_H_

// The fusion decisions a person means by "PRODUCER -> CONSUMER" (`fusescope why`, a lesson's
// `decision:` step). A pair matches by its recorded names, and also through provenance: once
// %exp.3 was fused into %fusion.1, decisions about %fusion.1 as a producer concern %exp.3 too.

#include <cstddef>
#include <string>
#include <vector>

#include "recording/recording.h"

namespace fusescope::recording {

struct DecisionMatch {
  size_t index = 0;     // into Recording::decisions
  bool direct = false;  // named exactly; otherwise through provenance
};

// In recording order. Names may carry the '%' sigil.
std::vector<DecisionMatch> FindDecisions(const Recording& recording, const std::string& producer,
                                         const std::string& consumer);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_DECISION_LOOKUP_H_
