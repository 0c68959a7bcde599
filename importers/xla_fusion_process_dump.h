#ifndef FUSESCOPE_IMPORTERS_XLA_FUSION_PROCESS_DUMP_H_
#define FUSESCOPE_IMPORTERS_XLA_FUSION_PROCESS_DUMP_H_

// XLA:GPU's own record of its priority fusion, as it writes it into a dump folder
// (`module_NNNN.<name>.priority_fusion_dump.txt`, the text format of
// xla.gpu.FusionProcessDumpProto): a list of `fusion_steps`, each one of
//   fusion { fusion_name producer_name consumer_name }    the producer fused into the consumer
//   producer_ineligible { producer_name reason }           the producer fuses into nothing
//   update_priority { producer_name consumer_names us_fused us_unfused }
//                                                          the cost model's estimate for it
// and `hlo_module_before_fusion`. Read into the decisions of the recording's priority-fusion
// pass, in XLA's order, so that `why`, the decisions panel and the graph's edges show XLA's
// own reasons and its cost model's fused/unfused times.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::ir {

struct XlaFusionStep {
  enum class Kind { kFusion, kProducerIneligible, kUpdatePriority };
  Kind kind = Kind::kFusion;
  int64_t line = 0;  // of the step in the file
  std::string fusion_name;
  std::string producer_name;
  std::string consumer_name;
  std::string reason;
  std::vector<std::string> consumer_names;
  double us_fused = 0;
  double us_unfused = 0;
};

struct XlaFusionProcessDump {
  std::vector<XlaFusionStep> steps;
  bool has_module_before_fusion = false;
};

// Errors name FILE:LINE:COL (`path`); fields this reader does not know are skipped.
StatusOr<XlaFusionProcessDump> ParseXlaFusionProcessDump(std::string_view text,
                                                         const std::string& path);

// Adds the dump's steps to `recording` as decisions of its priority-fusion pass (the first
// pass whose name starts with "priority-fusion"); instructions are found by name in the
// module before that pass, or after it for fusions it formed. Returns how many decisions were
// added; a step naming an instruction neither has is a warning in `warnings`, not an error.
StatusOr<int64_t> AddXlaFusionDecisions(const XlaFusionProcessDump& dump, const std::string& path,
                                        recording::Recording& recording,
                                        std::vector<std::string>& warnings);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_XLA_FUSION_PROCESS_DUMP_H_
