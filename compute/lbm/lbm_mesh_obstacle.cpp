#include "compute/lbm/lbm_mesh_obstacle.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "compute/core/errors.h"
#include "compute/lbm/lbm_scene.h"

namespace ws::lbm {

std::optional<MeshPlacement> parseMeshPlacement(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const std::vector<double> v = readCellNumbers(text, {"x", "y", "z", "size"});
  if (v[3] < 1) throw InputError("a size of at least 1 cell");
  return MeshPlacement{v[0], v[1], v[2], v[3]};
}

MeshPlacement defaultMeshPlacement(const Grid& g) {
  return {g.nx / 4.0, g.ny / 2.0, g.nz / 2.0, g.ny / 3.0};
}

io::TriangleMesh placeMesh(const io::TriangleMesh& mesh, const MeshPlacement& at) {
  std::array<float, 3> lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (const auto& v : mesh.vertices)
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], v[k]), hi[k] = std::max(hi[k], v[k]);
  const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  if (mesh.vertices.empty() || !(extent > 0))
    throw InputError("the mesh has no extent: all its vertices are at one point");
  const double scale = at.size / extent, centre[3] = {at.x, at.y, at.z};
  io::TriangleMesh placed = mesh;
  for (auto& v : placed.vertices)
    for (int k = 0; k < 3; ++k)
      v[k] = float(centre[k] + scale * (v[k] - 0.5 * (double(lo[k]) + hi[k])));
  return placed;
}

std::vector<std::uint8_t> voxelizeMesh(const io::TriangleMesh& placed, const Grid& g) {
  // Where each triangle crosses the lines through the cell centres (x + 1/2, y + 1/2): found from
  // its shadow on the xy plane. The lines are moved by a hair off the centres so that none runs
  // exactly through an edge or a vertex shared by two triangles, which would count twice.
  constexpr double kOffX = 3.17e-6, kOffY = 7.31e-6;
  std::vector<std::vector<float>> crossings(std::size_t(g.nx) * g.ny);
  for (const auto& t : placed.triangles) {
    const auto& a = placed.vertices[t[0]];
    const auto& b = placed.vertices[t[1]];
    const auto& c = placed.vertices[t[2]];
    const double area = (double(b[0]) - a[0]) * (double(c[1]) - a[1]) -
                        (double(b[1]) - a[1]) * (double(c[0]) - a[0]);
    if (area == 0) continue;  // edge-on to the lines
    const double minX = std::min({a[0], b[0], c[0]}), maxX = std::max({a[0], b[0], c[0]});
    const double minY = std::min({a[1], b[1], c[1]}), maxY = std::max({a[1], b[1], c[1]});
    const int x0 = std::max(0, int(std::ceil(minX - 0.5 - kOffX)));
    const int x1 = std::min(g.nx - 1, int(std::floor(maxX - 0.5 - kOffX)));
    const int y0 = std::max(0, int(std::ceil(minY - 0.5 - kOffY)));
    const int y1 = std::min(g.ny - 1, int(std::floor(maxY - 0.5 - kOffY)));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const double px = x + 0.5 + kOffX, py = y + 0.5 + kOffY;
        // The point's barycentric weights, each a sub-triangle's share of the area.
        const auto across = [&](const std::array<float, 3>& p, const std::array<float, 3>& q) {
          return ((double(q[0]) - p[0]) * (py - p[1]) - (double(q[1]) - p[1]) * (px - p[0])) / area;
        };
        const double wa = across(b, c), wb = across(c, a), wc = across(a, b);
        if (wa < 0 || wb < 0 || wc < 0) continue;
        crossings[std::size_t(y) * g.nx + x].push_back(float(wa * a[2] + wb * b[2] + wc * c[2]));
      }
  }
  std::vector<std::uint8_t> inside(g.cells(), 0);
  for (std::size_t column = 0; column < crossings.size(); ++column) {
    std::vector<float>& z = crossings[column];
    std::sort(z.begin(), z.end());
    for (std::size_t k = 0; k + 1 < z.size(); k += 2) {
      // Cells whose centres k + 1/2 lie between the two crossings.
      const int first = std::max(0, int(std::ceil(z[k] - 0.5)));
      const int last = std::min(g.nz - 1, int(std::floor(z[k + 1] - 0.5)));
      for (int cell = first; cell <= last; ++cell)
        inside[std::size_t(cell) * g.nx * g.ny + column] = 1;
    }
  }
  return inside;
}

}  // namespace ws::lbm
