#ifndef FUSESCOPE_VIEWS_HTML_REPORT_H_
#define FUSESCOPE_VIEWS_HTML_REPORT_H_

// A self-contained HTML page about one recording (`fusescope report RUN.fsdb -o OUT.html`):
// the pass list with changed passes marked, for each changed pass its computed diff as text
// and as an inline side-by-side SVG, the fusion-decision table with filters (pass, outcome,
// reason, text) run by a little inline script, and the failure with its reproducer when a
// pass failed. No server, no network, no external files: styles, script and pictures are all
// inside the page.

#include <string>

#include "ir/status.h"
#include "recording/recording.h"
#include "views/pass_diff.h"

namespace fusescope::views {

struct ReportOptions {
  DiffViewOptions diff;
  // Changed passes beyond this many get their diff as text only, without a picture.
  int max_pictures = 40;
  std::string title;  // default: "Fusescope report: MODEL"
  // Sections made elsewhere, added after the report's own, already HTML (escaped) and
  // self-contained: the stored compiler comparisons (compare/comparison_report.h, with the
  // id "compare").
  std::string extra_sections;
};

class HtmlReport {
 public:
  // Passes whose diff cannot be computed (a broken snapshot) say so in their section.
  static std::string Render(const recording::Recording& recording,
                            const ReportOptions& options = {});
};

Status WriteReport(const recording::Recording& recording, const std::string& path,
                   const ReportOptions& options = {});

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_HTML_REPORT_H_
