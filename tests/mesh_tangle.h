#pragma once
// For the mesh tests: a mesh that arrives tangled, as from a scan or a careless edit: interior
// vertices pushed across one of their neighbours, folding some of their triangles.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "compute/mesh/surface.h"

namespace ws::mesh::test {

// `count` interior vertices, at least three edges apart, each moved past a random neighbour u to
// u + (u - v) / 2; with `onSphere`, then back onto the unit sphere. Returns the mesh and which
// vertices moved.
inline TriangleMesh tangled(const TriangleMesh& mesh, int count, std::uint64_t seed, bool onSphere,
                            std::vector<std::uint32_t>* pushed = nullptr) {
  const SurfaceMesh m(mesh);
  const Topology& t = m.topology;
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> taken(t.vertices, 0);
  TriangleMesh out = mesh;
  for (int done = 0, tries = 0; done < count && tries < 10000; ++tries) {
    const std::uint32_t v = std::uint32_t(rng() % t.vertices);
    if (t.pinned[v] || taken[v]) continue;
    const std::uint32_t first = t.neighbourStart[v], degree = t.neighbourStart[v + 1] - first;
    const std::uint32_t u = t.neighbourOf[first + rng() % degree];
    const Vec3 p = m.positions[v], q = m.positions[u];
    Vec3 moved = q + (q - p) * 0.5f;
    if (onSphere) moved = moved * (1 / length(moved));
    out.vertices[v] = {moved.x, moved.y, moved.z};
    // Folds two rings apart at least, each among sound triangles.
    taken[v] = 1;
    for (std::uint32_t i = first; i < first + degree; ++i) {
      const std::uint32_t w = t.neighbourOf[i];
      taken[w] = 1;
      for (std::uint32_t j = t.neighbourStart[w]; j < t.neighbourStart[w + 1]; ++j)
        taken[t.neighbourOf[j]] = 1;
    }
    if (pushed) pushed->push_back(v);
    ++done;
  }
  return out;
}

}  // namespace ws::mesh::test
