#include <algorithm>
#include <climits>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/functional>
#include <numeric>

#include "compute/core/cuda_check.h"
#include "compute/core/errors.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/graph/clustering.h"
#include "compute/graph/louvain_cuda.h"
#include "compute/graph/louvain_rule.h"

namespace ws::graph {

namespace {

constexpr unsigned kBlock = 256;
constexpr unsigned long long kInside = ~0ull;  // the key of an arc inside a community

// One level's graph: node i's arcs are offset[i] .. offset[i + 1], from[a] -> to[a] of weight[a];
// a node's inside weight counted twice, and its degree (arcs' weights plus that).
struct Level {
  std::uint32_t n = 0;
  std::size_t arcs = 0;
  DeviceBuffer<std::uint32_t> offset, from, to, weight;
  DeviceBuffer<long long> inside2, degree;
};

__global__ void unitWeights(std::uint32_t* weight, const std::uint32_t* offset, long long* degree,
                            std::size_t arcs, std::uint32_t n) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < arcs) weight[t] = 1;
  if (t < n) degree[t] = offset[t + 1] - offset[t];
}

__global__ void totalsKernel(const std::uint32_t* community, const long long* degree,
                             std::uint32_t n, long long* total, std::uint32_t* size) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(reinterpret_cast<unsigned long long*>(&total[community[i]]),
            (unsigned long long)degree[i]);
  if (size) atomicAdd(&size[community[i]], 1u);
}

__global__ void keyKernel(const std::uint32_t* to, const std::uint32_t* community, std::size_t arcs,
                          std::uint32_t* key) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a < arcs) key[a] = community[to[a]];
}

__global__ void clearChoices(std::uint32_t n, long long* stayLinks, long long* bestGain,
                             std::uint32_t* bestCommunity) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  stayLinks[i] = 0;
  bestGain[i] = LLONG_MIN;
  bestCommunity[i] = UINT_MAX;
}

// What a sweep reads: the level, the communities before it, their totals and sizes, and each
// node's arcs sorted by the community of their far end.
struct SweepInputs {
  const std::uint32_t *offset, *from, *sortedKey, *sortedWeight, *community, *size;
  const long long *degree, *total;
  long long m2;
  std::size_t arcs;
};

// Arc a when it starts a run of equal communities in its node's sorted row: the run's community
// and the links into it, summed; false otherwise.
__device__ bool runAt(const SweepInputs& in, std::size_t a, std::uint32_t* i, std::uint32_t* c,
                      long long* links) {
  *i = in.from[a];
  *c = in.sortedKey[a];
  if (a > in.offset[*i] && in.sortedKey[a - 1] == *c) return false;
  long long sum = 0;
  for (std::size_t b = a; b < in.offset[*i + 1] && in.sortedKey[b] == *c; ++b)
    sum += in.sortedWeight[b];
  *links = sum;
  return true;
}

__global__ void bestGainKernel(SweepInputs in, long long* stayLinks, long long* bestGain) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint32_t i, c;
  long long links;
  if (a >= in.arcs || !runAt(in, a, &i, &c, &links)) return;
  if (c == in.community[i])
    stayLinks[i] = links;
  else
    atomicMax(&bestGain[i], joinGain(links, in.total[c], in.degree[i], in.m2));
}

__global__ void bestCommunityKernel(SweepInputs in, const long long* bestGain,
                                    std::uint32_t* bestCommunity) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint32_t i, c;
  long long links;
  if (a >= in.arcs || !runAt(in, a, &i, &c, &links) || c == in.community[i]) return;
  if (joinGain(links, in.total[c], in.degree[i], in.m2) == bestGain[i])
    atomicMin(&bestCommunity[i], c);
}

