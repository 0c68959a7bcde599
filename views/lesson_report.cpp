#include "views/lesson_report.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include "ir/module.h"
#include "resources/explanations.h"
#include "views/kernel_timeline.h"
#include "views/line_diff.h"
#include "views/markup.h"
#include "views/pass_diff_html.h"

namespace fusescope::views {

namespace {

// The outline of the selected node and the decision's edge. The self-test compares computed
// styles with kMarkRgb, the same colour as the browser reports it.
constexpr std::string_view kMarkColor = "#d81b60";

// Rows of a what-if table beyond this many are counted, not listed.
constexpr size_t kMaxRows = 40;
// A stage's diff longer than this many lines starts folded.
constexpr size_t kOpenDiffLines = 160;

// Nothing may be loaded from anywhere: a reference that slips in is refused and reported.
constexpr const char* kPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

constexpr const char* kStyle = R"CSS(
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0; color: #1f1f1f;
       background: #fbfbfb; font-size: 15px; line-height: 1.45; }
header { background: #24323f; color: #fff; padding: 14px 24px; }
header h1 { margin: 0 0 4px 0; font-size: 22px; }
header .meta { margin: 0; color: #c9d3dc; font-size: 13px; }
.about { padding: 10px 24px 0 24px; max-width: 60em; }
.replay { display: flex; align-items: flex-start; gap: 20px; padding: 12px 24px; }
#step-list { flex: 0 0 260px; position: sticky; top: 8px; background: #fff; font-size: 13px;
             border: 1px solid #d8dde2; border-radius: 6px; padding: 8px 10px; }
#step-list h2 { font-size: 14px; margin: 0 0 4px 0; }
#step-list ol { margin: 0; padding-left: 22px; }
#step-list li { margin: 4px 0; }
#step-list a { color: #24323f; text-decoration: none; }
#step-list a.current { font-weight: bold; color: #d81b60; }
main { flex: 1 1 auto; min-width: 0; }
.controls { display: none; align-items: center; gap: 12px; margin-bottom: 10px; }
.js .controls { display: flex; }
.controls button { font-size: 14px; padding: 4px 14px; }
.controls .hint { color: #777; font-size: 12px; }
article.step { background: #fff; border: 1px solid #d8dde2; border-radius: 6px;
               padding: 6px 18px 16px 18px; margin-bottom: 18px; }
.js article.step { display: none; }
.js article.step.current { display: block; }
article.step h2 { font-size: 19px; margin: 8px 0 2px 0; }
.where { color: #555; margin: 0 0 8px 0; font-size: 13px; }
.narrative { max-width: 60em; }
.question { border-left: 5px solid #6a1b9a; background: #f6effa; padding: 8px 12px;
            margin: 14px 0; max-width: 60em; }
.question strong { color: #6a1b9a; }
.decision { border-left: 5px solid #888; background: #f7f7f7; padding: 4px 12px; margin: 10px 0; }
.decision.accepted { border-color: #2e8b3a; }
.decision.refused { border-color: #c62828; }
.outcome.accepted { color: #2e8b3a; font-weight: bold; }
.outcome.refused { color: #c62828; font-weight: bold; }
.explanation { border: 1px solid #c9d3dc; border-radius: 6px; background: #f3f6f9;
               padding: 4px 12px 8px 12px; margin: 10px 0; max-width: 60em; font-size: 14px; }
.explanation h4 { margin: 4px 0; font-size: 15px; }
.explanation dt { font-weight: bold; margin-top: 4px; }
.explanation dd { margin: 0 0 0 16px; }
h3 { font-size: 16px; margin: 16px 0 6px 0; }
table { border-collapse: collapse; background: #fff; font-size: 13px; margin: 6px 0; }
th, td { border: 1px solid #d8dde2; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f4f6f8; padding: 8px; overflow: auto; font-size: 12px; max-height: 70vh; }
pre.line-diff .add { color: #1b5e20; background: #e8f5e9; }
pre.line-diff .del { color: #b71c1c; background: #ffebee; }
pre.line-diff .hunk { color: #6a1b9a; }
.caption { font-size: 13px; color: #333; margin: 6px 0; }
.caption .mark { color: #d81b60; font-weight: bold; }
.counts { color: #444; margin: 4px 0; }
ul.statements { margin: 4px 0 8px 0; }
.muted { color: #777; }
.js .picture-elsewhere { display: none; }
#selftest-result { margin: 12px 24px; }
@media (max-width: 900px) {
  .replay { display: block; }
  #step-list { position: static; margin-bottom: 12px; }
}
)CSS";

// In the head, before anything else runs: every error and unhandled rejection of the page is
// kept for the self-test.
constexpr const char* kErrorRecorder = R"JS(
window.replayErrors = [];
window.addEventListener('error', function (event) {
  window.replayErrors.push('error: ' + event.message + ' (line ' + event.lineno + ')');
});
window.addEventListener('unhandledrejection', function (event) {
  window.replayErrors.push('unhandled rejection: ' + event.reason);
});
)JS";

constexpr const char* kScript = R"JS(
(function () {
  'use strict';
  var kMarkRgb = 'rgb(216, 27, 96)';
  function byId(id) { return document.getElementById(id); }
  function all(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  var steps = all(document, 'article.step');
  var links = all(document, '#step-list a');
  var prev = byId('prev-step'), next = byId('next-step'), position = byId('step-position');
  var selftesting = location.hash === '#selftest';
  var current = -1;
  document.documentElement.classList.add('js');

  function indexFromHash() {
    var match = /^#step-([0-9]+)$/.exec(location.hash);
    var index = match ? parseInt(match[1], 10) - 1 : -1;
    return index >= 0 && index < steps.length ? index : -1;
  }
  // A pass's picture is in the page once; the step on screen gets it.
  function placePicture(step) {
    var slot = step.querySelector('.picture-slot');
    if (!slot) return;
    var picture = byId('picture-pass-' + slot.getAttribute('data-pass'));
    if (picture && picture.parentNode !== slot) slot.appendChild(picture);
  }
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach(function (step, i) { step.classList.toggle('current', i === current); });
    links.forEach(function (link, i) { link.classList.toggle('current', i === current); });
    placePicture(steps[current]);
    prev.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    position.textContent = 'Step ' + (current + 1) + ' of ' + steps.length;
  }
  // Moves by `delta` steps; the address follows without adding to the history.
  function go(delta) {
    show(current + delta);
    if (!selftesting) history.replaceState(null, '', '#step-' + (current + 1));
  }
  prev.addEventListener('click', function () { go(-1); });
  next.addEventListener('click', function () { go(1); });
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    go(event.key === 'ArrowRight' ? 1 : -1);
    event.preventDefault();
  });
  window.addEventListener('hashchange', function () {
    var index = indexFromHash();
    if (index >= 0) show(index);
  });
)JS";

constexpr const char* kSelfTest = R"JS(
  function marked(slot, selector, part) {
    return all(slot, selector + ' > ' + part).some(function (element) {
      return getComputedStyle(element).stroke === kMarkRgb;
    });
  }
  // What a student sees on step `index`: that step alone, its position, its picture drawn,
  // the selected node and the decision's edge outlined.
  function checkStep(index, failures) {
    var label = 'step ' + (index + 1) + ': ';
    var step = steps[index];
    var visible = steps.filter(function (s) { return getComputedStyle(s).display !== 'none'; });
    if (visible.length !== 1 || visible[0] !== step) {
      failures.push(label + visible.length + ' steps visible' +
                    (visible.length ? ', first ' + visible[0].id : ''));
    }
    if (position.textContent !== 'Step ' + (index + 1) + ' of ' + steps.length) {
      failures.push(label + 'the position reads "' + position.textContent + '"');
    }
    if (!links[index].classList.contains('current')) failures.push(label + 'not current in the list');
    var slot = step.querySelector('.picture-slot');
    if (!slot) return;
    var svg = slot.querySelector('svg');
    var box = svg ? svg.getBoundingClientRect() : null;
    if (!svg || !box.width || !box.height || !svg.querySelector('.fs-node, .fs-box')) {
      failures.push(label + 'its picture is not drawn');
      return;
    }
    (step.getAttribute('data-marked') || '').split(' ').filter(Boolean).forEach(function (key) {
      if (!marked(slot, 'g[data-key="' + key + '"]', 'rect')) {
        failures.push(label + 'node ' + key + ' is not outlined');
      }
    });
    var edge = step.getAttribute('data-marked-edge');
    if (edge) {
      var ends = edge.split(' ');
      var selector = 'g.fs-edge[data-from="' + ends[0] + '"][data-to="' + ends[1] + '"]';
      if (!marked(slot, selector, 'path')) failures.push(label + 'edge ' + edge + ' is not outlined');
    }
  }
  function finish(failures, visited) {
    var errors = window.replayErrors || [];
    var result = byId('selftest-result');
    result.textContent = 'steps=' + steps.length + ' visited=' + visited + ' failures=' +
        failures.length + ' errors=' + errors.length +
        failures.concat(errors).map(function (line) { return '\n' + line; }).join('');
    result.hidden = false;
  }
  // Every step through the Next button, back and forth with the arrow keys and Previous, then
  // the address of the first step.
  function selftest() {
    var failures = [];
    var visited = 0;
    for (var i = 0; i < steps.length; ++i) {
      if (i > 0) next.click();
      if (current === i) {
        ++visited;
      } else {
        failures.push('Next from step ' + i + ' arrived at step ' + (current + 1));
        show(i);
      }
      checkStep(i, failures);
    }
    var last = steps.length - 1;
    next.click();
    if (current !== last) failures.push('Next on the last step went to step ' + (current + 1));
    if (steps.length > 1) {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
      if (current !== last - 1) failures.push('ArrowLeft from the last step: step ' + (current + 1));
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      if (current !== last) failures.push('ArrowRight back to the last step: step ' + (current + 1));
      prev.click();
      if (current !== last - 1) failures.push('Previous from the last step: step ' + (current + 1));
      checkStep(last - 1, failures);
    }
    var timer = setTimeout(function () {
      failures.push('the address #step-1 selected no step');
      finish(failures, visited);
    }, 2000);
    window.addEventListener('hashchange', function () {
      clearTimeout(timer);
      if (current !== 0) failures.push('the address #step-1 selected step ' + (current + 1));
      checkStep(0, failures);
      finish(failures, visited);
    }, { once: true });
    location.hash = '#step-1';
  }
)JS";

constexpr const char* kScriptEnd = R"JS(
  show(Math.max(0, indexFromHash()));
  if (selftesting) selftest();
})();
)JS";

std::string Esc(std::string_view text) { return EscapeXml(text); }

// Escaped, with `code` spans in backquotes.
std::string Inline(std::string_view text) {
  std::string escaped = Esc(text);
  std::string out;
  size_t at = 0;
  while (at < escaped.size()) {
    const size_t open = escaped.find('`', at);
    const size_t close = open == std::string::npos ? open : escaped.find('`', open + 1);
    if (close == std::string::npos) break;
    out += escaped.substr(at, open - at) + "<code>" + escaped.substr(open + 1, close - open - 1) +
           "</code>";
    at = close + 1;
  }
  return out + escaped.substr(std::min(at, escaped.size()));
}

std::vector<std::string> Split(std::string_view text, std::string_view separator) {
  std::vector<std::string> parts;
  size_t at = 0;
  for (size_t found = text.find(separator); found != std::string_view::npos;
       found = text.find(separator, at)) {
    parts.emplace_back(text.substr(at, found - at));
    at = found + separator.size();
  }
  parts.emplace_back(text.substr(at));
  return parts;
}

// A lesson's text as HTML: paragraphs split by blank lines, "- " lines as a list.
std::string NarrativeHtml(const std::string& text) {
  std::string out;
  for (const std::string& paragraph : Split(text, "\n\n")) {
    std::string prose;
    bool in_list = false;
    auto flush = [&] {
      if (!prose.empty()) out += "<p>" + Inline(prose) + "</p>\n";
      prose.clear();
    };
    for (const std::string& line : Split(paragraph, "\n")) {
      if (line.starts_with("- ")) {
        flush();
        if (!in_list) out += "<ul>\n";
        in_list = true;
        out += "<li>" + Inline(line.substr(2)) + "</li>\n";
        continue;
      }
      if (in_list) out += "</ul>\n";
      in_list = false;
      prose += (prose.empty() ? "" : " ") + line;
    }
    flush();
    if (in_list) out += "</ul>\n";
  }
  return out;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "-" : out;
}

std::string PassLabel(const recording::Recording& recording, int64_t pass) {
  return "#" + std::to_string(pass) + " " + recording.passes[static_cast<size_t>(pass)].name;
}

// The keys a picture may draw instruction `id` of `module` under: its own node, then the
// fusion boxes around it, innermost first (a collapsed box stands for what it holds).
std::vector<std::string> NodeKeys(const ir::Module& module, int64_t id) {
  std::vector<std::string> keys;
  const ir::Instruction* instruction = module.FindInstructionById(id);
  while (instruction != nullptr) {
    const std::string number = std::to_string(instruction->id());
    for (const char* kind : {"i", "f", "r"}) keys.push_back(kind + number);
    const ir::Computation* parent = instruction->parent();
    instruction = parent != nullptr ? parent->fusion_instruction() : nullptr;
  }
  return keys;
}

// An instruction's name as a lesson writes it: " %add.19 " is "add.19".
std::string Name(std::string_view written) {
  const size_t begin = written.find_first_not_of(" \t%");
  const size_t end = written.find_last_not_of(" \t");
  return begin == std::string_view::npos ? "" : std::string(written.substr(begin, end + 1 - begin));
}

bool Draws(const std::string& svg, const std::string& key) {
  return svg.find("data-key=\"" + key + "\"") != std::string::npos;
}

// The key `id` is drawn under on either side of `diff`'s picture; "" when it is not drawn.
std::string DrawnKey(const PassDiff& diff, const std::string& svg, int64_t id) {
  for (const ir::Module* module : {&diff.after(), &diff.before()}) {
    for (const std::string& key : NodeKeys(*module, id)) {
      if (Draws(svg, key)) return key;
    }
  }
  return "";
}

// One picture per pass that a step shows, drawn once.
struct PassPicture {
  std::unique_ptr<PassDiff> diff;
  std::string diff_error;
  std::string svg;  // "" when it could not be drawn
  std::string svg_error;
  size_t first_step = 0;
};

// What a step outlines in its pass's picture.
struct StepMarks {
  std::vector<std::string> nodes;  // keys
  std::string edge_from, edge_to;
  bool selection_drawn = false;
};

class LessonReportBuilder {
 public:
  LessonReportBuilder(const LessonReplayInputs& inputs, const LessonReportOptions& options)
      : inputs_(inputs), options_(options) {}

  StatusOr<std::string> Build() {
    FS_RETURN_IF_ERROR(Check());
    const Lesson& lesson = *inputs_.lesson;
    DrawPictures();
    FindMarks();
    const std::string title = options_.title.empty() ? "Lesson: " + lesson.title : options_.title;
    out_ =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
        std::string(kPolicy) +
        "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>" +
        Esc(title) + "</title>\n<style>" + kStyle + std::string(PassPictureStyle()) + MarkStyle() +
        "</style>\n<script>" + kErrorRecorder + "</script>\n</head>\n<body>\n";
    Header(title);
    out_ += "<div class=\"replay\">\n";
    StepList();
    out_ +=
        "<main>\n<div class=\"controls\"><button type=\"button\" id=\"prev-step\">&larr; "
        "Previous</button><span id=\"step-position\"></span><button type=\"button\" "
        "id=\"next-step\">Next &rarr;</button><span class=\"hint\">or the arrow keys</span>"
        "</div>\n";
    for (size_t i = 0; i < lesson.steps.size(); ++i) Step(i);
    out_ += "</main>\n</div>\n<pre id=\"selftest-result\" hidden></pre>\n<script>" +
            std::string(kScript) + std::string(PassPictureScript()) + kSelfTest + kScriptEnd +
            "</script>\n</body>\n</html>\n";
    return std::move(out_);
  }

 private:
  const Lesson& lesson() const { return *inputs_.lesson; }
  const recording::Recording& recording() const { return *inputs_.recording; }
  const ResolvedStep& at(size_t index) const { return (*inputs_.steps)[index]; }

  Status StepError(size_t index, const std::string& message) const {
    const LessonStep& step = lesson().steps[index];
    return Status::Error(lesson().file + ":" + std::to_string(step.line) + ": step " +
                         std::to_string(index + 1) + " ('" + step.title + "'): " + message);
  }

  Status Check() const {
    if (inputs_.lesson == nullptr || inputs_.recording == nullptr || inputs_.steps == nullptr) {
      return Status::Error("a lesson's replay needs the lesson, its recording and its steps");
    }
    if (inputs_.steps->size() != lesson().steps.size()) {
      return Status::Error(lesson().file + ": " + std::to_string(inputs_.steps->size()) +
                           " resolved steps for a lesson of " +
                           std::to_string(lesson().steps.size()));
    }
    for (size_t i = 0; i < lesson().steps.size(); ++i) {
      const int64_t pass = at(i).pass;
      if (pass < 0 || pass >= static_cast<int64_t>(recording().passes.size())) {
        return StepError(i, "pass " + std::to_string(pass) + " is not in the recording");
      }
      if (!lesson().steps[i].what_if.empty() &&
          (inputs_.what_ifs == nullptr || inputs_.what_ifs->size() != lesson().steps.size() ||
           !(*inputs_.what_ifs)[i])) {
        return StepError(i, "its what-if was not compiled");
      }
      if (!at(i).kernel.empty() && FindKernel(i) == nullptr) {
        return StepError(i, "kernel " + at(i).kernel + " of snapshot " +
                                std::to_string(at(i).kernel_snapshot) +
                                " was not loaded with its stages");
      }
    }
    return Status::Ok();
  }

  const recording::KernelRecord* FindKernel(size_t index) const {
    if (inputs_.kernels == nullptr) return nullptr;
    for (const recording::KernelRecord& kernel : *inputs_.kernels) {
      if (kernel.kernel == at(index).kernel && kernel.snapshot == at(index).kernel_snapshot) {
        return &kernel;
      }
    }
    return nullptr;
  }

  void DrawPictures() {
    for (size_t i = 0; i < lesson().steps.size(); ++i) {
      const int64_t pass = at(i).pass;
      if (pictures_.count(pass)) continue;
      PassPicture& picture = pictures_[pass];
      picture.first_step = i;
      StatusOr<PassDiff> diff = PassDiff::Compute(recording(), pass);
      if (!diff.ok()) {
        picture.diff_error = diff.message();
        continue;
      }
      picture.diff = std::make_unique<PassDiff>(std::move(diff).value());
      StatusOr<std::string> svg =
          InlinePassSvg(recording(), *picture.diff, options_.diff, "p" + std::to_string(pass));
      if (!svg.ok()) {
        picture.svg_error = svg.message();
        continue;
      }
      // HTML puts an inline <svg> into the SVG namespace by itself; without the declaration
      // the page names no URL at all.
      picture.svg = std::move(svg).value();
      const std::string declaration = " xmlns=\"http://www.w3.org/2000/svg\"";
      if (const size_t found = picture.svg.find(declaration); found != std::string::npos) {
        picture.svg.erase(found, declaration.size());
      }
    }
  }

  void FindMarks() {
    marks_.resize(lesson().steps.size());
    for (size_t i = 0; i < lesson().steps.size(); ++i) {
      const PassPicture& picture = pictures_.at(at(i).pass);
      if (picture.svg.empty()) continue;
      StepMarks& marks = marks_[i];
      if (at(i).instruction_id >= 0) {
        const std::string key = DrawnKey(*picture.diff, picture.svg, at(i).instruction_id);
        marks.selection_drawn = !key.empty();
        if (!key.empty()) marks.nodes.push_back(key);
      }
      if (at(i).decision_index >= 0) FindEdge(*picture.diff, picture.svg, i, marks);
    }
  }

  // The decision's edge as recorded, else between the instructions the lesson names: a
  // decision on a fusion formed during the pass is found through provenance, and the picture
  // draws the edge between the instructions that fusion grew from.
  void FindEdge(const PassDiff& diff, const std::string& svg, size_t index, StepMarks& marks) {
    const auto& decision = recording().decisions[static_cast<size_t>(at(index).decision_index)];
    std::vector<std::pair<int64_t, int64_t>> pairs = {{decision.producer_id, decision.consumer_id}};
    const std::string& written = lesson().steps[index].decision;
    if (const size_t arrow = written.find("->"); arrow != std::string::npos) {
      const ir::Instruction* producer =
          diff.before().FindInstruction(Name(written.substr(0, arrow)));
      const ir::Instruction* consumer =
          diff.before().FindInstruction(Name(written.substr(arrow + 2)));
      if (producer != nullptr && consumer != nullptr)
        pairs.push_back({producer->id(), consumer->id()});
    }
    for (const auto& [producer, consumer] : pairs) {
      if (FindEdge(diff, svg, producer, consumer, marks)) return;
    }
  }

  static bool FindEdge(const PassDiff& diff, const std::string& svg, int64_t producer,
                       int64_t consumer, StepMarks& marks) {
    for (const ir::Module* module : {&diff.before(), &diff.after()}) {
      for (const std::string& from : NodeKeys(*module, producer)) {
        for (const std::string& to : NodeKeys(*module, consumer)) {
          if (svg.find("data-from=\"" + from + "\" data-to=\"" + to + "\"") == std::string::npos) {
            continue;
          }
          marks.edge_from = from;
          marks.edge_to = to;
          return true;
        }
      }
    }
    return false;
  }

  // Each step's outlines apply inside that step only, wherever the pass's picture is.
  std::string MarkStyle() const {
    std::string style;
    for (size_t i = 0; i < marks_.size(); ++i) {
      const std::string step = "#step-" + std::to_string(i + 1) + " .picture ";
      for (const std::string& key : marks_[i].nodes) {
        style += step + "g[data-key=\"" + key + "\"] > rect { stroke: " + std::string(kMarkColor) +
                 "; stroke-width: 4px; stroke-dasharray: none; }\n";
      }
      if (!marks_[i].edge_from.empty()) {
        style += step + "g.fs-edge[data-from=\"" + marks_[i].edge_from + "\"][data-to=\"" +
                 marks_[i].edge_to + "\"] > path { stroke: " + std::string(kMarkColor) +
                 "; stroke-width: 3px; }\n";
      }
    }
    return style;
  }

  void Header(const std::string& title) {
    out_ += "<header><h1>" + Esc(title) + "</h1><p class=\"meta\">model " + Esc(lesson().model) +
            " &middot; " + Esc(lesson().pipeline) + " pipeline &middot; " +
            std::to_string(recording().passes.size()) + " passes &middot; " +
            std::to_string(lesson().steps.size()) + " steps</p></header>\n";
    if (!lesson().about.empty()) {
      out_ += "<div class=\"about\">" + NarrativeHtml(lesson().about) + "</div>\n";
    }
  }

  void StepList() {
    out_ += "<nav id=\"step-list\"><h2>Steps</h2><ol>\n";
    for (size_t i = 0; i < lesson().steps.size(); ++i) {
      out_ += "<li><a href=\"#step-" + std::to_string(i + 1) + "\">" +
              Esc(lesson().steps[i].title) + "</a></li>\n";
    }
    out_ += "</ol></nav>\n";
  }

  void Step(size_t index) {
    const LessonStep& step = lesson().steps[index];
    const ResolvedStep& where = at(index);
    const StepMarks& marks = marks_[index];
    std::string marked;
    for (const std::string& key : marks.nodes) marked += (marked.empty() ? "" : " ") + key;
    out_ += "<article class=\"step\" id=\"step-" + std::to_string(index + 1) + "\" data-pass=\"" +
            std::to_string(where.pass) + "\"";
    if (!marked.empty()) out_ += " data-marked=\"" + Esc(marked) + "\"";
    if (!marks.edge_from.empty()) {
      out_ += " data-marked-edge=\"" + Esc(marks.edge_from + " " + marks.edge_to) + "\"";
    }
    const recording::PassRecord& pass = recording().passes[static_cast<size_t>(where.pass)];
    out_ += ">\n<h2>Step " + std::to_string(index + 1) + " of " +
            std::to_string(lesson().steps.size()) + ": " + Esc(step.title) +
            "</h2>\n<p class=\"where\">at pass " + Esc(PassLabel(recording(), where.pass)) +
            (pass.changed ? " (it changed the module)" : " (it changed nothing)") + "</p>\n";
    out_ += "<div class=\"narrative\">" + NarrativeHtml(step.text) + "</div>\n";
    if (where.decision_index >= 0) Decision(where);
    if (!step.what_if.empty()) WhatIf(step, *(*inputs_.what_ifs)[index]);
    if (!where.kernel.empty()) Kernel(index);
    if (!step.question.empty()) {
      out_ += "<div class=\"question\"><strong>Question.</strong> " + Inline(step.question) +
              "</div>\n";
    }
    Pass(index);
    out_ += "</article>\n";
  }

  void Decision(const ResolvedStep& where) {
    const auto& decision = recording().decisions[static_cast<size_t>(where.decision_index)];
    const std::string outcome = decision.accepted() ? "accepted" : "refused";
    out_ += "<div class=\"decision " + outcome + "\"><h3>The fusion decision</h3><p>Pass " +
            Esc(PassLabel(recording(), decision.pass_index)) + " <span class=\"outcome " + outcome +
            "\">" + (decision.accepted() ? "fused" : "refused to fuse") + "</span> %" +
            Esc(decision.producer_name) + " <span class=\"muted\">" +
            Esc(decision.producer_opcode) + "</span> into %" + Esc(decision.consumer_name) +
            " <span class=\"muted\">" + Esc(decision.consumer_opcode) + "</span>" +
            (decision.fusion_name.empty() ? "" : ", forming " + Esc(decision.fusion_name)) +
            ".</p><p>Reason <code>" + Esc(passes::FusionReasonCode(decision.reason)) +
            "</code>: " + Esc(decision.explanation) + "</p></div>\n";
  }

  void WhatIf(const LessonStep& step, const recording::RecordingComparison& comparison) {
    std::string options;
    for (const std::string& word : step.what_if) options += (options.empty() ? "" : " ") + word;
    out_ += "<section class=\"what-if\"><h3>What if: <code>" + Esc(options) + "</code></h3>\n";
    WhatIfOptions(comparison);
    out_ +=
        "<table class=\"what-if-counts\"><thead><tr><th>final fusions</th><th>count</th></tr>"
        "</thead><tbody>"
        "<tr><td>the same in both</td><td class=\"num\">" +
        std::to_string(comparison.same.size()) +
        "</td></tr><tr><td>with different members</td><td class=\"num\">" +
        std::to_string(comparison.different.size()) +
        "</td></tr><tr><td>only in the lesson's compile</td><td class=\"num\">" +
        std::to_string(comparison.only_a.size()) +
        "</td></tr><tr><td>only in the what-if</td><td class=\"num\">" +
        std::to_string(comparison.only_b.size()) + "</td></tr></tbody></table>\n";
    WhatIfFusions(comparison);
    WhatIfEdges(comparison.edges_only_a, "Edges fused only in the lesson's compile",
                "why the what-if refused");
    WhatIfEdges(comparison.edges_only_b, "Edges fused only in the what-if",
                "why the lesson's compile refused");
    out_ += "</section>\n";
  }

  void WhatIfOptions(const recording::RecordingComparison& comparison) {
    std::map<std::string, std::pair<std::string, std::string>> options;
    for (const auto& [key, value] : comparison.options_a) options[key].first = value;
    for (const auto& [key, value] : comparison.options_b) options[key].second = value;
    if (options.empty()) {
      out_ += "<p class=\"muted\">Both compiles ran with the same options.</p>\n";
      return;
    }
    out_ +=
        "<table class=\"what-if-options\"><thead><tr><th>option</th><th>lesson's compile</th>"
        "<th>what-if</th></tr></thead><tbody>";
    for (const auto& [key, values] : options) {
      out_ += "<tr><td>" + Esc(key) + "</td><td>" + Esc(values.first.empty() ? "-" : values.first) +
              "</td><td>" + Esc(values.second.empty() ? "-" : values.second) + "</td></tr>";
    }
    out_ += "</tbody></table>\n";
  }

  void WhatIfFusions(const recording::RecordingComparison& comparison) {
    const size_t total =
        comparison.different.size() + comparison.only_a.size() + comparison.only_b.size();
    if (total == 0) {
      out_ += "<p>Both compiles end with the same fusions.</p>\n";
      return;
    }
    out_ +=
        "<table class=\"what-if-fusions\"><thead><tr><th>lesson's fusion</th><th>what-if's "
        "fusion</th><th>members in both</th><th>only the lesson's holds</th><th>only the "
        "what-if's holds</th></tr></thead><tbody>\n";
    std::vector<const recording::FusionMatch*> rows;
    for (const auto* list : {&comparison.different, &comparison.only_a, &comparison.only_b}) {
      for (const recording::FusionMatch& match : *list) rows.push_back(&match);
    }
    rows.resize(std::min(rows.size(), kMaxRows));
    for (const recording::FusionMatch* match : rows) {
      out_ += "<tr><td>" + Esc(match->fusion_a.empty() ? "-" : match->fusion_a) + "</td><td>" +
              Esc(match->fusion_b.empty() ? "-" : match->fusion_b) + "</td><td>" +
              Esc(JoinNames(match->common)) + "</td><td>" + Esc(JoinNames(match->only_a)) +
              "</td><td>" + Esc(JoinNames(match->only_b)) + "</td></tr>\n";
    }
    out_ += "</tbody></table>\n";
    if (total > kMaxRows) {
      out_ += "<p class=\"muted\">and " + std::to_string(total - kMaxRows) + " more</p>\n";
    }
  }

  void WhatIfEdges(const std::vector<recording::FusedPair>& edges, const std::string& title,
                   const std::string& reason_title) {
    if (edges.empty()) return;
    out_ += "<h4>" + Esc(title) + " (" + std::to_string(edges.size()) +
            ")</h4>\n<table class=\"what-if-edges\"><thead><tr><th>producer</th><th>consumer</th>"
            "<th>" +
            Esc(reason_title) + "</th><th>explanation</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < edges.size() && i < kMaxRows; ++i) {
      const recording::FusedPair& edge = edges[i];
      out_ += "<tr><td>" + Esc(edge.producer) + "</td><td>" + Esc(edge.consumer) + "</td><td>" +
              (edge.second_reason.empty() ? std::string("never considered")
                                          : "<code>" + Esc(edge.second_reason) + "</code>") +
              "</td><td>" + Esc(edge.second_explanation) + "</td></tr>\n";
    }
    out_ += "</tbody></table>\n";
    if (edges.size() > kMaxRows) {
      out_ += "<p class=\"muted\">and " + std::to_string(edges.size() - kMaxRows) + " more</p>\n";
    }
  }

  void Kernel(size_t index) {
    const ResolvedStep& where = at(index);
    const std::unique_ptr<const KernelTimeline> timeline =
        KernelTimeline::Build(*FindKernel(index));
    const recording::KernelRecord& kernel = timeline->kernel();
    const std::vector<KernelTimelineStage>& stages = timeline->stages();
    out_ += "<section class=\"kernel\"><h3>Kernel " + Esc(kernel.kernel);
    if (stages.empty()) {
      out_ += "</h3>\n<p class=\"muted\">This kernel has no lowering stages" +
              (kernel.note.empty() ? std::string(".") : ": " + Esc(kernel.note)) +
              "</p></section>\n";
      return;
    }
    const size_t stage = where.stage_index < 0 ? 0 : static_cast<size_t>(where.stage_index);
    out_ += ", stage " + std::to_string(stage + 1) + " of " + std::to_string(stages.size()) + ": " +
            Esc(stages[stage].name) + "</h3>\n<p class=\"muted\">backend " + Esc(kernel.backend) +
            (kernel.options.empty() ? "" : ", options " + Esc(kernel.options)) + ", " +
            std::to_string(stages[stage].lines) + " lines</p>\n";
    if (!kernel.error.empty()) {
      out_ += "<p class=\"muted\">Lowering failed at stage " + Esc(kernel.failed_stage) + ": " +
              Esc(kernel.error) + "</p>\n";
    }
    out_ += "<pre class=\"stage\">" + Esc(kernel.stages[stage].text) + "</pre>\n";
    if (stage > 0) StageDiff(stages[stage - 1], stages[stage]);
    out_ += "</section>\n";
  }

  void StageDiff(const KernelTimelineStage& before, const KernelTimelineStage& stage) {
    if (!stage.changed) {
      out_ += "<p class=\"muted\">This stage changed nothing after " + Esc(before.name) + ".</p>\n";
      return;
    }
    const std::string diff = UnifiedDiff(stage.diff, before.name, stage.name);
    std::string lines;
    size_t count = 0;
    for (const std::string& line : Split(diff, "\n")) {
      if (line.empty()) continue;
      ++count;
      const char* kind = line.starts_with("@@")                               ? "hunk"
                         : line.starts_with("+") && !line.starts_with("+++ ") ? "add"
                         : line.starts_with("-") && !line.starts_with("--- ") ? "del"
                                                                              : "";
      lines += *kind ? "<span class=\"" + std::string(kind) + "\">" + Esc(line) + "</span>\n"
                     : Esc(line) + "\n";
    }
    out_ += std::string("<details") + (count <= kOpenDiffLines ? " open" : "") +
            "><summary>What this stage changed after " + Esc(before.name) + " (+" +
            std::to_string(stage.counts.added) + " &minus;" + std::to_string(stage.counts.removed) +
            " lines)</summary><pre class=\"line-diff\">" + lines + "</pre></details>\n";
  }

  void Explanation(const std::string& pass_name) {
    const std::optional<resources::PassExplanation> explanation = resources::ExplainPass(pass_name);
    out_ += "<aside class=\"explanation\"><h4>The pass " + Esc(pass_name);
    if (!explanation) {
      out_ += "</h4><p class=\"muted\">No explanation written for this pass.</p></aside>\n";
      return;
    }
    out_ += " <span class=\"muted\">(" + Esc(explanation->compiler) + ")</span></h4><dl>";
    const std::pair<const char*, const std::string*> parts[] = {
        {"What it does", &explanation->does},
        {"What it looks for", &explanation->looks_for},
        {"What it cannot do", &explanation->cannot},
        {"Its documentation", &explanation->docs}};
    for (const auto& [term, text] : parts) {
      if (!text->empty()) out_ += "<dt>" + std::string(term) + "</dt><dd>" + Esc(*text) + "</dd>";
    }
    out_ += "</dl></aside>\n";
  }

  void Pass(size_t index) {
    const ResolvedStep& where = at(index);
    const PassPicture& picture = pictures_.at(where.pass);
    out_ +=
        "<section class=\"pass\"><h3>Pass " + Esc(PassLabel(recording(), where.pass)) + "</h3>\n";
    Explanation(where.pass_name);
    if (!picture.diff) {
      out_ += "<p class=\"muted\">No diff: " + Esc(picture.diff_error) + "</p></section>\n";
      return;
    }
    out_ += PassDiffSummaryHtml(recording(), *picture.diff);
    Caption(index);
    if (picture.svg.empty()) {
      out_ += PassPictureHtml(Status::Error(picture.svg_error));
    } else {
      const std::string pass = std::to_string(where.pass);
      out_ += "<div class=\"picture-slot\" data-pass=\"" + pass + "\">\n";
      if (picture.first_step == index) {
        out_ += PassPictureHtml(picture.svg, "picture-pass-" + pass);
      } else {
        const std::string first = std::to_string(picture.first_step + 1);
        out_ +=
            "<p class=\"picture-elsewhere muted\">The picture of this pass is in <a "
            "href=\"#step-" +
            first + "\">step " + first + "</a>.</p>\n";
      }
      out_ += "</div>\n";
    }
    out_ += "</section>\n";
  }

  // Says what the picture outlines, and what it cannot show.
  void Caption(size_t index) {
    const LessonStep& step = lesson().steps[index];
    const ResolvedStep& where = at(index);
    const StepMarks& marks = marks_[index];
    std::string caption;
    if (where.instruction_id >= 0) {
      const std::string name = !step.select.empty() ? step.select : where.kernel;
      const std::string side = where.selected_before ? "before the pass" : "after the pass";
      caption += marks.selection_drawn ? "Selected: <span class=\"mark\">%" + Esc(name) +
                                             "</span>, outlined in the picture (" + side + "). "
                                       : "Selected: %" + Esc(name) + " (" + side +
                                             "), inside a box the picture keeps closed. ";
    }
    if (where.decision_index >= 0) {
      const std::string& written = step.decision;
      const size_t arrow = written.find("->");
      const std::string edge = "%" + Esc(Name(written.substr(0, arrow))) + " &rarr; %" +
                               Esc(Name(written.substr(arrow + 2)));
      if (marks.edge_from.empty()) {
        caption += "The edge " + edge +
                   " is not drawn as such: the pass formed or merged fusions around it.";
      } else {
        const bool boxed = marks.edge_from[0] != 'i' || marks.edge_to[0] != 'i';
        caption += "The edge <span class=\"mark\">" + edge + "</span> is outlined" +
                   (boxed ? ", between the fusions that hold its ends." : ".");
      }
    }
    if (!caption.empty()) out_ += "<p class=\"caption\">" + caption + "</p>\n";
  }

  const LessonReplayInputs& inputs_;
  const LessonReportOptions& options_;
  std::map<int64_t, PassPicture> pictures_;
  std::vector<StepMarks> marks_;
  std::string out_;
};

}  // namespace

StatusOr<std::string> LessonReport::Render(const LessonReplayInputs& inputs,
                                           const LessonReportOptions& options) {
  return LessonReportBuilder(inputs, options).Build();
}

Status WriteLessonReport(const LessonReplayInputs& inputs, const std::string& path,
                         const LessonReportOptions& options) {
  StatusOr<std::string> html = LessonReport::Render(inputs, options);
  if (!html.ok()) return html.status();
  std::ofstream file(path, std::ios::binary);
  file << *html;
  file.close();
  if (!file) return Status::Error(path + ": cannot write file");
  return Status::Ok();
}

}  // namespace fusescope::views
