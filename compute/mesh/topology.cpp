#include "compute/mesh/topology.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ws::mesh {

namespace {

// Counts into offsets: start[v + 1] += 1 per item of v, then a running sum.
void prefixSum(std::vector<std::uint32_t>& start) {
  for (std::size_t v = 1; v < start.size(); ++v) start[v] += start[v - 1];
}

bool degenerate(const TriangleMesh& mesh, const std::array<std::uint32_t, 3>& t) {
  if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) return true;
  const auto& a = mesh.vertices[t[0]];
  const auto& b = mesh.vertices[t[1]];
  const auto& c = mesh.vertices[t[2]];
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                       u[0] * w[1] - u[1] * w[0]};
  return n[0] * n[0] + n[1] * n[1] + n[2] * n[2] == 0;
}

}  // namespace

std::size_t Topology::maxDegree() const {
  std::size_t most = 0;
  for (std::uint32_t v = 0; v < vertices; ++v) most = std::max(most, degree(v));
  return most;
}

std::string Topology::summary() const {
  std::string text;
  auto add = [&text](std::size_t count, const char* what) {
    if (!count) return;
    if (!text.empty()) text += ", ";
    text += std::to_string(count);
    text += ' ';
    text += what;
  };
  add(degenerateTriangles, "degenerate triangles");
  add(boundaryEdges, "boundary edges");
  add(nonManifoldEdges, "non-manifold edges");
  return text.empty() ? "closed and manifold" : text;
}

Topology buildTopology(const TriangleMesh& mesh) {
  Topology t;
  const std::size_t n = mesh.vertices.size();
  t.vertices = n;
  t.triangleStart.assign(n + 1, 0);
  for (const auto& tri : mesh.triangles)
    for (std::uint32_t v : tri) ++t.triangleStart[v + 1];
  prefixSum(t.triangleStart);
  t.triangleOf.resize(t.triangleStart[n]);
  std::vector<std::uint32_t> fill(t.triangleStart.begin(), t.triangleStart.end() - 1);
  for (std::uint32_t i = 0; i < mesh.triangles.size(); ++i)
    for (std::uint32_t v : mesh.triangles[i]) t.triangleOf[fill[v]++] = i;

  // Every directed edge (low, high) once per triangle side; sorted, a run's length is how many
  // triangles share the edge.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(mesh.triangles.size() * 3);
  for (const auto& tri : mesh.triangles) {
    t.degenerateTriangles += degenerate(mesh, tri);
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = tri[k], b = tri[(k + 1) % 3];
      if (a != b) edges.emplace_back(std::min(a, b), std::max(a, b));
    }
  }
  std::sort(edges.begin(), edges.end());
  t.pinned.assign(n, 0);
  t.neighbourStart.assign(n + 1, 0);
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    const auto [a, b] = edges[i];
    if (j - i != 2) {
      (j - i == 1 ? t.boundaryEdges : t.nonManifoldEdges) += 1;
      t.pinned[a] = t.pinned[b] = 1;
    }
    ++t.neighbourStart[a + 1];
    ++t.neighbourStart[b + 1];
    i = j;
  }
  prefixSum(t.neighbourStart);
  t.neighbourOf.resize(t.neighbourStart[n]);
  fill.assign(t.neighbourStart.begin(), t.neighbourStart.end() - 1);
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  for (const auto& [a, b] : edges) {
    t.neighbourOf[fill[a]++] = b;
    t.neighbourOf[fill[b]++] = a;
  }
  for (std::uint32_t v = 0; v < n; ++v) {
    std::sort(t.neighbourOf.begin() + t.neighbourStart[v],
              t.neighbourOf.begin() + t.neighbourStart[v + 1]);
    if (t.triangleStart[v] == t.triangleStart[v + 1]) t.pinned[v] = 1;
  }
  return t;
}

}  // namespace ws::mesh