__global__ void chooseKernel(SweepInputs in, std::uint32_t n, const long long* stayLinks,
                             const long long* bestGain, const std::uint32_t* bestCommunity,
                             std::uint32_t* next, unsigned long long* moved) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t own = in.community[i], best = bestCommunity[i];
  const bool anyOther = best != UINT_MAX;
  const long long stay = joinGain(stayLinks[i], in.total[own] - in.degree[i], in.degree[i], in.m2);
  next[i] = chooseCommunity(own, stay, anyOther, best, bestGain[i], in.size[own],
                            anyOther ? in.size[best] : 0);
  // One atomic per warp, not per node moved: they all add to one counter.
  const unsigned active = __activemask(), movers = __ballot_sync(active, next[i] != own);
  if (threadIdx.x % 32 == unsigned(__ffs(active) - 1) && movers)
    atomicAdd(moved, (unsigned long long)__popc(movers));
}

// Twice the weight inside each community: its nodes' own, and its arcs that stay inside.
__global__ void insideKernel(const std::uint32_t* from, const std::uint32_t* to,
                             const std::uint32_t* weight, const std::uint32_t* community,
                             std::size_t arcs, long long* inside2) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a < arcs && community[from[a]] == community[to[a]])
    atomicAdd(reinterpret_cast<unsigned long long*>(&inside2[community[from[a]]]),
              (unsigned long long)weight[a]);
}

__global__ void nodeInsideKernel(const long long* nodeInside2, const std::uint32_t* community,
                                 std::uint32_t n, long long* inside2) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(reinterpret_cast<unsigned long long*>(&inside2[community[i]]),
              (unsigned long long)nodeInside2[i]);
}

__global__ void termKernel(const long long* inside2, const long long* total, std::uint32_t n,
                           long long m2, long long* term) {
  const std::uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < n) term[c] = scaledModularityTerm(inside2[c], total[c], m2);
}

__global__ void markKernel(const std::uint32_t* community, std::uint32_t n, std::uint32_t* used) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) used[community[i]] = 1;
}

__global__ void relabelKernel(std::uint32_t* community, const std::uint32_t* number,
                              std::uint32_t n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) community[i] = number[community[i]];
}

__global__ void composeKernel(std::uint32_t* vertexCommunity, const std::uint32_t* community,
                              std::uint32_t vertices) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < vertices) vertexCommunity[v] = community[vertexCommunity[v]];
}

__global__ void pairKernel(const std::uint32_t* from, const std::uint32_t* to,
                           const std::uint32_t* community, std::size_t arcs,
                           unsigned long long* key) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a >= arcs) return;
  const std::uint32_t ci = community[from[a]], cj = community[to[a]];
  key[a] = ci == cj ? kInside : (unsigned long long)ci << 32 | cj;
}

__global__ void splitKernel(const unsigned long long* key, std::size_t arcs, std::uint32_t* from,
                            std::uint32_t* to, std::uint32_t* count) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a >= arcs) return;
  from[a] = std::uint32_t(key[a] >> 32);
  to[a] = std::uint32_t(key[a]);
  atomicAdd(&count[from[a]], 1u);
}

// Grows `scratch` to `bytes` and returns it.
void* scratchOf(DeviceBuffer<std::uint8_t>& scratch, std::size_t bytes) {
  if (scratch.size() < bytes) scratch.allocate(bytes);
  return scratch.data();
}

unsigned blocks(std::size_t items) {
  return std::max(1u, blocksFor(items, kBlock));
}

class Run {
 public:
  explicit Run(long long m2) : m2_(m2) {}

