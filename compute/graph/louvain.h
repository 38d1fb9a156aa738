#pragma once
// Louvain community detection (Blondel, Guillaume, Lambiotte and Lefebvre, 2008): vertices move,
// one at a time, to the neighbouring community that raises modularity most, until none does;
// then each community becomes one vertex of a smaller weighted graph, and again, until a level
// changes nothing. Far faster than Girvan-Newman (near-linear in the edges), for graphs too
// large for it. Vertices are visited in order, so a graph gives the same communities every run.
#include <cstdint>
#include <vector>

#include "compute/graph/graph.h"

namespace ws::graph {

struct LouvainResult {
  std::vector<std::uint32_t> community;  // per vertex, numbered from 0
  std::uint32_t communities = 0;
  double modularity = 0;
  int levels = 0;  // aggregation levels that changed something
};

LouvainResult louvainOnCpu(const Graph& g);

}  // namespace ws::graph
