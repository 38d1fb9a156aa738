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
  int sweeps = 0;  // local-moving sweeps over all the nodes, every level together
};

LouvainResult louvainOnCpu(const Graph& g);

// The synchronous Louvain method, as a GPU runs it: in each sweep every node picks its move
// seeing all the others where they were before the sweep (louvain_rule.h), and all move at once;
// a level ends when a sweep no longer raises modularity (that sweep is undone) or raises it by
// less than 10^-6. Levels aggregate as above, communities numbered in order of their old
// number. Lower modularity than the sequential method on some graphs (moves made together can
// work against each other), near-linear work that parallelizes over nodes and arcs. This is the
// CPU reference that CudaLouvain matches exactly. Throws InputError when 2m >= 2^31.
LouvainResult louvainSynchronousOnCpu(const Graph& g);

// The largest number of sweeps a level may take, and of levels.
inline constexpr int kLouvainMaxSweeps = 64, kLouvainMaxLevels = 32;

}  // namespace ws::graph
