#pragma once
// The solid bodies of a lattice, found from its cell types, and the links over which the fluid
// pushes on each: what the monitor's forces are summed over (lbm_engine.h).
#include <cstdint>
#include <string>
#include <vector>

#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

struct Obstacles {
  // "walls": every body that reaches a side of the lattice that is solid throughout (channel
  // walls, the cavity, what is drawn onto them); then "obstacle 1", "obstacle 2"... in the order of
  // their first cell (z, y, x), kMaxNamed at most; the rest together as "other obstacles". Bodies
  // without a fluid neighbour are left out.
  std::vector<std::string> names;
  std::vector<ForceLink> links;          // grouped by body, as names
  std::vector<std::uint32_t> linkStart;  // body k's links: [linkStart[k], linkStart[k + 1])
  static constexpr int kMaxNamed = 8;
};

// Bodies are solid cells connected along the lattice's directions (through the periodic sides
// too); a link joins a fluid, inlet or outlet cell to a solid neighbour along direction i.
Obstacles findObstacles(LatticeKind lattice, const Grid& grid,
                        const std::vector<std::uint8_t>& flags);

// The surface of the solid cells inside a 3-D lattice, its sides left out (they would hide the
// flow): triangles through the middle of each link from solid to fluid, vertices as
// compute/views/surface.h lays them out.
std::vector<float> obstacleSurface(const Grid& grid, const std::vector<std::uint8_t>& flags);

}  // namespace ws::lbm
