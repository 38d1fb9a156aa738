// Issue 34, prepared 2026-12-03, not yet run: what a dense level's forward scan costs with a
// vertex's records from the batch's sources side by side ([vertex][source], a warp's lanes the
// 32 sources of one arc) against the module's layout ([source][vertex], a grid row a source).
// Stand-alone: a Barabasi-Albert graph (10^6 vertices, 10 edges each new vertex, the bench's
// graph model), breadth-first distances from 32 sources on the host, then each level's scan timed
// in both layouts (the far vertex's paths added by an atomic where it is on the next level, as
// forwardArcs does; distances preset, so every repeat does the same work). Build and run:
//   nvcc -O3 -arch=sm_90 -std=c++17 layout.cu -o layout && ./layout
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));           \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int kSources = 32;
struct alignas(32) Record {
  double paths, dependency, suffixes;
  std::int32_t distance;
};

// [source][vertex]: grid row = source, a thread an arc (the module's forwardArcs).
__global__ void scanBySource(const std::uint32_t* from, const std::uint32_t* to, std::size_t arcs,
                             const std::int32_t* distance, Record* record, std::uint32_t n,
                             std::int32_t d) {
  const std::size_t a = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (a >= arcs) return;
  const std::size_t b = std::size_t(blockIdx.y) * n;
  const std::uint32_t v = from[a];
  if (distance[b + v] != d) return;
  Record& far = record[b + to[a]];
  if (far.distance == d + 1) atomicAdd(&far.paths, record[b + v].paths);
}

// [vertex][source]: a warp an arc, its lanes the sources; the arc's ends read once a warp.
__global__ void scanSideBySide(const std::uint32_t* from, const std::uint32_t* to,
                               std::size_t arcs, const std::int32_t* distance, Record* record,
                               std::int32_t d) {
  const std::size_t a = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned s = threadIdx.x % 32;
  if (a >= arcs) return;
  const std::uint32_t v = from[a];
  if (distance[std::size_t(v) * kSources + s] != d) return;
  Record& far = record[std::size_t(to[a]) * kSources + s];
  if (far.distance == d + 1) atomicAdd(&far.paths, record[std::size_t(v) * kSources + s].paths);
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::uint32_t n = 1000000, m = 10;
  std::mt19937_64 rng(1);
  std::vector<std::uint32_t> ends;  // every edge's two ends: picking one is by degree
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t v = 0; v <= m; ++v)
    for (std::uint32_t u = 0; u < v; ++u) edges.push_back({u, v}), ends.push_back(u), ends.push_back(v);
  for (std::uint32_t v = m + 1; v < n; ++v) {
    std::vector<std::uint32_t> picked;
    while (picked.size() < m) {
      const std::uint32_t u = ends[rng() % ends.size()];
      if (std::find(picked.begin(), picked.end(), u) == picked.end()) picked.push_back(u);
    }
    for (const std::uint32_t u : picked) edges.push_back({u, v}), ends.push_back(u), ends.push_back(v);
  }
  std::vector<std::uint32_t> offset(n + 1, 0);
  for (auto [u, v] : edges) ++offset[u + 1], ++offset[v + 1];
  for (std::uint32_t v = 0; v < n; ++v) offset[v + 1] += offset[v];
  const std::size_t arcs = offset[n];
  std::vector<std::uint32_t> from(arcs), to(arcs), fill(offset.begin(), offset.end() - 1);
  for (auto [u, v] : edges) {
    from[fill[u]] = u, to[fill[u]++] = v;
    from[fill[v]] = v, to[fill[v]++] = u;
  }
  std::printf("graph: %u vertices, %zu edges, %zu arcs\n", n, edges.size(), arcs);
  // Distances from 32 random sources.
  std::vector<std::int32_t> bySource(std::size_t(kSources) * n, -1);
  std::int32_t deepest = 0;
  std::vector<std::uint32_t> queue;
  for (int s = 0; s < kSources; ++s) {
    std::int32_t* dist = bySource.data() + std::size_t(s) * n;
    const std::uint32_t source = std::uint32_t(rng() % n);
    queue.assign(1, source);
    dist[source] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t v = queue[head];
      for (std::uint32_t a = offset[v]; a < offset[v + 1]; ++a)
        if (dist[to[a]] < 0) dist[to[a]] = dist[v] + 1, queue.push_back(to[a]), deepest = std::max(deepest, dist[v] + 1);
    }
  }
  std::vector<Record> recordBySource(bySource.size()), recordSideBySide(bySource.size());
  std::vector<std::int32_t> sideBySide(bySource.size());
  for (int s = 0; s < kSources; ++s)
    for (std::uint32_t v = 0; v < n; ++v) {
      const std::int32_t d = bySource[std::size_t(s) * n + v];
      recordBySource[std::size_t(s) * n + v] = {1, 0, 0, d};
      recordSideBySide[std::size_t(v) * kSources + s] = {1, 0, 0, d};
      sideBySide[std::size_t(v) * kSources + s] = d;
    }
  std::uint32_t *dFrom, *dTo;
  std::int32_t *dDistA, *dDistB;
  Record *dRecA, *dRecB;
  CHECK(cudaMalloc(&dFrom, arcs * 4));
  CHECK(cudaMalloc(&dTo, arcs * 4));
  CHECK(cudaMalloc(&dDistA, bySource.size() * 4));
  CHECK(cudaMalloc(&dDistB, bySource.size() * 4));
  CHECK(cudaMalloc(&dRecA, bySource.size() * sizeof(Record)));
  CHECK(cudaMalloc(&dRecB, bySource.size() * sizeof(Record)));
  CHECK(cudaMemcpy(dFrom, from.data(), arcs * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dTo, to.data(), arcs * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDistA, bySource.data(), bySource.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDistB, sideBySide.data(), bySource.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dRecA, recordBySource.data(), bySource.size() * sizeof(Record), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dRecB, recordSideBySide.data(), bySource.size() * sizeof(Record), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const auto timed = [&](auto launch) {
    std::vector<float> ms(15);
    launch();
    for (float& t : ms) {
      CHECK(cudaEventRecord(start));
      launch();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaEventElapsedTime(&t, start, stop));
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  std::printf("level  on it (all sources)  by source ms  side by side ms\n");
  for (std::int32_t d = 0; d < deepest; ++d) {
    const auto onLevel = std::count(bySource.begin(), bySource.end(), d);
    const float a = timed([&] {
      scanBySource<<<dim3(unsigned((arcs + 255) / 256), kSources), 256>>>(dFrom, dTo, arcs, dDistA, dRecA, n, d);
    });
    const float b = timed([&] {
      scanSideBySide<<<unsigned((arcs * 32 + 255) / 256), 256>>>(dFrom, dTo, arcs, dDistB, dRecB, d);
    });
    CHECK(cudaGetLastError());
    std::printf("%5d  %19ld  %12.3f  %15.3f\n", d, long(onLevel), a, b);
  }
  // The sums agree (each repeat added the same amounts in both layouts).
  CHECK(cudaMemcpy(recordBySource.data(), dRecA, bySource.size() * sizeof(Record), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(recordSideBySide.data(), dRecB, bySource.size() * sizeof(Record), cudaMemcpyDeviceToHost));
  std::size_t differ = 0;
  for (int s = 0; s < kSources; ++s)
    for (std::uint32_t v = 0; v < n; ++v)
      differ += recordBySource[std::size_t(s) * n + v].paths != recordSideBySide[std::size_t(v) * kSources + s].paths;
  std::printf("paths that differ between the layouts: %zu of %zu\n", differ, bySource.size());
  return 0;
}
