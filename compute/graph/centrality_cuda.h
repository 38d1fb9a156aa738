#pragma once
// Brandes' centrality on the GPU, level by level from each source (the source's chapter 2), in
// the chapter's three thread mappings: a thread per vertex of the current level's candidates
// (node-parallel: work per thread follows the degree, so hubs hold up their warps), a thread per
// arc (edge-parallel: even work, more threads), and a thread per arc with the arcs in random order
// (the chapter's control: even work without coalesced reads, separating the two effects); and
// beyond the chapter, a thread per arc of each level's frontier (work-efficient: each arc looked
// at once each way), with the dense levels left to the edge-parallel kernel; but forward, once
// few vertices are left unreached, from below (each of them looks for its parents), and backward,
// where the next level is thin, from above (its arcs back to the level).
//
// Sources go in batches, one per grid row (blockIdx.y), all at the same level at once: a level is
// one launch for the whole batch instead of one per source (Girvan-Newman recomputing a
// 1,000-vertex component is then some 30 launches, not 30,000), and the host looks at whether a
// level was reached only every few levels. Path counts and dependencies are doubles (integers
// overflow on grids), so the results match the CPU's to rounding. A vertex's values from a source
// share one 32-byte record, so that a look at a far neighbour fetches one sector. Throws
// OutOfMemoryError when the graph does not fit.
#include <cstdint>
#include <memory>
#include <vector>

#include "compute/graph/centrality.h"
#include "compute/graph/device_graph.h"

namespace ws::graph {

class CudaCentrality {
 public:
  // `batchBytes`: the device memory the per-source arrays of a batch may take
  // (kBytesPerSourceAndVertex); a batch holds at least one source.
  explicit CudaCentrality(const Graph& g, std::uint64_t permutationSeed = 1,
                          double batchBytes = double(1 << 30));
  // On the device copy of g that `device` already holds (kept by the caller).
  CudaCentrality(const Graph& g, const DeviceGraph& device, std::uint64_t permutationSeed = 1,
                 double batchBytes = double(1 << 30));

  // As centralityOnCpu, with `removed` edges absent, into `into`; waits for the result. Without
  // `stress` the stress is not summed (left 0): the backward sweep's atomics halve. The results
  // are written over into's arrays, whose memory is reused: on the 10^7-edge graph they are
  // 10^8 bytes, whose copy into new arrays took 52-72 ms (their pages touched for the first
  // time), where the edge sums' copy into touched ones takes 5-11 (H200's host, run 126).
  // `into` is changed only once the sweeps are done.
  void run(Centrality& into, const std::vector<std::uint32_t>& sources, Parallelism parallelism,
           const std::vector<std::uint8_t>& removed = {}, bool extrapolate = true,
           bool stress = true);
  // The same into new arrays.
  Centrality run(const std::vector<std::uint32_t>& sources, Parallelism parallelism,
                 const std::vector<std::uint8_t>& removed = {}, bool extrapolate = true,
                 bool stress = true) {
    Centrality c;
    run(c, sources, parallelism, removed, extrapolate, stress);
    return c;
  }

  static constexpr double kBytesPerSourceAndVertex = 32 + 4;  // a record and a distance
  std::uint32_t batch() const { return batch_; }              // sources a launch serves
  // Levels launched in the last run (every batch's forward and backward), and read-backs made.
  std::uint64_t levelLaunches() const { return levelLaunches_; }
  // Of those, the frontier mapping's levels that swept every arc (its dense levels), its dense
  // levels forward that went from below (each unreached vertex's arcs) instead, and those
  // backward that went from above (the next level's arcs).
  std::uint64_t denseLevels() const { return denseLevels_; }
  std::uint64_t levelsFromBelow() const { return levelsFromBelow_; }
  std::uint64_t levelsFromAbove() const { return levelsFromAbove_; }

 private:
  CudaCentrality(const Graph& g, std::unique_ptr<DeviceGraph> owned, const DeviceGraph* device,
                 std::uint64_t permutationSeed, double batchBytes);

  std::unique_ptr<DeviceGraph> owned_;  // when made from the graph alone
  const DeviceGraph& graph_;
  std::uint32_t batch_;
  DeviceBuffer<std::uint32_t> permutedFrom_, permutedTo_, permutedEdge_;
  DeviceBuffer<std::uint8_t> removed_;
  DeviceBuffer<std::uint32_t> batchSources_;
  DeviceBuffer<std::int32_t> distance_, levelReached_;
  DeviceBuffer<std::uint8_t> records_;  // per source and vertex: paths, dependency, suffixes
  DeviceBuffer<double> betweenness_, stress_, edgeBetweenness_;
  DeviceBuffer<double> arcBetweenness_;  // the frontier mapping's, 8 bytes an arc, on its first run
  // Each source's sum of distances and eccentricity, in the order of the run's list.
  DeviceBuffer<unsigned long long> distanceSum_;
  DeviceBuffer<std::int32_t> eccentricity_;
  std::vector<unsigned long long> hostDistanceSum_;  // their copies, kept for their memory
  std::vector<std::int32_t> hostEccentricity_;
  // The frontier mapping: every level's list of (source, vertex) entries, one level after
  // another, each entry's first arc among its level's, and the entries appended so far; 16 bytes
  // a source and vertex of a batch besides kBytesPerSourceAndVertex, allocated on its first run.
  DeviceBuffer<std::uint64_t> frontierEntries_;
  DeviceBuffer<unsigned long long> frontierArcStart_, frontierTail_;
  DeviceBuffer<std::uint8_t> scanScratch_;
  std::uint64_t levelLaunches_ = 0, denseLevels_ = 0, levelsFromBelow_ = 0, levelsFromAbove_ = 0;
};

}  // namespace ws::graph
