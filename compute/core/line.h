#pragma once
// Cells along a straight line (Bresenham), endpoints included: what a mouse drag from one cell to
// another paints, in any module's cell grid.
#include <cstdlib>
#include <utility>
#include <vector>

namespace ws {

inline std::vector<std::pair<int, int>> lineCells(int x0, int y0, int x1, int y1) {
  std::vector<std::pair<int, int>> cells;
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  for (int error = dx + dy;;) {
    cells.emplace_back(x0, y0);
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * error;
    if (e2 >= dy) error += dy, x0 += sx;
    if (e2 <= dx) error += dx, y0 += sy;
  }
  return cells;
}

}  // namespace ws
