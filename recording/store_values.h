#ifndef FUSESCOPE_RECORDING_STORE_VALUES_H_
#define FUSESCOPE_RECORDING_STORE_VALUES_H_

// How values that SQLite has no type for are written into a recording file, and read back.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/status.h"
#include "passes/fusion_decision.h"
#include "passes/pipeline_options.h"

namespace fusescope::recording {

// "3,5,8"; "" for none.
std::string FormatIdList(const std::vector<int64_t>& ids);
StatusOr<std::vector<int64_t>> ParseIdList(std::string_view text);

// Shortest text that reads back as the same double.
std::string FormatDouble(double value);
StatusOr<double> ParseDouble(std::string_view text);

// One row per option: the target, every option of passes::PipelineOptionTable() under its
// key ("fusion.max_instructions"), the disabled passes (comma-separated), stop_after and
// verify_between_passes.
std::vector<std::pair<std::string, std::string>> PipelineOptionRows(
    const passes::PipelineOptions& options);
// Keys this build does not know are ignored, so newer writers' extra options do no harm.
Status ApplyPipelineOptionRow(std::string_view key, std::string_view value,
                              passes::PipelineOptions& options);

// The inverse of passes::FusionReasonCode.
StatusOr<passes::FusionReason> FusionReasonFromCode(std::string_view code);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_STORE_VALUES_H_
