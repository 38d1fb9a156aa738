#include "compute/mesh/surface.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <unordered_map>

namespace ws::mesh {

SurfaceMesh::SurfaceMesh(const TriangleMesh& mesh) : topology(buildTopology(mesh)) {
  positions.reserve(mesh.vertices.size());
  for (const auto& p : mesh.vertices) positions.push_back({p[0], p[1], p[2]});
  corners.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles) corners.insert(corners.end(), t.begin(), t.end());
  reference = referenceNormals(positions, corners, topology);
}

MeshView SurfaceMesh::view() {
  return {positions.data(),
          corners.data(),
          topology.triangleStart.data(),
          topology.triangleOf.data(),
          topology.neighbourStart.data(),
          topology.neighbourOf.data(),
          reference.data()};
}

std::vector<Vec3> referenceNormals(const std::vector<Vec3>& positions,
                                   const std::vector<std::uint32_t>& corners,
                                   const Topology& topology) {
  const std::size_t triangles = corners.size() / 3;
  const auto unitNormal = [&](std::size_t t) {
    const std::uint32_t* c = corners.data() + 3 * t;
    const Vec3 n = cross(positions[c[1]] - positions[c[0]], positions[c[2]] - positions[c[0]]);
    const float l = length(n);
    return l > 0 ? n * (1 / l) : Vec3{0, 0, 0};
  };
  std::vector<Vec3> unit(triangles), first(triangles), reference(triangles);
  for (std::size_t t = 0; t < triangles; ++t) unit[t] = unitNormal(t);
  // The triangles around t (sharing a corner, t left out) that `counts`, their unit normals summed
  // and made unit; `otherwise` where they cancel.
  const auto around = [&](std::size_t t, auto&& counts, Vec3 otherwise) {
    Vec3 sum = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = corners[3 * t + k];
      for (std::uint32_t i = topology.triangleStart[v]; i < topology.triangleStart[v + 1]; ++i) {
        const std::uint32_t u = topology.triangleOf[i];
        if (u != std::uint32_t(t) && counts(u)) sum = sum + unit[u];
      }
    }
    const float l = length(sum);
    return l > 1e-6f ? sum * (1 / l) : otherwise;
  };
  // Two votes: every neighbour first; then only those the first found facing their way, so that
  // the folds near a triangle with few neighbours (a patch's corner) do not outvote it.
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < std::int64_t(triangles); ++t)
    first[t] = around(
        std::size_t(t), [](std::uint32_t) { return true; }, unit[t]);
  const auto sound = [&](std::uint32_t u) { return dot(unit[u], first[u]) > 0; };
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < std::int64_t(triangles); ++t)
    reference[t] = around(std::size_t(t), sound, first[t]);
  return reference;
}