  // Modularity of `community` on `w`, times (2m)^2.
  long long modularity(const Level& w, const std::uint32_t* community) {
    inside_.zero();
    total_.zero();
    recordedLaunch("nodeInsideKernel", nodeInsideKernel, blocks(w.n), kBlock)(
        w.inside2.data(), community, w.n, inside_.data());
    recordedLaunch("totalsKernel", totalsKernel, blocks(w.n), kBlock)(community, w.degree.data(),
                                                                      w.n, total_.data(), nullptr);
    if (w.arcs)
      recordedLaunch("insideKernel", insideKernel, blocks(w.arcs), kBlock)(
          w.from.data(), w.to.data(), w.weight.data(), community, w.arcs, inside_.data());
    recordedLaunch("termKernel", termKernel, blocks(w.n), kBlock)(inside_.data(), total_.data(),
                                                                  w.n, m2_, term_.data());
    std::size_t bytes = 0;
    WS_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, term_.data(), sum_.data(), w.n));
    WS_CUDA_CHECK(
        cub::DeviceReduce::Sum(scratchOf(scratch_, bytes), bytes, term_.data(), sum_.data(), w.n));
    long long q;
    WS_CUDA_CHECK(cudaMemcpy(&q, sum_.data(), sizeof q, cudaMemcpyDeviceToHost));
    return q;
  }

  // One sweep of every node of w from `community` into `next`; returns how many moved.
  unsigned long long sweep(const Level& w, const std::uint32_t* community, std::uint32_t* next) {
    total_.zero();
    WS_CUDA_CHECK(cudaMemset(size_.data(), 0, w.n * sizeof(std::uint32_t)));
    recordedLaunch("totalsKernel", totalsKernel, blocks(w.n), kBlock)(
        community, w.degree.data(), w.n, total_.data(), size_.data());
    if (w.arcs) {
      recordedLaunch("keyKernel", keyKernel, blocks(w.arcs), kBlock)(w.to.data(), community, w.arcs,
                                                                     key_.data());
      std::size_t bytes = 0;
      WS_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
          nullptr, bytes, key_.data(), sortedKey_.data(), w.weight.data(), sortedWeight_.data(),
          w.arcs, w.n, w.offset.data(), w.offset.data() + 1));
      WS_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
          scratchOf(scratch_, bytes), bytes, key_.data(), sortedKey_.data(), w.weight.data(),
          sortedWeight_.data(), w.arcs, w.n, w.offset.data(), w.offset.data() + 1));
    }
    recordedLaunch("clearChoices", clearChoices, blocks(w.n), kBlock)(
        w.n, stayLinks_.data(), bestGain_.data(), bestCommunity_.data());
    const SweepInputs in = {w.offset.data(),
                            w.from.data(),
                            sortedKey_.data(),
                            sortedWeight_.data(),
                            community,
                            size_.data(),
                            w.degree.data(),
                            total_.data(),
                            m2_,
                            w.arcs};
    if (w.arcs) {
      recordedLaunch("bestGainKernel", bestGainKernel, blocks(w.arcs), kBlock)(
          in, stayLinks_.data(), bestGain_.data());
      recordedLaunch("bestCommunityKernel", bestCommunityKernel, blocks(w.arcs), kBlock)(
          in, bestGain_.data(), bestCommunity_.data());
    }
    moved_.zero();
    recordedLaunch("chooseKernel", chooseKernel, blocks(w.n), kBlock)(
        in, w.n, stayLinks_.data(), bestGain_.data(), bestCommunity_.data(), next, moved_.data());
    WS_CUDA_CHECK(cudaGetLastError());
    unsigned long long moved;
    WS_CUDA_CHECK(cudaMemcpy(&moved, moved_.data(), sizeof moved, cudaMemcpyDeviceToHost));
    return moved;
  }

  // Per-node scratch for a level of n nodes and `arcs` arcs (kept from larger levels).
  void reserve(std::uint32_t n, std::size_t arcs) {
    if (size_.size() < n) {
      for (auto* b : {&inside_, &total_, &term_, &stayLinks_, &bestGain_}) b->allocate(n);
      size_.allocate(n);
      bestCommunity_.allocate(n);
    }
    if (key_.size() < arcs) {
      key_.allocate(arcs);
      sortedKey_.allocate(arcs);
      sortedWeight_.allocate(arcs);
    }
    if (!sum_) {
      sum_.allocate(1);
      moved_.allocate(1);
    }
  }

  DeviceBuffer<std::uint8_t> scratch_;

 private:
  long long m2_;
  DeviceBuffer<long long> inside_, total_, term_, stayLinks_, bestGain_, sum_;
  DeviceBuffer<std::uint32_t> size_, bestCommunity_, key_, sortedKey_, sortedWeight_;
  DeviceBuffer<unsigned long long> moved_;
};

