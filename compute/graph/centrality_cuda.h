#pragma once
// Brandes' centrality on the GPU, level by level from each source (the source's chapter 2), in
// the chapter's three thread mappings: a thread per vertex of the current level's candidates
// (node-parallel: work per thread follows the degree, so hubs hold up their warps), a thread per
// arc (edge-parallel: even work, more threads), and a thread per arc with the arcs in random order
// (the chapter's control: even work without coalesced reads, separating the two effects). Path
// counts and dependencies are doubles (integers overflow on grids), so the results match the
// CPU's to rounding. Throws OutOfMemoryError when the graph does not fit.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/graph/centrality.h"

namespace ws::graph {

enum class Parallelism { Node, Edge, PermutedEdge };

class CudaCentrality {
 public:
  explicit CudaCentrality(const Graph& g, std::uint64_t permutationSeed = 1);

  // As centralityOnCpu, with `removed` edges absent; waits for the result.
  Centrality run(const std::vector<std::uint32_t>& sources, Parallelism parallelism,
                 const std::vector<std::uint8_t>& removed = {}, bool extrapolate = true);

 private:
  std::uint32_t vertices_;
  std::size_t edges_, arcs_;
  DeviceBuffer<std::uint32_t> offset_, arcFrom_, arcTo_, arcEdge_;
  DeviceBuffer<std::uint32_t> permutedFrom_, permutedTo_, permutedEdge_;
  DeviceBuffer<std::uint8_t> removed_;
  DeviceBuffer<std::int32_t> distance_;
  DeviceBuffer<double> paths_, dependency_, suffixes_;
  DeviceBuffer<double> betweenness_, stress_, edgeBetweenness_;
  DeviceBuffer<unsigned long long> distanceSum_;
  DeviceBuffer<int> found_;
};

}  // namespace ws::graph
