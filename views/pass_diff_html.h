#ifndef FUSESCOPE_VIEWS_PASS_DIFF_HTML_H_
#define FUSESCOPE_VIEWS_PASS_DIFF_HTML_H_

// A pass's diff as parts of an HTML page, shared by the report (html_report.h) and the lesson
// replay (lesson_report.h) so that both draw a pass the same way: the counts and statements
// of the diff with its full text folded away, and the side-by-side picture as an inline SVG
// in a box that toggles between fitting the page and actual size when clicked.

#include <string>
#include <string_view>

#include "ir/status.h"
#include "recording/recording.h"
#include "views/pass_diff.h"

namespace fusescope::views {

// The rules for `.picture` boxes, to go inside the page's <style>.
std::string_view PassPictureStyle();
// Script statements that make every `.picture` box toggle its size on a click; to go inside
// the page's script, after the document is parsed.
std::string_view PassPictureScript();

// The counts line, the statements ("4 instructions became fusion.3") and the diff's text in
// a <details> block.
std::string PassDiffSummaryHtml(const recording::Recording& recording, const PassDiff& diff);

// The side-by-side picture of `diff` as a bare <svg> element for inlining, its element ids
// starting with `id_prefix` (unique within the page).
StatusOr<std::string> InlinePassSvg(const recording::Recording& recording, const PassDiff& diff,
                                    DiffViewOptions options, const std::string& id_prefix);
// `svg` in a `.picture` box (with the id `box_id` unless empty), or a paragraph saying why
// there is no picture.
std::string PassPictureHtml(const StatusOr<std::string>& svg, const std::string& box_id = "");

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_PASS_DIFF_HTML_H_
