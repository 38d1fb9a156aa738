#include "compute/lbm/lbm_obstacles.h"

#include <algorithm>

#include "compute/geometry/isosurface.h"

namespace ws::lbm {

namespace {

template <typename Lat>
Obstacles find(const Grid& g, const std::vector<std::uint8_t>& flags) {
  const std::size_t cells = g.cells();
  // The sides that are walls: faces of the lattice that are solid throughout (a channel's top and
  // bottom, a cavity's every side). The others are periodic or open (inlets, outlets), so a body
  // that reaches them, such as a cylinder through a periodic depth, is an obstacle.
  const int extent[3] = {g.nx, g.ny, g.nz};
  bool wallFace[3][2] = {};
  for (int axis = 0; axis < (g.nz > 1 ? 3 : 2); ++axis)
    for (int side = 0; side < 2; ++side) {
      const int at = side ? extent[axis] - 1 : 0;
      bool solid = true;
      const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;  // the face's other two axes
      for (int j = 0; j < extent[v] && solid; ++j)
        for (int i = 0; i < extent[u] && solid; ++i) {
          int c[3];
          c[axis] = at;
          c[u] = i;
          c[v] = j;
          solid = isSolid(flags[(std::size_t(c[2]) * g.ny + c[1]) * g.nx + c[0]]);
        }
      wallFace[axis][side] = solid;
    }
  const auto onSide = [&](std::size_t n) {
    const int c[3] = {int(n % g.nx), int(n / g.nx % g.ny), int(n / (std::size_t(g.nx) * g.ny))};
    for (int axis = 0; axis < 3; ++axis)
      if ((wallFace[axis][0] && c[axis] == 0) || (wallFace[axis][1] && c[axis] == extent[axis] - 1))
        return true;
    return false;
  };
  // Label the bodies by flood fill, in the order of their first cell; body 0 is the walls.
  constexpr std::uint32_t kNone = ~0u;
  std::vector<std::uint32_t> body(cells, kNone);
  std::vector<std::uint32_t> component;  // each component's body
  std::vector<std::size_t> stack;
  std::uint32_t free = 0;  // components not on the sides so far
  for (std::size_t start = 0; start < cells; ++start) {
    if (!isSolid(flags[start]) || body[start] != kNone) continue;
    const auto label = std::uint32_t(component.size());
    bool side = false;
    stack.assign(1, start);
    body[start] = label;
    while (!stack.empty()) {
      const std::size_t n = stack.back();
      stack.pop_back();
      side = side || onSide(n);
      const Neighbourhood nb(g, n);
      for (int i = 1; i < Lat::Q; ++i) {
        const std::uint32_t m = nb.at(Lat::cx(i), Lat::cy(i), Lat::cz(i));
        if (isSolid(flags[m]) && body[m] == kNone) {
          body[m] = label;
          stack.push_back(m);
        }
      }
    }
    component.push_back(side ? 0 : std::min<std::uint32_t>(++free, Obstacles::kMaxNamed + 1));
  }
  for (std::uint32_t& b : body)
    if (b != kNone) b = component[b];

  // Links, by body (0 walls, 1..kMaxNamed, kMaxNamed + 1 the others).
  std::vector<std::vector<ForceLink>> byBody(Obstacles::kMaxNamed + 2);
  for (std::size_t n = 0; n < cells; ++n) {
    if (isSolid(flags[n]) || !(flags[n] & kNearWall)) continue;
    const Neighbourhood nb(g, n);
    for (int i = 1; i < Lat::Q; ++i) {
      const std::uint32_t m = nb.at(Lat::cx(i), Lat::cy(i), Lat::cz(i));
      // A free-slip wall takes no tangential momentum; its pressure is not measured.
      if (isSolid(flags[m]) && (flags[m] & kTypeMask) != kSlipWall)
        byBody[body[m]].push_back({std::uint32_t(n), std::uint32_t(i)});
    }
  }
  Obstacles result;
  for (std::size_t k = 0; k < byBody.size(); ++k) {
    if (byBody[k].empty()) continue;
    result.names.push_back(k == 0                      ? std::string("walls")
                           : k <= Obstacles::kMaxNamed ? "obstacle " + std::to_string(k)
                                                       : std::string("other obstacles"));
    result.linkStart.push_back(std::uint32_t(result.links.size()));
    result.links.insert(result.links.end(), byBody[k].begin(), byBody[k].end());
  }
  result.linkStart.push_back(std::uint32_t(result.links.size()));
  if (result.names.empty()) result.linkStart.clear();
  return result;
}

}  // namespace

Obstacles findObstacles(LatticeKind lattice, const Grid& grid,
                        const std::vector<std::uint8_t>& flags) {
  return lattice == LatticeKind::D2Q9 ? find<D2Q9>(grid, flags) : find<D3Q19>(grid, flags);
}

std::vector<float> obstacleSurface(const Grid& g, const std::vector<std::uint8_t>& flags) {
  // The box of the solid cells off the sides, one cell wider all round (the sides' cells count
  // as fluid), as 1 in solid and 0 elsewhere; the surface lies at 1/2.
  int lo[3] = {g.nx, g.ny, g.nz}, hi[3] = {-1, -1, -1};
  for (int z = 1; z + 1 < g.nz; ++z)
    for (int y = 1; y + 1 < g.ny; ++y)
      for (int x = 1; x + 1 < g.nx; ++x)
        if (isSolid(flags[(std::size_t(z) * g.ny + y) * g.nx + x])) {
          const int at[3] = {x, y, z};
          for (int k = 0; k < 3; ++k)
            lo[k] = std::min(lo[k], at[k] - 1), hi[k] = std::max(hi[k], at[k] + 1);
        }
  if (hi[0] < 0) return {};
  geometry::ScalarGrid box;
  box.nx = hi[0] - lo[0] + 1, box.ny = hi[1] - lo[1] + 1, box.nz = hi[2] - lo[2] + 1;
  std::vector<float> solid(box.points(), 0.0f);
  for (int z = 1; z + 1 < box.nz; ++z)
    for (int y = 1; y + 1 < box.ny; ++y)
      for (int x = 1; x + 1 < box.nx; ++x)
        solid[box.point(x, y, z)] =
            isSolid(flags[(std::size_t(z + lo[2]) * g.ny + y + lo[1]) * g.nx + x + lo[0]]);
  box.level = solid.data();
  for (int k = 0; k < 3; ++k) box.origin[k] = float(lo[k]) + 0.5f;  // cell centres
  return geometry::isosurfaceOnHost(box, 0.5f);
}

}  // namespace ws::lbm
