#ifndef FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_
#define FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_

// The user's control over the built-in pipelines from the command line:
//   --pipeline cpu|gpu  --disable-pass NAME (repeatable)  --stop-after NAME
//   --fusion-limit KEY=VALUE (repeatable; keys as in FusionLimits)  --no-verify

#include <set>
#include <string>

#include "app/cli/command.h"
#include "passes/pipeline_options.h"

namespace fusescope::app {

inline const std::set<std::string> kPipelineValueFlags = {"--pipeline", "--disable-pass",
                                                          "--stop-after", "--fusion-limit"};
inline const std::set<std::string> kPipelineBoolFlags = {"--no-verify"};

StatusOr<passes::PipelineOptions> PipelineOptionsFromArgs(const ParsedArgs& args);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_
