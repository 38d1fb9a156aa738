#pragma once
// An undirected, unweighted graph as the graph module's methods read it: each edge once (for
// edge betweenness and removal), and both directions of every edge in compressed sparse rows (the
// node-parallel kernels walk a vertex's row; the edge-parallel ones take the arcs one per thread).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ws::graph {

// What building a graph from pairs dropped or merged, for the user to see.
struct GraphReport {
  std::size_t selfLoops = 0;   // pairs (v, v): dropped
  std::size_t duplicates = 0;  // a pair seen before, either way round: merged
  bool weighted = false;       // the source had weights: read, and ignored by unweighted methods
  std::string summary() const;
};

struct Graph {
  std::uint32_t vertices = 0;
  // Edge e joins ends[2e] < ends[2e + 1]; edges are in increasing order of (smaller, larger) end.
  std::vector<std::uint32_t> ends;
  // Vertex v's arcs are offset[v] .. offset[v + 1]: arc a goes from arcFrom[a] to arcTo[a] (its
  // neighbours in increasing order) along edge arcEdge[a].
  std::vector<std::uint32_t> offset, arcFrom, arcTo, arcEdge;
  // What the vertices were called in the source (a file's ids), or empty: 0 .. vertices - 1.
  std::vector<std::uint64_t> labels;

  std::size_t edges() const { return ends.size() / 2; }
  std::size_t arcs() const { return arcTo.size(); }
  std::uint32_t degree(std::uint32_t v) const { return offset[v + 1] - offset[v]; }
  std::uint32_t maxDegree() const;
  std::uint64_t label(std::uint32_t v) const { return labels.empty() ? v : labels[v]; }
};

// The graph of `vertices` vertices with these edges (ends below `vertices`); self-loops are
// dropped and duplicates merged, and counted in *report.
Graph buildGraph(std::uint32_t vertices, std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs,
                 GraphReport* report = nullptr);

// Connected components by union-find: each vertex's component, numbered from 0 in order of the
// component's smallest vertex; edges where `removed[e]` is set do not join (removed may be empty).
std::vector<std::uint32_t> components(const Graph& g, const std::vector<std::uint8_t>& removed,
                                      std::uint32_t* count = nullptr);

}  // namespace ws::graph
