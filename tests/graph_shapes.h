#pragma once
// Small graphs with known answers, for the graph tests: paths, stars, cycles, cliques and
// barbells.
#include <cstdint>
#include <utility>
#include <vector>

#include "compute/graph/graph.h"

namespace ws::graph {

inline Graph fromPairs(std::uint32_t n,
                       std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs) {
  return buildGraph(n, std::move(pairs));
}

inline Graph path(std::uint32_t n) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> p;
  for (std::uint32_t v = 0; v + 1 < n; ++v) p.emplace_back(v, v + 1);
  return fromPairs(n, p);
}
inline Graph star(std::uint32_t leaves) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> p;
  for (std::uint32_t v = 1; v <= leaves; ++v) p.emplace_back(0, v);
  return fromPairs(leaves + 1, p);
}
inline Graph cycle(std::uint32_t n) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> p;
  for (std::uint32_t v = 0; v < n; ++v) p.emplace_back(v, (v + 1) % n);
  return fromPairs(n, p);
}
inline Graph complete(std::uint32_t n) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> p;
  for (std::uint32_t a = 0; a < n; ++a)
    for (std::uint32_t b = a + 1; b < n; ++b) p.emplace_back(a, b);
  return fromPairs(n, p);
}
// Two cliques of `size` joined by one edge (the bridge: size - 1 to size).
inline Graph barbell(std::uint32_t size) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> p;
  for (std::uint32_t half = 0; half < 2; ++half)
    for (std::uint32_t a = 0; a < size; ++a)
      for (std::uint32_t b = a + 1; b < size; ++b) p.emplace_back(half * size + a, half * size + b);
  p.emplace_back(size - 1, size);
  return fromPairs(2 * size, p);
}

}  // namespace ws::graph
