#ifndef FUSESCOPE_APP_CLI_TUNED_CONFIGS_H_
#define FUSESCOPE_APP_CLI_TUNED_CONFIGS_H_

// `--tuned` of `run` and `profile`: the best configuration per kernel that the recording's
// tuning runs found for a snapshot (tuning/tuning_store.h), applied to a CPU build.

#include <string>

#include "ir/status.h"
#include "runtime/cpu/cpu_executable.h"

namespace fusescope::app {

// Sets options.kernel_configs from the recording at `path`; returns what was applied, as one
// line ("tuned: 4 kernels from tuning runs 1, 2 (3 keep their default)"). An error when the
// file is no recording or has no tuning run of `snapshot` (naming the command that makes one).
StatusOr<std::string> ApplyTunedConfigs(const std::string& path, int64_t snapshot,
                                        runtime::CpuExecutableOptions& options);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_TUNED_CONFIGS_H_
