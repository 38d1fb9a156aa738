#include <algorithm>

#include "compute/core/cuda_check.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/graph/components_cuda.h"

namespace ws::graph {

namespace {

constexpr unsigned kBlock = 256;

__device__ std::uint32_t rootOf(const std::uint32_t* parent, std::uint32_t v) {
  for (std::uint32_t p = parent[v]; p != v; p = parent[v]) v = p;
  return v;
}

__global__ void startKernel(std::uint32_t* parent, std::uint32_t n) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) parent[v] = v;
}

// Each edge present joins its ends' trees: the larger root goes under the smaller. Two edges may
// hook one root at once; atomicMin keeps the smaller, and the other edge hooks next round.
__global__ void hookKernel(std::uint32_t* parent, const std::uint32_t* ends,
                           const std::uint8_t* removed, std::size_t edges, int* changed) {
  const std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= edges || (removed && removed[e])) return;
  const std::uint32_t a = rootOf(parent, ends[2 * e]), b = rootOf(parent, ends[2 * e + 1]);
  if (a == b) return;
  atomicMin(&parent[max(a, b)], min(a, b));
  if (!*changed) *changed = 1;  // read first: many stores to one address queue up
}

__global__ void jumpKernel(std::uint32_t* parent, std::uint32_t n) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) parent[v] = rootOf(parent, v);
}

}  // namespace

CudaComponents::CudaComponents(const DeviceGraph& graph)
    : graph_(graph),
      parent_(std::max<std::uint32_t>(graph.vertices, 1)),
      removed_(std::max<std::size_t>(graph.edges, 1)),
      changed_(1) {}

std::vector<std::uint32_t> CudaComponents::label(const std::vector<std::uint8_t>& removed,
                                                 std::uint32_t* count) {
  const std::uint32_t n = graph_.vertices;
  const std::size_t edges = graph_.edges;
  if (!removed.empty())
    WS_CUDA_CHECK(cudaMemcpy(removed_.data(), removed.data(), edges, cudaMemcpyHostToDevice));
  recordedLaunch("startKernel", startKernel, blocksFor(n, kBlock), kBlock)(parent_.data(), n);
  rounds_ = 0;
  for (int changed = edges > 0; changed; ++rounds_) {
    changed_.zero();
    recordedLaunch("hookKernel", hookKernel, blocksFor(edges, kBlock), kBlock)(
        parent_.data(), graph_.ends.data(), removed.empty() ? nullptr : removed_.data(), edges,
        changed_.data());
    recordedLaunch("jumpKernel", jumpKernel, blocksFor(n, kBlock), kBlock)(parent_.data(), n);
    WS_CUDA_CHECK(cudaGetLastError());
    WS_CUDA_CHECK(cudaMemcpy(&changed, changed_.data(), sizeof(int), cudaMemcpyDeviceToHost));
  }
  // Roots are their components' smallest vertices: number them as they first appear.
  std::vector<std::uint32_t> label = toHost(parent_.data(), n);
  std::uint32_t next = 0;
  for (std::uint32_t v = 0; v < n; ++v) label[v] = label[v] == v ? next++ : label[label[v]];
  if (count) *count = next;
  return label;
}

}  // namespace ws::graph
