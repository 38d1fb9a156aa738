#include "compute/mesh/colouring.h"

#include <algorithm>

namespace ws::mesh {

Colouring firstFitColouring(const Topology& topology) {
  const std::size_t n = topology.vertices;
  Colouring c;
  c.colour.assign(n, 0);
  // taken[k] == v + 1 while colour k is a neighbour's colour of vertex v.
  std::vector<std::size_t> taken(topology.maxDegree() + 2, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    for (std::uint32_t i = topology.neighbourStart[v]; i < topology.neighbourStart[v + 1]; ++i) {
      const std::uint32_t u = topology.neighbourOf[i];
      if (u < v) taken[c.colour[u]] = v + 1;
    }
    std::uint32_t k = 0;
    while (taken[k] == v + 1) ++k;
    c.colour[v] = k;
    c.colours = std::max(c.colours, k + 1);
  }
  groupClasses(c);
  return c;
}

Colouring jonesPlassmannColouring(const Topology& topology, std::uint32_t seed) {
  const std::size_t n = topology.vertices;
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t v = 0; v < n; ++v) order[v] = v;
  std::sort(order.begin(), order.end(),
            [seed](std::uint32_t a, std::uint32_t b) { return priorityBeats(a, b, seed); });
  Colouring c;
  c.colour.assign(n, 0);
  std::vector<std::uint8_t> done(n, 0);
  std::vector<std::size_t> taken(topology.maxDegree() + 2, 0);
  for (std::size_t rank = 0; rank < n; ++rank) {
    const std::uint32_t v = order[rank];
    for (std::uint32_t i = topology.neighbourStart[v]; i < topology.neighbourStart[v + 1]; ++i) {
      const std::uint32_t u = topology.neighbourOf[i];
      if (done[u]) taken[c.colour[u]] = rank + 1;
    }
    std::uint32_t k = 0;
    while (taken[k] == rank + 1) ++k;
    c.colour[v] = k;
    c.colours = std::max(c.colours, k + 1);
    done[v] = 1;
  }
  groupClasses(c);
  return c;
}

void groupClasses(Colouring& c) {
  c.classStart.assign(c.colours + 1, 0);
  for (std::uint32_t k : c.colour) ++c.classStart[k + 1];
  for (std::uint32_t k = 0; k < c.colours; ++k) c.classStart[k + 1] += c.classStart[k];
  c.members.resize(c.colour.size());
  std::vector<std::uint32_t> fill(c.classStart.begin(), c.classStart.end() - 1);
  for (std::uint32_t v = 0; v < c.colour.size(); ++v) c.members[fill[c.colour[v]]++] = v;
}

std::string checkColouring(const Topology& topology, const Colouring& c) {
  if (c.colour.size() != topology.vertices)
    return std::to_string(c.colour.size()) + " colours for " + std::to_string(topology.vertices) +
           " vertices";
  for (std::uint32_t v = 0; v < topology.vertices; ++v) {
    if (c.colour[v] >= c.colours)
      return "vertex " + std::to_string(v) + " has colour " + std::to_string(c.colour[v]) + " of " +
             std::to_string(c.colours);
    for (std::uint32_t i = topology.neighbourStart[v]; i < topology.neighbourStart[v + 1]; ++i)
      if (c.colour[topology.neighbourOf[i]] == c.colour[v])
        return "vertices " + std::to_string(v) + " and " + std::to_string(topology.neighbourOf[i]) +
               " are joined and share colour " + std::to_string(c.colour[v]);
  }
  if (c.classStart.size() != c.colours + 1 || c.members.size() != topology.vertices)
    return "the classes do not list every vertex";
  std::vector<std::uint8_t> listed(topology.vertices, 0);
  for (std::uint32_t v : c.members)
    if (v >= topology.vertices || listed[v]++) return "the classes list a vertex twice";
  for (std::uint32_t k = 0; k < c.colours; ++k)
    for (std::uint32_t i = c.classStart[k]; i < c.classStart[k + 1]; ++i)
      if (c.colour[c.members[i]] != k)
        return "vertex " + std::to_string(c.members[i]) + " is listed under colour " +
               std::to_string(k);
  return "";
}

}  // namespace ws::mesh
