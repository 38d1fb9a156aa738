#pragma once
// Graphs to study, generated from a seed (the same seed gives the same graph): Watts' alpha-model
// and the Watts-Strogatz small world (clustered, short paths), Barabasi-Albert growth by
// preferential attachment (scale-free: a few hubs of high degree), the planted partition (groups
// of vertices, dense inside and sparse between: communities with a known answer) and the 2-D grid
// (every degree 4 or less: where edge parallelism has no imbalance to fix).
#include <cstdint>
#include <vector>

#include "compute/graph/graph.h"

namespace ws::graph {

// Watts (1999): vertices gain edges one at a time, each to a vertex chosen with propensity 1
// when the two share at least k neighbours, p when they share none, and (m/k)^alpha (1 - p) + p
// when they share m in between; until the mean degree is k. Small alpha: cliquish; large: random.
// O(n) a edge: for graphs of up to some ten thousand vertices.
Graph wattsAlpha(std::uint32_t vertices, std::uint32_t k, double alpha, double p,
                 std::uint64_t seed);
// A ring where each vertex joins its k nearest (k even), each edge rewired with probability beta.
Graph wattsStrogatz(std::uint32_t vertices, std::uint32_t k, double beta, std::uint64_t seed);
// Growth from a clique of m + 1 vertices, each new vertex joining m distinct vertices chosen with
// probability proportional to their degree.
Graph barabasiAlbert(std::uint32_t vertices, std::uint32_t m, std::uint64_t seed);
// `groups` groups of `size` vertices; two vertices are joined with probability pIn in one group,
// pOut across. *community (when given) gets each vertex's group.
Graph plantedPartition(std::uint32_t groups, std::uint32_t size, double pIn, double pOut,
                       std::uint64_t seed, std::vector<std::uint32_t>* community = nullptr);
// A width x height grid, each vertex joined to its four neighbours (none across the borders).
Graph grid(std::uint32_t width, std::uint32_t height);

}  // namespace ws::graph
