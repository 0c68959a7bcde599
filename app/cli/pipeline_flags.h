#ifndef FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_
#define FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_

// The user's control over the built-in pipelines from the command line: --pipeline,
// --disable-pass, --stop-after, --no-verify, --set KEY=VALUE (the keys of
// passes/pipeline_option_table.h) and --fusion-limit KEY=VALUE (--set fusion.KEY=VALUE).

#include <ostream>
#include <vector>

#include "app/cli/command.h"
#include "passes/pipeline_options.h"

namespace fusescope::app {

// Those flags, declared once for every command line that compiles (compile, and a lesson's
// options and what-ifs).
const std::vector<Flag>& PipelineFlags();

StatusOr<passes::PipelineOptions> PipelineOptionsFromArgs(const ParsedArgs& args);

// The option table as `compile --list-options` prints it: one line per key with its default
// and meaning (docs/what-if.md holds the same text), or as JSON: {"options": [...]}.
void PrintPipelineOptions(std::ostream& out, bool json);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_PIPELINE_FLAGS_H_
