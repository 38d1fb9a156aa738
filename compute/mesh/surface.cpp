#include "compute/mesh/surface.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>

namespace ws::mesh {

SurfaceMesh::SurfaceMesh(const TriangleMesh& mesh) : topology(buildTopology(mesh)) {
  positions.reserve(mesh.vertices.size());
  for (const auto& p : mesh.vertices) positions.push_back({p[0], p[1], p[2]});
  corners.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles) corners.insert(corners.end(), t.begin(), t.end());
}

MeshView SurfaceMesh::view() {
  return {positions.data(),
          corners.data(),
          topology.triangleStart.data(),
          topology.triangleOf.data(),
          topology.neighbourStart.data(),
          topology.neighbourOf.data()};
}

namespace {

constexpr float kDegrees = 180 / std::numbers::pi_v<float>;

float triangleMinAngle(const SurfaceMesh& m, std::size_t t) {
  const std::uint32_t* c = m.corners.data() + 3 * t;
  return minAngle(m.positions[c[0]], m.positions[c[1]], m.positions[c[2]]);
}

}  // namespace

float SurfaceMesh::minAngleDegrees() const {
  float smallest = 180;
  for (std::size_t t = 0; t < triangles(); ++t)
    smallest = std::min(smallest, triangleMinAngle(*this, t) * kDegrees);
  return smallest;
}

std::ptrdiff_t SurfaceMesh::foldedSince(const std::vector<Vec3>& before) const {
  for (std::size_t t = 0; t < triangles(); ++t) {
    const std::uint32_t* c = corners.data() + 3 * t;
    const Vec3 was[3] = {before[c[0]], before[c[1]], before[c[2]]},
               now[3] = {positions[c[0]], positions[c[1]], positions[c[2]]};
    if (turnedOver(was, now)) return std::ptrdiff_t(t);
  }
  return -1;
}

float SurfaceMesh::meanMinAngleDegrees() const {
  double sum = 0;
  for (std::size_t t = 0; t < triangles(); ++t) sum += triangleMinAngle(*this, t);
  return triangles() ? float(sum / double(triangles())) * kDegrees : 0;
}

std::vector<std::uint8_t> lockedVertices(const SurfaceMesh& m, float featureDegrees) {
  std::vector<std::uint8_t> locked = m.topology.pinned;
  if (!(featureDegrees > 0)) return locked;
  const float limit = std::cos(featureDegrees / kDegrees);
  auto normal = [&](std::uint32_t t) {
    const std::uint32_t* c = m.corners.data() + 3 * t;
    const Vec3 n =
        cross(m.positions[c[1]] - m.positions[c[0]], m.positions[c[2]] - m.positions[c[0]]);
    const float l = length(n);
    return l > 0 ? n * (1 / l) : n;
  };
  const Topology& t = m.topology;
  for (std::uint32_t v = 0; v < t.vertices; ++v) {
    // Each edge (v, u) and the normals of the triangles of v that contain u.
    for (std::uint32_t i = t.neighbourStart[v]; i < t.neighbourStart[v + 1] && !locked[v]; ++i) {
      const std::uint32_t u = t.neighbourOf[i];
      Vec3 first{0, 0, 0};
      bool seen = false;
      for (std::uint32_t j = t.triangleStart[v]; j < t.triangleStart[v + 1]; ++j) {
        const std::uint32_t tri = t.triangleOf[j];
        const std::uint32_t* c = m.corners.data() + 3 * tri;
        if (c[0] != u && c[1] != u && c[2] != u) continue;
        if (!seen) {
          first = normal(tri);
          seen = true;
        } else if (dot(first, normal(tri)) < limit) {
          locked[v] = 1;
        }
      }
    }
  }
  return locked;
}

std::size_t optimizeClass(SurfaceMesh& mesh, const Colouring& colouring, std::uint32_t colour,
                          const std::vector<std::uint8_t>& locked, const OptimizeParams& params,
                          const SurfaceGrid* original) {
  const MeshView view = mesh.view();
  const SurfaceProjection project{original ? original->view() : SurfaceGridView{}};
  const std::int64_t first = colouring.classStart[colour], last = colouring.classStart[colour + 1];
  std::size_t moved = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : moved)
  for (std::int64_t i = first; i < last; ++i) {
    const std::uint32_t v = colouring.members[i];
    if (locked[v]) continue;
    const VertexMove move = optimizeVertex(view, v, params, project, [](int, Point2) {});
    if (move.moved) {
      view.positions[v] = move.to;
      ++moved;
    }
  }
  return moved;
}

TriangleMesh jitteredSphere(int levels, float jitter, std::uint64_t seed) {
  const float g = (1 + std::sqrt(5.0f)) / 2;
  TriangleMesh m;
  m.vertices = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                 {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                 {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                 {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  auto onSphere = [](std::array<float, 3> p) {
    const float l = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    return std::array<float, 3>{p[0] / l, p[1] / l, p[2] / l};
  };
  for (auto& p : m.vertices) p = onSphere(p);
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> middle;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      const auto [at, fresh] = middle.try_emplace(key, std::uint32_t(m.vertices.size()));
      if (fresh) {
        const auto &p = m.vertices[a], &q = m.vertices[b];
        m.vertices.push_back(onSphere({p[0] + q[0], p[1] + q[1], p[2] + q[2]}));
      }
      return at->second;
    };
    std::vector<std::array<std::uint32_t, 3>> finer;
    finer.reserve(m.triangles.size() * 4);
    for (const auto& t : m.triangles) {
      const std::uint32_t ab = midpoint(t[0], t[1]), bc = midpoint(t[1], t[2]),
                          ca = midpoint(t[2], t[0]);
      finer.push_back({t[0], ab, ca});
      finer.push_back({t[1], bc, ab});
      finer.push_back({t[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    m.triangles = std::move(finer);
  }
  const float edge = 1.1f / float(1 << levels);  // about the icosphere's edge length
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> any(-1, 1);
  for (auto& p : m.vertices)
    p = onSphere({p[0] + jitter * edge * any(rng), p[1] + jitter * edge * any(rng),
                  p[2] + jitter * edge * any(rng)});
  return m;
}

TriangleMesh planePatch(int n, float jitter, std::uint64_t seed) {
  TriangleMesh m;
  const float h = std::sqrt(3.0f) / 2;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> any(-1, 1);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const bool inside = i > 0 && j > 0 && i < n - 1 && j < n - 1;
      const float dx = inside ? jitter * any(rng) : 0, dy = inside ? jitter * any(rng) : 0;
      m.vertices.push_back({float(i) + 0.5f * float(j % 2) + dx, float(j) * h + dy, 0});
    }
  auto at = [n](int i, int j) { return std::uint32_t(j * n + i); };
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      if (j % 2 == 0) {
        m.triangles.push_back({at(i, j), at(i + 1, j), at(i, j + 1)});
        m.triangles.push_back({at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
      } else {
        m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
        m.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      }
    }
  return m;
}

}  // namespace ws::mesh
