#ifndef FUSESCOPE_VIEWS_LESSON_REPORT_H_
#define FUSESCOPE_VIEWS_LESSON_REPORT_H_

// The lesson replay: a lesson (lesson.h) resolved against its recording, written as one
// self-contained HTML page that a class opens in any browser without installing anything
// (`fusescope report [RUN.fsdb] --lesson FILE -o OUT.html`). Nothing is fetched: styles,
// script and pictures are inside the page, which names no URL at all, and its
// Content-Security-Policy forbids loading anything, so an accidental reference fails loudly
// in the browser's console instead of reaching the network.
//
// Each step shows its title, narrative and question, the pass it is at with that pass's
// explanation (resources/explanations.h), the pass's diff and its side-by-side picture with
// the selected node (and the decision's edge) outlined, the fusion decision with its reason,
// a kernel's lowering stage with its diff against the stage before, and a what-if's
// comparison. A pass's picture is written once however many steps show it; the script moves
// it into the step on screen. Navigation: the step list, Previous/Next, the arrow keys and the
// address `#step-N`. Without script every step is shown in order.
//
// Opened with the address `#selftest`, the page walks every step with its own Next button,
// checks what is on screen and writes "steps=N visited=N failures=0 errors=0" (then one line
// per problem) into <pre id="selftest-result">: what scripts/replay_browser_check.sh reads
// from a headless browser.

#include <optional>
#include <string>
#include <vector>

#include "ir/status.h"
#include "recording/kernel_record.h"
#include "recording/recording.h"
#include "recording/recording_comparison.h"
#include "views/lesson.h"
#include "views/pass_diff.h"

namespace fusescope::views {

struct LessonReplayInputs {
  const Lesson* lesson = nullptr;
  const recording::Recording* recording = nullptr;
  const std::vector<ResolvedStep>* steps = nullptr;  // ResolveLesson's, one per lesson step
  // The kernels the kernel steps show, with their stage texts (recording::LoadKernel); a step
  // finds its own by name and snapshot. Needed only when a step shows a kernel.
  const std::vector<recording::KernelRecord>* kernels = nullptr;
  // Per step, the what-if compile compared with the lesson's recording (A the lesson's, B the
  // what-if), nullopt for a step without a what-if. Needed only when a step has a what-if.
  const std::vector<std::optional<recording::RecordingComparison>>* what_ifs = nullptr;
};

struct LessonReportOptions {
  DiffViewOptions diff;
  std::string title;  // default: "Lesson: TITLE"
};

class LessonReport {
 public:
  // Errors: inputs missing or of another lesson (a different number of steps), a kernel step
  // whose kernel is not among `kernels`, a what-if step without its comparison. A pass whose
  // diff or picture cannot be made says so in its steps.
  static StatusOr<std::string> Render(const LessonReplayInputs& inputs,
                                      const LessonReportOptions& options = {});
};

Status WriteLessonReport(const LessonReplayInputs& inputs, const std::string& path,
                         const LessonReportOptions& options = {});

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_LESSON_REPORT_H_
