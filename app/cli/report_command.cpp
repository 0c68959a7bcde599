// `fusescope report RUN.fsdb -o OUT.html`: one self-contained HTML report of a recording.

#include <iostream>

#include "app/cli/command.h"
#include "compare/comparison_report.h"
#include "compare/comparison_store.h"
#include "recording/recording_store.h"
#include "views/html_report.h"

namespace fusescope::app {
namespace {

int RunReport(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"-o", "--title", "--max-pictures"}, {});
  if (!args.ok()) return Fail("report: " + args.message());
  if (args->positional().size() != 1 || !args->Has("-o")) {
    return Fail("usage: fusescope report RUN.fsdb -o OUT.html [--title TEXT] [--max-pictures N]");
  }
  auto max_pictures = args->IntValue("--max-pictures");
  if (!max_pictures.ok()) return Fail(max_pictures.message());
  auto recording = recording::LoadRecording(args->positional()[0]);
  if (!recording.ok()) return Fail(recording.message());
  views::ReportOptions options;
  options.title = args->Value("--title").value_or("");
  if (*max_pictures) options.max_pictures = static_cast<int>(**max_pictures);
  // Comparisons stored with the recording (`fusescope compare ... -o`) get their section.
  auto comparisons = compare::LoadComparisons(args->positional()[0]);
  if (!comparisons.ok()) return Fail("report: " + comparisons.message());
  std::vector<compare::Comparison> stored;
  for (auto& entry : *comparisons) stored.push_back(std::move(entry.comparison));
  options.extra_sections = compare::FormatComparisonsHtml(stored);
  const std::string output = *args->Value("-o");
  if (Status written = views::WriteReport(*recording, output, options); !written.ok()) {
    return Fail(written.message());
  }
  std::cout << "wrote " << output << '\n';
  return 0;
}

const CommandRegistrar kRegistrar({"report",
                                   "report RUN.fsdb -o OUT.html [--title TEXT] [--max-pictures N]",
                                   "self-contained HTML report of a recording", RunReport});

}  // namespace
}  // namespace fusescope::app
