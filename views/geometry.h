#ifndef FUSESCOPE_VIEWS_GEOMETRY_H_
#define FUSESCOPE_VIEWS_GEOMETRY_H_

// Plain geometry of computed layouts: points, y axis pointing down (as Qt and SVG draw).

namespace fusescope::views {

struct Point {
  double x = 0;
  double y = 0;
};

struct Rect {
  double x = 0;  // top-left corner
  double y = 0;
  double width = 0;
  double height = 0;

  Point center() const { return {x + width / 2, y + height / 2}; }
  double right() const { return x + width; }
  double bottom() const { return y + height; }
  bool Contains(const Rect& other) const {
    return other.x >= x && other.y >= y && other.right() <= right() && other.bottom() <= bottom();
  }
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_GEOMETRY_H_
