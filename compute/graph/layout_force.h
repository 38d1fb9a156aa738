#pragma once
// One Fruchterman-Reingold step's arithmetic for one vertex, shared by the CPU layout and the
// GPU's (so both follow the same forces in the same order): where the repulsion grid's cells
// are, the force on a vertex, and its move.
#include <cmath>
#include <cstdint>

#include "compute/core/hd.h"
#include "compute/graph/layout.h"

namespace ws::graph {

WS_HD int lesser(int a, int b) {
  return a < b ? a : b;
}
WS_HD int greater(int a, int b) {
  return a < b ? b : a;
}

// A uniform grid over the box that holds the vertices, cells about 2k wide, at most 4096 a side:
// a layout that has flown apart gets coarser cells, not a huge grid.
struct LayoutGrid {
  float loX = 0, loY = 0, cellX = 1, cellY = 1;
  int nx = 1, ny = 1;

  static LayoutGrid around(float loX, float loY, float hiX, float hiY, float spacing) {
    LayoutGrid g;
    const float cell = 2 * spacing;
    g.nx = std::fmax(1.0f, std::fmin(4096.0f, std::floor((hiX - loX) / cell) + 1));
    g.ny = std::fmax(1.0f, std::fmin(4096.0f, std::floor((hiY - loY) / cell) + 1));
    g.loX = loX;
    g.loY = loY;
    g.cellX = (hiX - loX) / float(g.nx) + 1e-6f;
    g.cellY = (hiY - loY) / float(g.ny) + 1e-6f;
    return g;
  }
  std::uint32_t cells() const { return std::uint32_t(nx) * std::uint32_t(ny); }
  WS_HD int column(float x) const { return lesser(nx - 1, int((x - loX) / cellX)); }
  WS_HD int row(float y) const { return lesser(ny - 1, int((y - loY) / cellY)); }
  WS_HD std::uint32_t cellOf(float x, float y) const {
    return std::uint32_t(row(y)) * std::uint32_t(nx) + std::uint32_t(column(x));
  }
};

// What a force step reads: positions (x, y per vertex), the grid's cells (vertices of cell c are
// cellVertices[cellStart[c] .. cellStart[c + 1]), in increasing order), the graph's rows.
struct LayoutInputs {
  const float* positions;
  LayoutGrid grid;
  const std::uint32_t *cellStart, *cellVertices;
  const std::uint32_t *offset, *arcTo, *arcEdge;
  const std::uint8_t* removed;  // per edge, or null
  LayoutParams params;
};

// The force on v: repulsion k^2 / d from the vertices of the 3 x 3 cells around, attraction
// d^2 / k along its edges present, gravity towards the origin.
WS_HD void layoutForce(const LayoutInputs& in, std::uint32_t v, float* forceX, float* forceY) {
  const float k = in.params.spacing;
  const float x = in.positions[2 * v], y = in.positions[2 * v + 1];
  float fx = -in.params.gravity * x, fy = -in.params.gravity * y;
  const int ci = in.grid.column(x), cj = in.grid.row(y);
  for (int j = greater(cj - 1, 0); j <= lesser(cj + 1, in.grid.ny - 1); ++j)
    for (int i = greater(ci - 1, 0); i <= lesser(ci + 1, in.grid.nx - 1); ++i) {
      const std::uint32_t c = std::uint32_t(j) * std::uint32_t(in.grid.nx) + std::uint32_t(i);
      for (std::uint32_t s = in.cellStart[c]; s < in.cellStart[c + 1]; ++s) {
        const std::uint32_t u = in.cellVertices[s];
        if (u == v) continue;
        float dx = x - in.positions[2 * u], dy = y - in.positions[2 * u + 1];
        float d2 = dx * dx + dy * dy;
        if (d2 < 1e-8f) {  // on top of each other: apart along a direction from their numbers
          dx = 1e-3f * float(int(v % 7) - 3) + 1e-4f;
          dy = 1e-3f * float(int(u % 5) - 2);
          d2 = dx * dx + dy * dy;
        }
        const float push = k * k / d2;  // k^2 / d, along the unit vector (dx, dy) / d
        fx += dx * push;
        fy += dy * push;
      }
    }
  for (std::uint32_t a = in.offset[v]; a < in.offset[v + 1]; ++a) {
    if (in.removed && in.removed[in.arcEdge[a]]) continue;
    const std::uint32_t u = in.arcTo[a];
    const float dx = in.positions[2 * u] - x, dy = in.positions[2 * u + 1] - y;
    const float pull = std::sqrt(dx * dx + dy * dy) / k;  // d^2 / k along the unit vector
    fx += dx * pull;
    fy += dy * pull;
  }
  *forceX = fx;
  *forceY = fy;
}

// v's move along its force, at most the temperature (in units of k).
WS_HD void layoutMove(float* positions, std::uint32_t v, float fx, float fy,
                      const LayoutParams& params) {
  const float f = std::sqrt(fx * fx + fy * fy);
  if (!(f > 0)) return;
  const float move = std::fmin(f, params.temperature * params.spacing) / f;
  positions[2 * v] += fx * move;
  positions[2 * v + 1] += fy * move;
}

}  // namespace ws::graph
