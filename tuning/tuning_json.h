#ifndef FUSESCOPE_TUNING_TUNING_JSON_H_
#define FUSESCOPE_TUNING_TUNING_JSON_H_

// Trials and tuning runs as JSON: what `fusescope tune --trial` prints, what `tune --json`
// prints, and what `tune --merge FILE` reads back (a sweep run elsewhere, e.g. on a Ray
// cluster, stored as one run). docs/tuning.md documents the fields.

#include <string>
#include <string_view>

#include "ir/json_writer.h"
#include "ir/status.h"
#include "tuning/tuning_run.h"

namespace fusescope::tuning {

void WriteTrialJson(JsonWriter& json, const Trial& trial);
void WriteRunJson(JsonWriter& json, const TuningRun& run);
// Reads a run as WriteRunJson writes it (run_id, machine and created_at may be absent).
// Errors name the file's line and column: "TRIALS.json:3:14: trial 2 has no kernel".
StatusOr<TuningRun> ParseRunJson(std::string_view text, const std::string& file_name);

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_TUNING_JSON_H_
