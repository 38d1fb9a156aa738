#pragma once
// Marks over a 2-D view: line segments in world coordinates drawn over the field, each in a colour
// (LBM's probe line, Life's world border).
#include <string>
#include <vector>

namespace ws {

struct Mark {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // the segment's ends, in the world's coordinates
  float rgb[3] = {1, 1, 1};
  // At least this wide in world units (a cell's mark that grows with the zoom); else the
  // renderer's width in pixels. A segment of no length is then a square of this side.
  float worldWidth = 0;
};

// The pointer over the view and the tool in hand: what a press there would do (PointerEdit's).
struct ToolHover {
  std::string tool, item;
  double x = 0, y = 0;  // world coordinates
  int orientation = 0;  // PointerEdit::orientation
};

// What a module that draws marks over its field offers.
class MarkSource {
 public:
  virtual ~MarkSource() = default;
  virtual std::vector<Mark> marks() const = 0;
  // What the tool would do if the pointer were pressed where `hover` is (its tool, item, place and
  // orientation): Life's place tool shows the pattern under the pointer.
  virtual std::vector<Mark> preview(const ToolHover&) const { return {}; }
};

// The four sides of a box, appended to `marks`.
inline void addBox(std::vector<Mark>& marks, float x0, float y0, float x1, float y1,
                   const float (&rgb)[3]) {
  const float corners[5][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}};
  for (int side = 0; side < 4; ++side)
    marks.push_back({corners[side][0],
                     corners[side][1],
                     corners[side + 1][0],
                     corners[side + 1][1],
                     {rgb[0], rgb[1], rgb[2]}});
}

}  // namespace ws
