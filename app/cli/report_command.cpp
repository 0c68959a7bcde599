// `fusescope report RUN.fsdb -o OUT.html`: one self-contained HTML report of a recording.
// `fusescope report [RUN.fsdb] --lesson FILE|lesson:NAME -o OUT.html`: a lesson's replay
// (views/lesson_report.h), one self-contained page a class opens offline. RUN.fsdb is the
// lesson's recording (`fusescope lesson FILE -o RUN.fsdb`); without it the lesson's model is
// compiled into a temporary recording (kernels too when a step shows one), removed afterwards.
// What-if steps compile the model again with their options.

#include <filesystem>
#include <iostream>
#include <optional>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/lesson_support.h"
#include "compare/comparison_report.h"
#include "compare/comparison_store.h"
#include "recording/recording_store.h"
#include "views/html_report.h"
#include "views/lesson_report.h"

namespace fusescope::app {
namespace {

int RunLessonReport(const ParsedArgs& args) {
  if (args.Has("--max-pictures")) {
    return Fail(
        "report: --max-pictures is for a recording's report; a lesson's replay draws "
        "every pass its steps visit");
  }
  auto lesson = views::LoadLesson(*args.Value("--lesson"));
  if (!lesson.ok()) return Fail(lesson.message());
  ScratchFile scratch;
  std::string path;
  if (!args.positional().empty()) {
    path = args.positional()[0];
  } else {
    scratch.path = ScratchFile::TemporaryPath();
    path = scratch.path;
    if (Status prepared = PrepareLessonRecording(*lesson, path, args.Has("--progress"));
        !prepared.ok()) {
      return Fail(prepared.message());
    }
  }
  auto resolved = ResolveLessonAt(*lesson, path);
  if (!resolved.ok()) {
    // A step that does not fit a recording the user gave: most likely another model's.
    const bool step_error = resolved.message().starts_with(lesson->file + ":");
    if (!step_error || !scratch.path.empty()) return Fail(resolved.message());
    return Fail(resolved.message() + " (is " + path +
                " this lesson's recording? `fusescope lesson " + lesson->file +
                " -o RUN.fsdb` makes one)");
  }
  std::vector<std::optional<recording::RecordingComparison>> what_ifs(lesson->steps.size());
  for (size_t i = 0; i < lesson->steps.size(); ++i) {
    if (lesson->steps[i].what_if.empty()) continue;
    auto comparison = CompareWhatIf(*lesson, i, resolved->recording);
    if (!comparison.ok()) return Fail(comparison.message());
    what_ifs[i] = std::move(*comparison);
  }
  auto kernels = LoadLessonKernels(path, resolved->steps);
  if (!kernels.ok()) return Fail(kernels.message());
  views::LessonReplayInputs inputs;
  inputs.lesson = &*lesson;
  inputs.recording = &resolved->recording;
  inputs.steps = &resolved->steps;
  inputs.kernels = &*kernels;
  inputs.what_ifs = &what_ifs;
  views::LessonReportOptions options;
  options.title = args.Value("--title").value_or("");
  const std::string output = *args.Value("-o");
  if (Status written = views::WriteLessonReport(inputs, output, options); !written.ok()) {
    return Fail(written.message());
  }
  std::error_code error;
  const auto bytes = std::filesystem::file_size(output, error);
  std::cout << "wrote " << output << ": lesson replay, " << lesson->steps.size() << " steps, "
            << (error ? 0 : bytes) << " bytes\n";
  return 0;
}

int RunReport(const ParsedArgs& args) {
  if (args.Has("--lesson")) return RunLessonReport(args);
  if (args.positional().empty()) return FailUsage(args, "missing RUN.fsdb (or --lesson)");
  if (args.Has("--progress")) return Fail("report: --progress is for a lesson's replay");
  auto recording = recording::LoadRecording(args.positional()[0]);
  if (!recording.ok()) return Fail(recording.message());
  views::ReportOptions options;
  options.title = args.Value("--title").value_or("");
  options.max_pictures = static_cast<int>(*args.IntValue("--max-pictures"));
  // Comparisons stored with the recording (`fusescope compare ... -o`) get their section.
  auto comparisons = compare::LoadComparisons(args.positional()[0]);
  if (!comparisons.ok()) return Fail("report: " + comparisons.message());
  std::vector<compare::Comparison> stored;
  for (auto& entry : *comparisons) stored.push_back(std::move(entry.comparison));
  options.extra_sections = compare::FormatComparisonsHtml(stored);
  const std::string output = *args.Value("-o");
  if (Status written = views::WriteReport(*recording, output, options); !written.ok()) {
    return Fail(written.message());
  }
  std::cout << "wrote " << output << '\n';
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "report",
    .summary = "self-contained HTML report of a recording, or a lesson's replay to open offline",
    .positionals = {Positional{"RUN.fsdb",
                               "the recording; with --lesson, the lesson's own (fusescope lesson "
                               "-o), else its model is compiled into a temporary one"}
                        .Optional()},
    .flags =
        {
            Text("-o", "OUT.html", "the page to write").Required(),
            Text("--title", "TEXT",
                 "the page's title (default: \"Fusescope report: MODEL\", \"Lesson: TITLE\")"),
            Integer("--max-pictures", "N", "how many passes get a drawn graph (not with --lesson)")
                .Default(std::to_string(views::ReportOptions{}.max_pictures))
                .AtLeast(0),
            Text("--lesson", "FILE|lesson:NAME",
                 "a lesson's replay: one page students open offline"),
            ProgressFlag(),
        },
    .run = RunReport,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
