// `fusescope diff RUN.fsdb --pass N [--text | --json | --svg OUT.svg]`: the computed diff of
// one pass (text by default).

#include <iostream>

#include "app/cli/command.h"
#include "recording/recording_store.h"
#include "views/pass_diff.h"

namespace fusescope::app {
namespace {

int RunDiff(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"--pass", "--svg"},
                        {"--text", "--json", "--expand-fusions", "--no-decisions"});
  if (!args.ok()) return Fail("diff: " + args.message());
  auto pass = args->IntValue("--pass");
  if (!pass.ok()) return Fail(pass.message());
  if (args->positional().size() != 1 || !*pass) {
    return Fail("usage: fusescope diff RUN.fsdb --pass N [--text | --json | --svg OUT.svg]");
  }
  auto recording = recording::LoadRecording(args->positional()[0]);
  if (!recording.ok()) return Fail(recording.message());
  if (auto svg = args->Value("--svg")) {
    views::DiffViewOptions options;
    options.expand_fusions = args->Has("--expand-fusions");
    options.decisions_on_edges = !args->Has("--no-decisions");
    Status written = views::WriteDiffSvg(*recording, **pass, *svg, options);
    if (!written.ok()) return Fail(written.message());
    std::cout << "wrote " << *svg << '\n';
    return 0;
  }
  Status printed = args->Has("--json") ? views::WriteDiffJson(*recording, **pass, std::cout)
                                       : views::WriteDiffText(*recording, **pass, std::cout);
  return printed.ok() ? 0 : Fail(printed.message());
}

const CommandRegistrar kRegistrar(
    {"diff",
     "diff RUN.fsdb --pass N [--text | --json | --svg OUT.svg [--expand-fusions] "
     "[--no-decisions]]",
     "the computed diff of one pass", RunDiff});

}  // namespace
}  // namespace fusescope::app
