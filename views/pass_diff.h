#ifndef FUSESCOPE_VIEWS_PASS_DIFF_H_
#define FUSESCOPE_VIEWS_PASS_DIFF_H_

// The computed diff of one recorded pass, and its headless exports: what
// `fusescope diff RUN.fsdb --pass N [--text | --svg OUT.svg | --json]` prints or writes.
// Passes are numbered as `fusescope passes` shows them: 0-based indices into
// Recording::passes; the diff is between the snapshot the pass ran on and the one it left.

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "ir/graph_diff.h"
#include "ir/module.h"
#include "ir/status.h"
#include "recording/recording.h"
#include "views/display_graph.h"
#include "views/graph_layout.h"
#include "views/svg_writer.h"

namespace fusescope::views {

struct DiffViewOptions {
  DisplayOptions display;
  // Visible nodes in the picture: boxes are expanded breadth-first up to this many
  // (DisplayGraph::ExpandToBudget); 0 expands everything.
  int budget = 140;
  bool expand_fusions = false;
  // Refused fusion decisions of the pass, on the edges between producer and consumer.
  bool decisions_on_edges = true;
  LayoutOptions layout;
  SvgOptions svg;
};

class PassDiff {
 public:
  // Rebuilds the two snapshots around `pass` and diffs them. Errors: "pass 9 is out of range
  // (the recording has 7 passes)", or a snapshot that cannot be rebuilt.
  static StatusOr<PassDiff> Compute(const recording::Recording& recording, int64_t pass);

  int64_t pass() const { return pass_; }
  const ir::Module& before() const { return *before_; }
  const ir::Module& after() const { return *after_; }
  const ir::GraphDiff& diff() const { return *diff_; }

  // The display graphs of both sides with diff status attached and the same boxes expanded,
  // refused decisions on their edges; then their aligned layouts as a side-by-side SVG.
  StatusOr<std::string> RenderSvg(const recording::Recording& recording,
                                  const DiffViewOptions& options = {}) const;
  // "pass #3 fusion: changed, 54 -> 31 instructions", the diff's text, the pass's decisions.
  std::string Text(const recording::Recording& recording, int max_lines = 200) const;
  // The same as a JSON object.
  std::string Json(const recording::Recording& recording) const;

 private:
  int64_t pass_ = -1;
  std::unique_ptr<ir::Module> before_;
  std::unique_ptr<ir::Module> after_;
  std::unique_ptr<ir::GraphDiff> diff_;
};

// For the CLI: the diff of `pass` as text, as JSON, or as a side-by-side SVG file.
Status WriteDiffText(const recording::Recording& recording, int64_t pass, std::ostream& out);
Status WriteDiffJson(const recording::Recording& recording, int64_t pass, std::ostream& out);
Status WriteDiffSvg(const recording::Recording& recording, int64_t pass, const std::string& path,
                    const DiffViewOptions& options = {});

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_PASS_DIFF_H_
