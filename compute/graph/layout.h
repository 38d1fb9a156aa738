#pragma once
// A force-directed drawing of a graph in the plane (Fruchterman and Reingold, 1991): edges pull
// their ends together (d^2 / k), every pair of vertices pushes apart (k^2 / d), a weak pull
// towards the centre keeps pieces from drifting off, and each step moves a vertex at most the
// current temperature. Repulsion is summed only over vertices in the 3 x 3 cells of a uniform
// grid around each vertex (cells 2k wide), the usual approximation that makes a step linear in
// the vertices instead of quadratic.
#include <cstdint>
#include <vector>

#include "compute/graph/graph.h"

namespace ws::graph {

struct LayoutParams {
  float spacing = 1;      // k: the ideal edge length
  float gravity = 0.02f;  // pull towards the centre, per unit distance
  float temperature = 1;  // the largest move a step, in units of k
};

// Positions, x then y per vertex, starting at random in a square that fits them; step() moves
// them, skipping edges with removed[e] set (removed may be empty).
class Layout {
 public:
  Layout(const Graph& g, std::uint64_t seed);
  void step(const LayoutParams& params, const std::vector<std::uint8_t>& removed = {});
  const std::vector<float>& positions() const { return positions_; }
  void setPositions(std::vector<float> positions) { positions_ = std::move(positions); }
  void place(std::uint32_t v, float x, float y) {
    positions_[2 * v] = x;
    positions_[2 * v + 1] = y;
  }

 private:
  const Graph& g_;
  std::vector<float> positions_, force_;
  std::vector<std::uint32_t> cellStart_, cellVertices_;
};

}  // namespace ws::graph