// The graph of w's communities (k of them, numbered 0 .. k - 1 in `community`).
Level aggregate(const Level& w, const std::uint32_t* community, std::uint32_t k,
                DeviceBuffer<std::uint8_t>& scratch) {
  Level out;
  out.n = k;
  out.inside2 = DeviceBuffer<long long>(std::max(k, 1u));
  out.degree = DeviceBuffer<long long>(std::max(k, 1u));
  out.offset = DeviceBuffer<std::uint32_t>(k + 1);
  out.inside2.zero();
  out.degree.zero();
  out.offset.zero();
  recordedLaunch("nodeInsideKernel", nodeInsideKernel, blocks(w.n), kBlock)(
      w.inside2.data(), community, w.n, out.inside2.data());
  recordedLaunch("totalsKernel", totalsKernel, blocks(w.n), kBlock)(community, w.degree.data(), w.n,
                                                                    out.degree.data(), nullptr);
  if (w.arcs == 0) return out;
  recordedLaunch("insideKernel", insideKernel, blocks(w.arcs), kBlock)(
      w.from.data(), w.to.data(), w.weight.data(), community, w.arcs, out.inside2.data());
  DeviceBuffer<unsigned long long> key(w.arcs), sortedKey(w.arcs), uniqueKey(w.arcs);
  DeviceBuffer<std::uint32_t> sortedWeight(w.arcs), summed(w.arcs), runs(1);
  recordedLaunch("pairKernel", pairKernel, blocks(w.arcs), kBlock)(w.from.data(), w.to.data(),
                                                                   community, w.arcs, key.data());
  std::size_t sortBytes = 0, reduceBytes = 0;
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sortBytes, key.data(), sortedKey.data(),
                                                w.weight.data(), sortedWeight.data(), w.arcs));
  WS_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
      nullptr, reduceBytes, sortedKey.data(), uniqueKey.data(), sortedWeight.data(), summed.data(),
      runs.data(), cuda::std::plus<std::uint32_t>{}, w.arcs));
  void* temp = scratchOf(scratch, std::max(sortBytes, reduceBytes));
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, sortBytes, key.data(), sortedKey.data(),
                                                w.weight.data(), sortedWeight.data(), w.arcs));
  WS_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
      temp, reduceBytes, sortedKey.data(), uniqueKey.data(), sortedWeight.data(), summed.data(),
      runs.data(), cuda::std::plus<std::uint32_t>{}, w.arcs));
  std::uint32_t pairs;
  WS_CUDA_CHECK(cudaMemcpy(&pairs, runs.data(), sizeof pairs, cudaMemcpyDeviceToHost));
  unsigned long long last;
  WS_CUDA_CHECK(
      cudaMemcpy(&last, uniqueKey.data() + pairs - 1, sizeof last, cudaMemcpyDeviceToHost));
  if (last == kInside) --pairs;  // the inside arcs sort last, into one run
  out.arcs = pairs;
  out.from = DeviceBuffer<std::uint32_t>(std::max(pairs, 1u));
  out.to = DeviceBuffer<std::uint32_t>(std::max(pairs, 1u));
  out.weight = std::move(summed);
  DeviceBuffer<std::uint32_t> count(k + 1);
  count.zero();
  if (pairs)
    recordedLaunch("splitKernel", splitKernel, blocks(pairs), kBlock)(
        uniqueKey.data(), pairs, out.from.data(), out.to.data(), count.data());
  std::size_t scanBytes = 0;
  WS_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, scanBytes, count.data(), out.offset.data(), k + 1));
  WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratchOf(scratch, scanBytes), scanBytes,
                                              count.data(), out.offset.data(), k + 1));
  WS_CUDA_CHECK(cudaGetLastError());
  return out;
}

// Numbers the communities in use 0 .. k - 1 in order of their number; returns k.
std::uint32_t compact(std::uint32_t* community, std::uint32_t n,
                      DeviceBuffer<std::uint8_t>& scratch) {
  DeviceBuffer<std::uint32_t> used(n + 1), number(n + 1);
  used.zero();
  recordedLaunch("markKernel", markKernel, blocks(n), kBlock)(community, n, used.data());
  std::size_t bytes = 0;
  WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, used.data(), number.data(), n + 1));
  WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratchOf(scratch, bytes), bytes, used.data(),
                                              number.data(), n + 1));
  recordedLaunch("relabelKernel", relabelKernel, blocks(n), kBlock)(community, number.data(), n);
  std::uint32_t k;
  WS_CUDA_CHECK(cudaMemcpy(&k, number.data() + n, sizeof k, cudaMemcpyDeviceToHost));
  return k;
}

}  // namespace

