#ifndef FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_
#define FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_

// The user's control over the built-in pipelines from the command line:
//   --pipeline cpu|gpu  --disable-pass NAME (repeatable)  --stop-after NAME  --no-verify
//   --set KEY=VALUE (repeatable; the keys of passes/pipeline_option_table.h)
//   --fusion-limit KEY=VALUE (repeatable; the same as --set fusion.KEY=VALUE)

#include <ostream>
#include <set>
#include <string>

#include "app/cli/command.h"
#include "passes/pipeline_options.h"

namespace fusescope::app {

inline const std::set<std::string> kPipelineValueFlags = {
    "--pipeline", "--disable-pass", "--stop-after", "--fusion-limit", "--set"};
inline const std::set<std::string> kPipelineBoolFlags = {"--no-verify"};

StatusOr<passes::PipelineOptions> PipelineOptionsFromArgs(const ParsedArgs& args);

// The option table as `compile --list-options` prints it: one line per key with its default
// and meaning (docs/what-if.md holds the same text), or as JSON: {"options": [...]}.
void PrintPipelineOptions(std::ostream& out, bool json);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_
