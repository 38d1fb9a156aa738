#include <algorithm>
#include <numeric>
#include <random>

#include "compute/core/cuda_check.h"
#include "compute/core/launch.h"
#include "compute/graph/centrality_cuda.h"

namespace ws::graph {

namespace {

constexpr unsigned kBlock = 256;

// The arrays one source's sweeps read and write.
struct Sweep {
  const std::uint32_t *offset, *arcFrom, *arcTo, *arcEdge;
  const std::uint8_t* removed;  // per edge, or null
  std::int32_t* distance;
  double *paths, *dependency, *suffixes, *edgeBetweenness;
};

// Forward, arc a = v -> w with v on level d: w is on level d + 1 if it was unreached, and then
// takes v's paths. Several threads may reach w at once: they all write the same level.
__device__ void forwardArc(const Sweep& s, std::uint32_t a, std::uint32_t v, std::int32_t d,
                           int* found) {
  if (s.removed && s.removed[s.arcEdge[a]]) return;
  const std::uint32_t w = s.arcTo[a];
  if (s.distance[w] < 0) {
    s.distance[w] = d + 1;
    *found = 1;
  }
  if (s.distance[w] == d + 1) atomicAdd(&s.paths[w], s.paths[v]);
}

// Backward, arc a = v -> w with v on level d: w's dependency flows to v and to their edge.
// Returns v's shares (dependency, suffixes) from this arc.
__device__ double2 backwardArc(const Sweep& s, std::uint32_t a, std::uint32_t v, std::int32_t d) {
  if (s.removed && s.removed[s.arcEdge[a]]) return {0, 0};
  const std::uint32_t w = s.arcTo[a];
  if (s.distance[w] != d + 1) return {0, 0};
  const double share = s.paths[v] / s.paths[w] * (1 + s.dependency[w]);
  s.edgeBetweenness[s.arcEdge[a]] += share;  // one arc of an edge per source goes deeper
  return {share, 1 + s.suffixes[w]};
}

__global__ void startKernel(Sweep s, std::uint32_t n, std::uint32_t source) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  s.distance[v] = v == source ? 0 : -1;
  s.paths[v] = v == source ? 1 : 0;
  s.dependency[v] = 0;
  s.suffixes[v] = 0;
}

__global__ void forwardNodes(Sweep s, std::uint32_t n, std::int32_t d, int* found) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || s.distance[v] != d) return;
  for (std::uint32_t a = s.offset[v]; a < s.offset[v + 1]; ++a) forwardArc(s, a, v, d, found);
}

__global__ void forwardArcs(Sweep s, std::size_t arcs, std::int32_t d, int* found) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a >= arcs) return;
  const std::uint32_t v = s.arcFrom[a];
  if (s.distance[v] == d) forwardArc(s, std::uint32_t(a), v, d, found);
}

__global__ void backwardNodes(Sweep s, std::uint32_t n, std::int32_t d) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || s.distance[v] != d) return;
  double2 sum = {0, 0};
  for (std::uint32_t a = s.offset[v]; a < s.offset[v + 1]; ++a) {
    const double2 share = backwardArc(s, a, v, d);
    sum.x += share.x;
    sum.y += share.y;
  }
  s.dependency[v] = sum.x;
  s.suffixes[v] = sum.y;
}

__global__ void backwardArcs(Sweep s, std::size_t arcs, std::int32_t d) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a >= arcs) return;
  const std::uint32_t v = s.arcFrom[a];
  if (s.distance[v] != d) return;
  const double2 share = backwardArc(s, std::uint32_t(a), v, d);
  if (share.y == 0) return;  // not an arc to the next level
  atomicAdd(&s.dependency[v], share.x);
  atomicAdd(&s.suffixes[v], share.y);
}

// The source's sweeps into the sums: betweenness and stress of every vertex but the source, and
// the distances from it (for its closeness).
__global__ void accumulateKernel(Sweep s, std::uint32_t n, std::uint32_t source,
                                 double* betweenness, double* stress,
                                 unsigned long long* distanceSum) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || s.distance[v] < 0) return;
  if (s.distance[v] > 0) atomicAdd(distanceSum, (unsigned long long)s.distance[v]);
  if (v == source) return;
  betweenness[v] += s.dependency[v];
  stress[v] += s.paths[v] * s.suffixes[v];
}

}  // namespace

