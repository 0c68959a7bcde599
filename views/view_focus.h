#ifndef FUSESCOPE_VIEWS_VIEW_FOCUS_H_
#define FUSESCOPE_VIEWS_VIEW_FOCUS_H_

// Where a graph view opens. A view shows a window of the picture at a zoom where labels can
// be read; when what matters (the nodes a pass changed) does not fit in that window, the view
// shows the part of it where the most lies rather than shrinking the picture until nothing
// can be read. Plain geometry, in picture coordinates (y down); the caller converts the view's
// size at its zoom into a window size.

#include <vector>

#include "views/geometry.h"

namespace fusescope::views {

// The part of `targets` to show in a window of `width` × `height`: the bounding box of all of
// them when it fits; otherwise the box of those whose centres lie in the window that holds
// the most centres (the topmost, then leftmost, of equally full ones), cut to the window's
// size around its middle. Empty (zero size) for no targets.
Rect DensestWindow(const std::vector<Rect>& targets, double width, double height);

// The top of a picture of `nodes`: a window of `width` × `height` (at most the picture's
// size) at the picture's top edge, centred across on the densest part of the first row of
// nodes, so that it always holds a node of that row. What a view shows when nothing changed.
Rect TopWindow(const std::vector<Rect>& nodes, double width, double height);

// The smallest rectangle holding all of `rects`; empty for none.
Rect Bounds(const std::vector<Rect>& rects);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_VIEW_FOCUS_H_
