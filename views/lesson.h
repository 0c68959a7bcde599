#ifndef FUSESCOPE_VIEWS_LESSON_H_
#define FUSESCOPE_VIEWS_LESSON_H_

// Lessons: a model, a pipeline and a sequence of steps that walk a class through it (go to a
// pass, select a node, show a fusion decision, open a kernel's lowering stage, ask a question,
// run a what-if compile). The text format is documented in docs/lessons.md; the built-in
// lessons are resources/lessons/*.lesson. A lesson is parsed on its own (ParseLesson: syntax,
// FILE:LINE:COL errors), then resolved against the recording its model compiled to
// (ResolveLesson), which fails naming the step whose pass, node, decision or kernel the
// recording does not have. The CLI (`fusescope lesson`), the workbench's Lesson panel and the
// HTML replay all read lessons through this file.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"
#include "recording/kernel_store.h"
#include "recording/recording.h"

namespace fusescope::views {

// Which view a step brings forward.
enum class LessonView { kGraph, kText, kDecisions, kKernel, kInspector, kPasses };
std::string_view LessonViewName(LessonView view);

struct LessonStep {
  int line = 0;  // the `step:` line, 1-based
  std::string title;
  std::string text;      // the narrative, paragraphs separated by blank lines
  std::string pass;      // as written: a number, a pass name (`fusion`, `cse#2`), `last`; "" = stay
  std::string select;    // an instruction name, "" = none
  std::string decision;  // "PRODUCER -> CONSUMER", "" = none
  std::string kernel;    // a kernel (fusion) name
  std::string stage;     // one of its lowering stages, by name or position
  std::string question;
  std::vector<std::string> what_if;  // compile options (`--fusion-limit k=v`, `--disable-pass P`)
  LessonView view = LessonView::kGraph;
  bool view_given = false;
  // Where each key's value starts, for errors found when resolving: key -> {line, column}.
  std::vector<std::pair<std::string, std::pair<int, int>>> positions;
};

struct Lesson {
  std::string file;  // as given; errors name it
  std::string title;
  std::string about;
  std::string model;     // "sample:mlp", or a path (relative paths are against the lesson's folder)
  std::string pipeline = "cpu";
  std::vector<std::string> options;  // compile options of the lesson's own recording
  bool kernels = false;              // the recording needs kernels (a step shows one)
  std::vector<LessonStep> steps;
};

// Syntax only: keys known, values well formed, at least one step. Errors are
// "FILE:LINE:COL: message".
StatusOr<Lesson> ParseLesson(std::string_view text, const std::string& file_name);

// Reads `what`: `lesson:NAME` (built-in) or a file. A relative model path is made relative to
// the lesson file's folder.
StatusOr<Lesson> LoadLesson(const std::string& what);

// Splits an option line the way a shell would for simple words and double quotes:
// `--fusion-limit max_instructions=8 --disable-pass "cse"`.
StatusOr<std::vector<std::string>> SplitOptions(std::string_view line);

// A step pinned to the recording.
struct ResolvedStep {
  int64_t pass = 0;                // the pass shown (before and after it)
  std::string pass_name;
  int64_t instruction_id = -1;     // the selected node, -1 none
  bool selected_before = false;    // found only in the module the pass ran on
  int64_t decision_index = -1;     // into Recording::decisions, -1 none
  std::string kernel;              // "" none
  int kernel_snapshot = -1;
  int stage_index = -1;            // into the kernel's stages, -1 the first
  std::string stage_name;
};

struct ResolveInputs {
  const recording::Recording* recording = nullptr;
  // The kernels stored with the recording (recording::ListKernels); needed only when a step
  // shows one.
  const std::vector<recording::KernelSummary>* kernels = nullptr;
  // Checks a step's what-if options (the CLI's own flag parser); null: not checked.
  std::function<Status(const std::vector<std::string>& options)> check_options;
};

// Every step resolved in order, a step without `pass:` staying on the pass before it (the
// first defaults to the recording's first pass). Errors name the file, the step's line, its
// number and title, and what is missing: "mlp.lesson:12:7: step 3 ('Why not fused'): no node
// named 'reduce.9' before or after pass 7 (fusion)".
StatusOr<std::vector<ResolvedStep>> ResolveLesson(const Lesson& lesson,
                                                  const ResolveInputs& inputs);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_LESSON_H_
