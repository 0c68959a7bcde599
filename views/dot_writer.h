#ifndef FUSESCOPE_VIEWS_DOT_WRITER_H_
#define FUSESCOPE_VIEWS_DOT_WRITER_H_

// Writes a DisplayGraph as Graphviz DOT text: what is visible (collapsed boxes as single
// nodes, expanded boxes as clusters), or the flat instruction graph with no boxes at all.
// Nodes carry the diff colours of DiffPalette.

#include <string>

#include "views/display_graph.h"

namespace fusescope::views {

struct DotOptions {
  bool flat = false;  // every instruction node, no boxes, whatever is collapsed
  bool edge_labels = true;
  bool colors = true;
  std::string graph_name = "fusescope";
};

class DotWriter {
 public:
  static std::string Write(const DisplayGraph& graph, const DotOptions& options = {});
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_DOT_WRITER_H_
