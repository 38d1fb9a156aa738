#pragma once
// Cells along a straight line (Bresenham), endpoints included: what a mouse drag from one cell to
// another paints, in any module's cell grid.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

namespace ws {

// The cells along the segment from (x0, y0) to (x1, y1), cell (i, j) covering [i, i + 1) x
// [j, j + 1), that lie within `margin` cells of a width x height grid. The segment is clipped to
// that box first (Liang-Barsky), so a far-off end (a drag that left the window, a damaged
// session's edit) costs no more than a stroke across the grid.
inline std::vector<std::pair<int, int>> lineCells(double x0, double y0, double x1, double y1,
                                                  int width, int height, int margin = 0) {
  const double start[2] = {x0, y0}, delta[2] = {x1 - x0, y1 - y0};
  const double low[2] = {-double(margin), -double(margin)};
  const double high[2] = {double(width) + margin, double(height) + margin};
  double enter = 0, leave = 1;  // the part of the segment inside the box
  for (int axis = 0; axis < 2; ++axis) {
    if (!std::isfinite(start[axis]) || !std::isfinite(delta[axis])) return {};
    if (delta[axis] == 0) {
      if (start[axis] < low[axis] || start[axis] >= high[axis]) return {};
      continue;
    }
    double a = (low[axis] - start[axis]) / delta[axis],
           b = (high[axis] - start[axis]) / delta[axis];
    if (a > b) std::swap(a, b);
    enter = std::max(enter, a);
    leave = std::min(leave, b);
  }
  if (enter > leave) return {};
  const auto cell = [&](double t, int axis) {
    const double v = std::clamp(start[axis] + t * delta[axis], low[axis], high[axis] - 0.5);
    return int(std::floor(v));
  };
  int x = cell(enter, 0), y = cell(enter, 1);
  const int xEnd = cell(leave, 0), yEnd = cell(leave, 1);
  std::vector<std::pair<int, int>> cells;
  const int dx = std::abs(xEnd - x), dy = -std::abs(yEnd - y);
  const int sx = x < xEnd ? 1 : -1, sy = y < yEnd ? 1 : -1;
  for (int error = dx + dy;;) {
    cells.emplace_back(x, y);
    if (x == xEnd && y == yEnd) break;
    const int e2 = 2 * error;
    if (e2 >= dy) error += dy, x += sx;
    if (e2 <= dx) error += dx, y += sy;
  }
  return cells;
}

}  // namespace ws
