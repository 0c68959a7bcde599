#include "app/cli/lesson_support.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/cli/command.h"
#include "app/cli/model_loader.h"
#include "app/cli/pipeline_flags.h"
#include "compare/peer_process.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

namespace fs = std::filesystem;

StatusOr<passes::PipelineOptions> LessonPipelineOptions(const views::Lesson& lesson,
                                                        const std::vector<std::string>& extra) {
  // A what-if may change the pipeline itself (`--pipeline gpu`): then its choice stands.
  const bool extra_pipeline = std::any_of(extra.begin(), extra.end(), [](const std::string& word) {
    return word == "--pipeline" || word.starts_with("--pipeline=");
  });
  std::vector<std::string> words;
  if (!extra_pipeline) words = {"--pipeline", lesson.pipeline};
  words.insert(words.end(), lesson.options.begin(), lesson.options.end());
  words.insert(words.end(), extra.begin(), extra.end());
  auto args = ParseFlags(PipelineFlags(), words);
  if (!args.ok()) return args.status();
  if (args->help()) return Status::Error("'--help' is not a compile option");
  if (!args->positional().empty()) {
    return Status::Error("'" + args->positional().front() + "' is not a compile option");
  }
  return PipelineOptionsFromArgs(*args);
}

}  // namespace

Status CheckLessonOptions(const views::Lesson& lesson, const std::vector<std::string>& options) {
  auto parsed = LessonPipelineOptions(lesson, options);
  return parsed.ok() ? Status::Ok() : parsed.status();
}

StatusOr<recording::Recording> CompileLessonModel(const views::Lesson& lesson,
                                                  const std::vector<std::string>& extra) {
  auto options = LessonPipelineOptions(lesson, extra);
  if (!options.ok()) return Status::Error(lesson.file + ": " + options.message());
  auto model = ReadModelText(lesson.model);
  if (!model.ok()) return Status::Error(lesson.file + ": model: " + model.message());
  return model->module
             ? recording::CompileAndRecord(*model->module, *options, model->display_name,
                                           model->text, nullptr)
             : recording::CompileAndRecord(model->text, *options, model->display_name, nullptr);
}

Status PrepareLessonRecording(const views::Lesson& lesson, const std::string& path, bool progress) {
  if (progress) std::fprintf(stderr, "progress: stage 1/%d compile\n", lesson.kernels ? 2 : 1);
  auto recording = CompileLessonModel(lesson);
  if (!recording.ok()) return recording.status();
  if (recording->failed()) {
    return Status::Error(lesson.file + ": the lesson's model failed to compile at pass " +
                         recording->reproducer->pass_name + ": " + recording->reproducer->error);
  }
  FS_RETURN_IF_ERROR(recording::SaveRecording(*recording, path));
  if (!lesson.kernels) return Status::Ok();
  if (progress) std::fprintf(stderr, "progress: stage 2/2 kernels\n");
  // The kernels are compiled and run by a child: JIT code never runs in the process that
  // holds the lesson (the workbench's worker, or this command).
  const std::string log = path + ".kernels.err";
  compare::ProcessSpec spec;
  spec.argv = {ExecutablePath(), "profile", path,       "--device", "cpu",
               "--reps",         "3",       "--warmup", "1",        "--save"};
  spec.stdout_path = "/dev/null";
  spec.stderr_path = log;
  auto ran = compare::RunProcess(spec);
  const std::string tail = compare::TailOfFile(log, 1);
  std::error_code ignored;
  fs::remove(log, ignored);
  if (!ran.ok()) return ran.status();
  if (!ran->exited_cleanly()) {
    return Status::Error(lesson.file + ": compiling the lesson's kernels " + ran->Describe() +
                         (tail.empty() ? "" : ": " + tail));
  }
  return Status::Ok();
}

StatusOr<ResolvedLesson> ResolveLessonAt(const views::Lesson& lesson, const std::string& path) {
  ResolvedLesson out;
  auto recording = recording::LoadRecording(path);
  if (!recording.ok()) return recording.status();
  out.recording = std::move(*recording);
  if (lesson.kernels) {
    auto kernels = recording::ListKernels(path);
    if (!kernels.ok()) return kernels.status();
    out.kernels = std::move(*kernels);
  }
  views::ResolveInputs inputs;
  inputs.recording = &out.recording;
  inputs.kernels = &out.kernels;
  inputs.check_options = [&lesson](const std::vector<std::string>& options) {
    return CheckLessonOptions(lesson, options);
  };
  auto steps = views::ResolveLesson(lesson, inputs);
  if (!steps.ok()) return steps.status();
  out.steps = std::move(*steps);
  return out;
}

StatusOr<recording::RecordingComparison> CompareWhatIf(const views::Lesson& lesson, size_t index,
                                                       const recording::Recording& base) {
  const views::LessonStep& step = lesson.steps[index];
  auto comparison = [&]() -> StatusOr<recording::RecordingComparison> {
    auto changed = CompileLessonModel(lesson, step.what_if);
    if (!changed.ok()) return changed.status();
    return recording::CompareRecordings(base, *changed);
  }();
  if (!comparison.ok()) {
    return Status::Error(lesson.file + ":" + std::to_string(step.line) + ": step " +
                         std::to_string(index + 1) + ": what-if: " + comparison.message());
  }
  return comparison;
}

StatusOr<std::vector<recording::KernelRecord>> LoadLessonKernels(
    const std::string& path, const std::vector<views::ResolvedStep>& steps) {
  std::vector<recording::KernelRecord> kernels;
  for (const views::ResolvedStep& step : steps) {
    if (step.kernel.empty()) continue;
    const bool loaded = std::any_of(kernels.begin(), kernels.end(), [&](const auto& kernel) {
      return kernel.kernel == step.kernel && kernel.snapshot == step.kernel_snapshot;
    });
    if (loaded) continue;
    auto kernel = recording::LoadKernel(path, step.kernel_snapshot, step.kernel);
    if (!kernel.ok()) return kernel.status();
    if (!*kernel) {
      return Status::Error(path + ": kernel " + step.kernel + " of snapshot " +
                           std::to_string(step.kernel_snapshot) + " is listed but cannot be read");
    }
    kernels.push_back(std::move(**kernel));
  }
  return kernels;
}

ScratchFile::~ScratchFile() {
  if (path.empty()) return;
  std::error_code ignored;
  fs::remove(path, ignored);
}

std::string ScratchFile::TemporaryPath() {
  return (fs::temp_directory_path() / ("fusescope-lesson-" + std::to_string(getpid()) + ".fsdb"))
      .string();
}

}  // namespace fusescope::app
