#ifndef FUSESCOPE_APP_CLI_LESSON_SUPPORT_H_
#define FUSESCOPE_APP_CLI_LESSON_SUPPORT_H_

// What `fusescope lesson` and `fusescope report --lesson` share: compiling a lesson's model
// with its options (and a step's what-if options on top), preparing the recording a lesson
// runs on (its kernels compiled and stored when a step shows one), and resolving the lesson
// against that recording, the what-if compiles of its steps and the kernels its steps show.

#include <optional>
#include <string>
#include <vector>

#include "ir/status.h"
#include "recording/kernel_store.h"
#include "recording/recording.h"
#include "recording/recording_comparison.h"
#include "views/lesson.h"

namespace fusescope::app {

// The lesson's model compiled with its pipeline and options, then `extra` options (a
// what-if). Errors name the option that does not parse.
StatusOr<recording::Recording> CompileLessonModel(const views::Lesson& lesson,
                                                  const std::vector<std::string>& extra = {});

// Checks compile options as a what-if step gives them (the compile command's own flags).
Status CheckLessonOptions(const views::Lesson& lesson, const std::vector<std::string>& options);

// Compiles the lesson's recording into `path` (.fsdb); when the lesson shows kernels, runs
// `fusescope profile PATH --device cpu --save` in a child process so that the final snapshot's
// kernels are stored with it. `progress`: "progress:" lines on stderr.
Status PrepareLessonRecording(const views::Lesson& lesson, const std::string& path, bool progress);

struct ResolvedLesson {
  recording::Recording recording;
  std::vector<recording::KernelSummary> kernels;
  std::vector<views::ResolvedStep> steps;
};

// Reads the recording at `path` and resolves `lesson` against it.
StatusOr<ResolvedLesson> ResolveLessonAt(const views::Lesson& lesson, const std::string& path);

// The model compiled again with the what-if options of step `index`, compared with the
// lesson's own recording `base`. Errors name the lesson file, the step's line and number.
StatusOr<recording::RecordingComparison> CompareWhatIf(const views::Lesson& lesson, size_t index,
                                                       const recording::Recording& base);

// The kernels the resolved steps show, with their stage texts, from the recording at `path`.
StatusOr<std::vector<recording::KernelRecord>> LoadLessonKernels(
    const std::string& path, const std::vector<views::ResolvedStep>& steps);

// A file that goes away with this object, if it was made: a lesson's temporary recording.
struct ScratchFile {
  std::string path;
  ScratchFile() = default;
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile();
  // A fresh name in the temporary folder: "fusescope-lesson-PID.fsdb".
  static std::string TemporaryPath();
};

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_LESSON_SUPPORT_H_
