#ifndef FUSESCOPE_PASSES_PIPELINE_OPTION_TABLE_H_
#define FUSESCOPE_PASSES_PIPELINE_OPTION_TABLE_H_

// The tunable options of the built-in pipelines by name: the fusion budgets and switches
// (`fusion.*`, FusionLimits) and the GPU cost model's device (`gpu.*`,
// GpuDeviceDescription). One table serves `fusescope compile --set KEY=VALUE`, the listing
// of `fusescope compile --list-options`, the options stored in a recording (and so the
// options `fusescope diff A B` finds differing) and the workbench's What If dialog.
//
// What has a flag of its own (the target, disabled passes, --stop-after, --no-verify) is not
// in the table.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"
#include "passes/pipeline_options.h"

namespace fusescope::passes {

enum class PipelineOptionKind {
  kInteger,  // int64_t, between minimum and maximum
  kSwitch,   // bool: true/false, 1/0, on/off
  kNumber,   // double, between minimum and maximum
};

struct PipelineOption {
  std::string_view key;    // "fusion.max_operands"
  std::string_view alias;  // a second name accepted for it; "" when none
  PipelineOptionKind kind = PipelineOptionKind::kInteger;
  double minimum = 0;  // integers and numbers
  double maximum = 0;
  std::string_view unit;     // numbers: "GB/s"; "" when none
  std::string_view meaning;  // one line
  // The option's field in PipelineOptions: the one accessor that matches `kind` is set.
  int64_t& (*integer)(PipelineOptions&) = nullptr;
  bool& (*flag)(PipelineOptions&) = nullptr;
  double& (*number)(PipelineOptions&) = nullptr;
};

// Every option, in the order they are listed.
const std::vector<PipelineOption>& PipelineOptionTable();
// By key or alias; null when there is no such option.
const PipelineOption* FindPipelineOption(std::string_view key);

// The value as --set takes it and a recording stores it: "64", "true", "3350".
std::string PipelineOptionValue(const PipelineOptions& options, const PipelineOption& option);
// What `option` accepts, for messages and tooltips: "an integer from 1 to 1000000".
std::string AcceptedValues(const PipelineOption& option);

// Sets `key` (or its alias) to `value`; on error nothing changes and the message names the
// key and what it accepts (or, for an unknown key, the keys there are).
Status SetPipelineOption(PipelineOptions& options, std::string_view key, std::string_view value);
// "KEY=VALUE", as --set gives it.
Status ApplyPipelineOptionAssignment(PipelineOptions& options, std::string_view assignment);

// The options whose values differ between `a` and `b`, in table order.
std::vector<const PipelineOption*> ChangedPipelineOptions(const PipelineOptions& a,
                                                          const PipelineOptions& b);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_PIPELINE_OPTION_TABLE_H_