namespace {

constexpr float kDegrees = kDegreesPerRadian;

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

AngleSummary summarizeAngles(const SurfaceMesh& m) {
  AngleSummary s;
  double sum = 0;
  const MeshView view = const_cast<SurfaceMesh&>(m).view();  // read only
  for (std::size_t t = 0; t < m.triangles(); ++t) {
    const float degrees = signedMinAngle(view, std::uint32_t(t)) * kDegrees;
    s.minDegrees = std::min(s.minDegrees, degrees);
    sum += degrees;
    ++s.histogram[angleBin(degrees)];
    s.inverted += invertedTriangle(view, std::uint32_t(t));
  }
  s.meanDegrees = m.triangles() ? sum / double(m.triangles()) : 0;
  return s;
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
  const MeshView view = const_cast<SurfaceMesh&>(m).view();  // read only
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
        if (triangleMinAngle(m, tri) * kDegrees < kSliverDegrees) continue;
        if (invertedTriangle(view, tri)) continue;  // a fold is no feature: it is to mend
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

namespace {

// Moves vertices vertexOf(0 .. count - 1) as `view` reads the mesh, in parallel, unless locked,
// each to `to[v]`; adds the Nelder-Mead iterations to *iterations. Returns how many moved.
template <typename VertexOf>
std::size_t moveVertices(std::int64_t count, VertexOf&& vertexOf, const MeshView& view,
                         const std::vector<std::uint8_t>& locked, const OptimizeParams& params,
                         const SurfaceGrid* original, Vec3* to, std::uint64_t* iterations) {
  const SurfaceProjection project{original ? original->view() : SurfaceGridView{}};
  std::size_t moved = 0;
  std::uint64_t used = 0;
  withPrecision(params.precision, [&](auto real) {
    using Real = decltype(real);
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : moved, used)
    for (std::int64_t i = 0; i < count; ++i) {
      const std::uint32_t v = vertexOf(i);
      if (locked[v]) continue;
      const VertexMove move = passMove<Real>(view, v, params, project, NoVisit{});
      used += std::uint64_t(move.iterations);
      if (move.moved) {
        to[v] = move.to;
        ++moved;
      }
    }
  });
  if (iterations) *iterations += used;
  return moved;
}

}  // namespace

std::size_t optimizeClass(SurfaceMesh& mesh, const Colouring& colouring, std::uint32_t colour,
                          const std::vector<std::uint8_t>& locked, const OptimizeParams& params,
                          const SurfaceGrid* original, std::uint64_t* iterations) {
  // A class's vertices share no triangle: each reads and writes the one array.
  const std::int64_t first = colouring.classStart[colour], last = colouring.classStart[colour + 1];
  return moveVertices(
      last - first, [&](std::int64_t i) { return colouring.members[first + i]; }, mesh.view(),
      locked, params, original, mesh.positions.data(), iterations);
}

std::size_t optimizeAllAtOnce(SurfaceMesh& mesh, const std::vector<std::uint8_t>& locked,
                              const OptimizeParams& params, const SurfaceGrid* original,
                              std::uint64_t* iterations) {
  const std::vector<Vec3> before = mesh.positions;
  MeshView view = mesh.view();
  view.positions = const_cast<Vec3*>(before.data());  // read only: every move sees `before`
  return moveVertices(
      std::int64_t(mesh.positions.size()), [](std::int64_t v) { return std::uint32_t(v); }, view,
      locked, params, original, mesh.positions.data(), iterations);
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

TriangleMesh jitteredTorus(int around, int across, float jitter, std::uint64_t seed) {
  constexpr float kMajor = 1, kMinor = 0.35f, kTwoPi = 6.2831853f;
  TriangleMesh m;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> any(-1, 1);
  for (int i = 0; i < around; ++i)
    for (int j = 0; j < across; ++j) {
      // Moved in angle: up to `jitter` of a step each way, so the vertex stays on the torus.
      const float u = (float(i) + jitter * any(rng)) * kTwoPi / float(around);
      const float w = (float(j) + jitter * any(rng)) * kTwoPi / float(across);
      const float ring = kMajor + kMinor * std::cos(w);
      m.vertices.push_back({ring * std::cos(u), ring * std::sin(u), kMinor * std::sin(w)});
    }
  auto at = [&](int i, int j) { return std::uint32_t((i % around) * across + j % across); };
  for (int i = 0; i < around; ++i)
    for (int j = 0; j < across; ++j) {
      m.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  return m;
}

TriangleMesh cadPart(int n, float jitter, std::uint64_t seed) {
  // The solid as cells of side 0.1 / n: the block less the notch; its surface is every cell face
  // between a cell inside and one outside, as a quad split in two, facing out.
  const int nx = 20 * n, ny = 12 * n, nz = 6 * n;
  const float side = 0.1f / float(n);
  auto inside = [&](int x, int y, int z) {
    const bool block = x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz;
    const bool notch = x >= 6 * n && x < 14 * n && z >= 3 * n;
    return block && !notch;
  };
  TriangleMesh m;
  std::unordered_map<std::uint64_t, std::uint32_t> index;  // lattice point -> vertex
  std::vector<std::array<int, 3>> lattice;
  std::vector<std::array<float, 3>> normalSum;  // of the quads at each vertex, to find faces
  std::vector<int> quads;
  auto vertex = [&](int x, int y, int z) {
    const std::uint64_t key =
        (std::uint64_t(x) << 42) | (std::uint64_t(y) << 21) | std::uint64_t(z);
    const auto [at, fresh] = index.try_emplace(key, std::uint32_t(lattice.size()));
    if (fresh) {
      lattice.push_back({x, y, z});
      normalSum.push_back({0, 0, 0});
      quads.push_back(0);
    }
    return at->second;
  };
  for (int x = 0; x < nx; ++x)
    for (int y = 0; y < ny; ++y)
      for (int z = 0; z < nz; ++z) {
        if (!inside(x, y, z)) continue;
        for (int axis = 0; axis < 3; ++axis)
          for (int sign = -1; sign <= 1; sign += 2) {
            int c[3] = {x, y, z};
            c[axis] += sign;
            if (inside(c[0], c[1], c[2])) continue;
            // The face's corners, counter-clockwise seen from outside.
            const int a = (axis + 1) % 3, b = (axis + 2) % 3;
            int base[3] = {x, y, z};
            if (sign > 0) base[axis] += 1;
            std::uint32_t q[4];
            const int du[4] = {0, 1, 1, 0}, dv[4] = {0, 0, 1, 1};
            for (int k = 0; k < 4; ++k) {
              int p[3] = {base[0], base[1], base[2]};
              p[a] += sign > 0 ? du[k] : dv[k];
              p[b] += sign > 0 ? dv[k] : du[k];
              q[k] = vertex(p[0], p[1], p[2]);
              normalSum[q[k]][axis] += float(sign);
              ++quads[q[k]];
            }
            // Alternate the diagonal, so that no direction is favoured.
            if ((x + y + z) % 2) {
              m.triangles.push_back({q[0], q[1], q[2]});
              m.triangles.push_back({q[0], q[2], q[3]});
            } else {
              m.triangles.push_back({q[0], q[1], q[3]});
              m.triangles.push_back({q[1], q[2], q[3]});
            }
          }
      }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> any(-1, 1);
  m.vertices.reserve(lattice.size());
  for (std::size_t v = 0; v < lattice.size(); ++v) {
    float p[3] = {float(lattice[v][0]) * side, float(lattice[v][1]) * side,
                  float(lattice[v][2]) * side};
    // Inside a face: all four quads share one normal, along one axis; move across the others.
    for (int axis = 0; axis < 3; ++axis)
      if (quads[v] == 4 && std::abs(normalSum[v][axis]) == 4)
        for (int other = 0; other < 3; ++other)
          if (other != axis) p[other] += jitter * side * any(rng) / 2;
    m.vertices.push_back({p[0] - 1.0f, p[1] - 0.6f, p[2] - 0.3f});
  }
  return m;
}

}  // namespace ws::mesh
