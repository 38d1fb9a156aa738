#pragma once
// Centrality by Brandes' algorithm (the source's chapter 2): from each source a breadth-first
// sweep that counts shortest paths (forward), then the dependencies summed back up the levels
// (backward). For an undirected graph every value counts each pair of endpoints once (the
// chapter's listing counts ordered pairs: twice as much). From a sample of sources the pair sums
// (betweenness and stress) are scaled by vertices / sources, an estimate; closeness and graph
// centrality are those of the sources only (0 elsewhere).
#include <cstdint>
#include <vector>

#include "compute/graph/graph.h"

namespace ws::graph {

// How the GPU's centrality maps threads to work (centrality_cuda.h): a thread per vertex of a
// level, per arc, per arc in random order, or per arc of the level's frontier.
enum class Parallelism { Node, Edge, PermutedEdge, Frontier };

struct Centrality {
  std::vector<double> betweenness;      // per vertex: sum over pairs s, t of sigma_st(v) / sigma_st
  std::vector<double> edgeBetweenness;  // per edge, likewise
  std::vector<double> stress;           // per vertex: shortest paths through it
  std::vector<double> closeness;        // per source: 1 / sum of distances to what it reaches
  std::vector<double> graph;            // per source: 1 / its largest distance
  std::uint64_t arcsTraversed = 0;      // arcs looked at, forward and backward, over all sources

  void scalePairSums(double factor) {  // betweenness, edge betweenness and stress
    for (auto* sums : {&betweenness, &edgeBetweenness, &stress})
      for (double& b : *sums) b *= factor;
  }
};

// `sources`: the vertices to start from (all when empty). Edges with removed[e] set are not
// there (removed may be empty). Path counts are doubles: exact up to 2^53, then rounded, where
// integers would overflow (a 34 x 34 grid already has more than 2^63 paths corner to corner).
// With `extrapolate` off, the pair sums are those of the sources given, not scaled up to stand for
// every vertex (Girvan-Newman recomputing one component from all of its vertices).
Centrality centralityOnCpu(const Graph& g, const std::vector<std::uint32_t>& sources = {},
                           const std::vector<std::uint8_t>& removed = {}, bool extrapolate = true);

// The scale of the pair sums from `sources` of `vertices`: each pair counted from both ends,
// and a sample standing for all when extrapolating.
inline double pairScale(std::uint32_t vertices, std::size_t sources, bool extrapolate) {
  return extrapolate ? 0.5 * double(vertices) / double(sources ? sources : 1) : 0.5;
}

// The share of g's edges that join two levels of a breadth-first search from `source`: those a
// centrality sweep from it does arithmetic on (an edge within a level, or out of its reach, is
// looked at and left). Averaged over the sources given (none: 0).
double levelCrossingShare(const Graph& g, const std::vector<std::uint32_t>& sources);

// `count` distinct vertices chosen at random from `vertices` (all of them, in order, when count
// is at least that).
std::vector<std::uint32_t> sampleSources(std::uint32_t vertices, std::uint32_t count,
                                         std::uint64_t seed);

}  // namespace ws::graph