LouvainResult CudaLouvain::run(const Graph& g) {
  if (2 * double(graph_.edges) >= 2147483648.0)
    throw InputError("the synchronous Louvain method takes fewer than 2^30 edges");
  const std::uint32_t vertices = graph_.vertices;
  LouvainResult result;
  Level w;
  w.n = vertices;
  w.arcs = graph_.arcs;
  w.offset = DeviceBuffer<std::uint32_t>(vertices + 1);
  w.from = DeviceBuffer<std::uint32_t>(std::max<std::size_t>(w.arcs, 1));
  w.to = DeviceBuffer<std::uint32_t>(std::max<std::size_t>(w.arcs, 1));
  w.weight = DeviceBuffer<std::uint32_t>(std::max<std::size_t>(w.arcs, 1));
  w.inside2 = DeviceBuffer<long long>(std::max(vertices, 1u));
  w.degree = DeviceBuffer<long long>(std::max(vertices, 1u));
  WS_CUDA_CHECK(cudaMemcpy(w.offset.data(), graph_.offset.data(), w.offset.bytes(),
                           cudaMemcpyDeviceToDevice));
  WS_CUDA_CHECK(
      cudaMemcpy(w.from.data(), graph_.arcFrom.data(), w.from.bytes(), cudaMemcpyDeviceToDevice));
  WS_CUDA_CHECK(
      cudaMemcpy(w.to.data(), graph_.arcTo.data(), w.to.bytes(), cudaMemcpyDeviceToDevice));
  w.inside2.zero();
  recordedLaunch("unitWeights", unitWeights, blocks(std::max<std::size_t>(w.arcs, vertices)),
                 kBlock)(w.weight.data(), w.offset.data(), w.degree.data(), w.arcs, vertices);
  std::vector<std::uint32_t> identity(vertices);
  std::iota(identity.begin(), identity.end(), 0u);
  DeviceBuffer<std::uint32_t> vertexCommunity = toDevice(identity);
  const long long m2 = 2 * (long long)graph_.edges;
  Run run(m2);
  for (int level = 0; level < kLouvainMaxLevels && m2 > 0; ++level) {
    run.reserve(w.n, w.arcs);
    // Every node starts alone.
    identity.resize(w.n);
    DeviceBuffer<std::uint32_t> community = toDevice(identity), next(std::max(w.n, 1u));
    long long q = run.modularity(w, community.data());
    const auto enough = (long long)(1e-6 * double(m2) * double(m2));
    bool improved = false;
    for (int s = 0; s < kLouvainMaxSweeps; ++s) {
      ++result.sweeps;
      if (run.sweep(w, community.data(), next.data()) == 0) break;
      const long long after = run.modularity(w, next.data());
      if (after <= q) break;  // the sweep is undone
      std::swap(community, next);
      improved = true;
      const bool small = after - q < enough;
      q = after;
      if (small) break;
    }
    if (!improved) break;
    const std::uint32_t k = compact(community.data(), w.n, run.scratch_);
    recordedLaunch("composeKernel", composeKernel, blocks(vertices), kBlock)(
        vertexCommunity.data(), community.data(), vertices);
    ++result.levels;
    if (k == w.n) break;
    w = aggregate(w, community.data(), k, run.scratch_);
  }
  result.community = toHost(vertexCommunity.data(), vertices);
  std::vector<std::uint32_t> number(vertices, UINT32_MAX);
  for (auto& c : result.community) {
    if (number[c] == UINT32_MAX) number[c] = result.communities++;
    c = number[c];
  }
  result.modularity = modularity(g, result.community);
  return result;
}

}  // namespace ws::graph