CudaCentrality::CudaCentrality(const Graph& g, std::uint64_t permutationSeed)
    : vertices_(g.vertices),
      edges_(g.edges()),
      arcs_(g.arcs()),
      offset_(toDevice(g.offset)),
      arcFrom_(toDevice(g.arcFrom)),
      arcTo_(toDevice(g.arcTo)),
      arcEdge_(toDevice(g.arcEdge)),
      removed_(std::max<std::size_t>(edges_, 1)),
      distance_(std::max<std::uint32_t>(vertices_, 1)),
      paths_(std::max<std::uint32_t>(vertices_, 1)),
      dependency_(std::max<std::uint32_t>(vertices_, 1)),
      suffixes_(std::max<std::uint32_t>(vertices_, 1)),
      betweenness_(std::max<std::uint32_t>(vertices_, 1)),
      stress_(std::max<std::uint32_t>(vertices_, 1)),
      edgeBetweenness_(std::max<std::size_t>(edges_, 1)),
      distanceSum_(std::max<std::uint32_t>(vertices_, 1)),
      found_(1) {
  // The arcs in a random order, for the permuted mapping.
  std::vector<std::uint32_t> order(arcs_);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(permutationSeed));
  std::vector<std::uint32_t> from(arcs_), to(arcs_), edge(arcs_);
  for (std::size_t i = 0; i < arcs_; ++i) {
    from[i] = g.arcFrom[order[i]];
    to[i] = g.arcTo[order[i]];
    edge[i] = g.arcEdge[order[i]];
  }
  permutedFrom_ = toDevice(from);
  permutedTo_ = toDevice(to);
  permutedEdge_ = toDevice(edge);
}

Centrality CudaCentrality::run(const std::vector<std::uint32_t>& sourceList,
                               Parallelism parallelism, const std::vector<std::uint8_t>& removed,
                               bool extrapolate) {
  const std::uint32_t n = vertices_;
  std::vector<std::uint32_t> sources = sourceList;
  if (sources.empty()) {
    sources.resize(n);
    std::iota(sources.begin(), sources.end(), 0u);
  }
  if (!removed.empty())
    WS_CUDA_CHECK(cudaMemcpy(removed_.data(), removed.data(), edges_, cudaMemcpyHostToDevice));
  betweenness_.zero();
  stress_.zero();
  edgeBetweenness_.zero();
  distanceSum_.zero();
  const bool permuted = parallelism == Parallelism::PermutedEdge;
  const Sweep s = {offset_.data(),
                   permuted ? permutedFrom_.data() : arcFrom_.data(),
                   permuted ? permutedTo_.data() : arcTo_.data(),
                   permuted ? permutedEdge_.data() : arcEdge_.data(),
                   removed.empty() ? nullptr : removed_.data(),
                   distance_.data(),
                   paths_.data(),
                   dependency_.data(),
                   suffixes_.data(),
                   edgeBetweenness_.data()};
  const unsigned vertexBlocks = blocksFor(n, kBlock), arcBlocks = blocksFor(arcs_, kBlock);
  Centrality c;
  c.closeness.assign(n, 0);
  c.graph.assign(n, 0);
  for (const std::uint32_t source : sources) {
    startKernel<<<vertexBlocks, kBlock>>>(s, n, source);
    // Forward, a level a launch, until a level finds no one (the host reads a flag each level).
    std::int32_t depth = 0;
    for (int found = 1; found; ++depth) {
      WS_CUDA_CHECK(cudaMemsetAsync(found_.data(), 0, sizeof(int)));
      if (parallelism == Parallelism::Node)
        forwardNodes<<<vertexBlocks, kBlock>>>(s, n, depth, found_.data());
      else if (arcs_)
        forwardArcs<<<arcBlocks, kBlock>>>(s, arcs_, depth, found_.data());
      WS_CUDA_CHECK(cudaGetLastError());
      WS_CUDA_CHECK(cudaMemcpy(&found, found_.data(), sizeof(int), cudaMemcpyDeviceToHost));
    }
    // depth - 1 is the last level reached; backward from the one before it.
    for (std::int32_t d = depth - 2; d >= 0; --d) {
      if (parallelism == Parallelism::Node)
        backwardNodes<<<vertexBlocks, kBlock>>>(s, n, d);
      else if (arcs_)
        backwardArcs<<<arcBlocks, kBlock>>>(s, arcs_, d);
    }
    accumulateKernel<<<vertexBlocks, kBlock>>>(s, n, source, betweenness_.data(), stress_.data(),
                                               distanceSum_.data() + source);
    WS_CUDA_CHECK(cudaGetLastError());
    c.graph[source] = depth > 1 ? 1.0 / (depth - 1) : 0;
  }
  c.betweenness = toHost(betweenness_.data(), n);
  c.stress = toHost(stress_.data(), n);
  c.edgeBetweenness = toHost(edgeBetweenness_.data(), edges_);
  const std::vector<unsigned long long> sums = toHost(distanceSum_.data(), n);
  for (const std::uint32_t source : sources)
    c.closeness[source] = sums[source] ? 1.0 / double(sums[source]) : 0;
  c.scalePairSums(pairScale(n, sources.size(), extrapolate));
  return c;
}

}  // namespace ws::graph
