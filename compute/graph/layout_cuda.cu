#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "compute/core/cuda_check.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/graph/layout_cuda.h"
#include "compute/graph/layout_force.h"

namespace ws::graph {

namespace {

constexpr unsigned kBlock = 256;

struct PointBox {
  __device__ float4 operator()(const float2& p) const { return {p.x, p.y, p.x, p.y}; }
};
struct BoxUnion {
  __device__ float4 operator()(const float4& a, const float4& b) const {
    return {fminf(a.x, b.x), fminf(a.y, b.y), fmaxf(a.z, b.z), fmaxf(a.w, b.w)};
  }
};

__global__ void cellKernel(const float* positions, LayoutGrid grid, std::uint32_t n,
                           std::uint32_t* cell, std::uint32_t* id, std::uint32_t* count) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  cell[v] = grid.cellOf(positions[2 * v], positions[2 * v + 1]);
  id[v] = v;
  atomicAdd(&count[cell[v]], 1u);
}

__global__ void forceKernel(LayoutInputs in, std::uint32_t n, float* force) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) layoutForce(in, v, &force[2 * v], &force[2 * v + 1]);
}

__global__ void moveKernel(float* positions, const float* force, std::uint32_t n,
                           LayoutParams params) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) layoutMove(positions, v, force[2 * v], force[2 * v + 1], params);
}

__global__ void nodesKernel(const float* positions, const float* style, std::uint32_t n,
                            float4* nodes) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) nodes[v] = {positions[2 * v], positions[2 * v + 1], style[2 * v], style[2 * v + 1]};
}

int bitsFor(std::uint32_t values) {  // bits that hold 0 .. values - 1
  int bits = 1;
  while (bits < 32 && (std::uint64_t(1) << bits) < values) ++bits;
  return bits;
}

}  // namespace

CudaLayout::CudaLayout(const DeviceGraph& graph, const std::vector<float>& positions)
    : graph_(graph),
      positions_(toDevice(positions)),
      force_(positions_.size()),
      box_(4),
      cellOfVertex_(std::max<std::uint32_t>(graph.vertices, 1)),
      sortedCells_(cellOfVertex_.size()),
      vertexIds_(cellOfVertex_.size()),
      cellVertices_(cellOfVertex_.size()),
      removed_(std::max<std::size_t>(graph.edges, 1)) {}

void CudaLayout::setRemoved(const std::vector<std::uint8_t>& removed) {
  anyRemoved_ = !removed.empty();
  if (anyRemoved_)
    WS_CUDA_CHECK(
        cudaMemcpy(removed_.data(), removed.data(), graph_.edges, cudaMemcpyHostToDevice));
}

std::vector<float> CudaLayout::positionsOnHost() const {
  return toHost(positions_.data(), 2 * std::size_t(graph_.vertices));
}

void CudaLayout::setPositions(const std::vector<float>& positions) {
  WS_CUDA_CHECK(cudaMemcpy(positions_.data(), positions.data(), positions.size() * sizeof(float),
                           cudaMemcpyHostToDevice));
}

void CudaLayout::place(std::uint32_t v, float x, float y) {
  const float p[2] = {x, y};
  WS_CUDA_CHECK(
      cudaMemcpy(positions_.data() + 2 * std::size_t(v), p, sizeof p, cudaMemcpyHostToDevice));
}

void CudaLayout::writeNodes(float* nodes, const float* style) const {
  const std::uint32_t n = graph_.vertices;
  if (n == 0) return;
  recordedLaunch("nodesKernel", nodesKernel, blocksFor(n, kBlock), kBlock)(
      positions_.data(), style, n, reinterpret_cast<float4*>(nodes));
  WS_CUDA_CHECK(cudaGetLastError());
}

void CudaLayout::step(const LayoutParams& params) {
  const std::uint32_t n = graph_.vertices;
  if (n == 0) return;
  // The box (read back: the grid's size decides the allocations), then the grid.
  const auto points = reinterpret_cast<const float2*>(positions_.data());
  const auto boxes = thrust::make_transform_iterator(points, PointBox{});
  const float4 empty = {INFINITY, INFINITY, -INFINITY, -INFINITY};
  const auto box = reinterpret_cast<float4*>(box_.data());
  std::size_t reduceBytes = 0, sortBytes = 0, scanBytes = 0;
  WS_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, reduceBytes, boxes, box, n, BoxUnion{}, empty));
  float hostBox[4];
  const std::uint32_t cellsMax = 4096u * 4096u;
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sortBytes, cellOfVertex_.data(),
                                                sortedCells_.data(), vertexIds_.data(),
                                                cellVertices_.data(), n));
  WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scanBytes, cellCount_.data(),
                                              cellStart_.data(), cellsMax + 1));
  const std::size_t scratchBytes = std::max({reduceBytes, sortBytes, scanBytes});
  if (scratch_.size() < scratchBytes) scratch_.allocate(scratchBytes);
  WS_CUDA_CHECK(
      cub::DeviceReduce::Reduce(scratch_.data(), reduceBytes, boxes, box, n, BoxUnion{}, empty));
  WS_CUDA_CHECK(cudaMemcpy(hostBox, box_.data(), sizeof hostBox, cudaMemcpyDeviceToHost));
  const LayoutGrid grid =
      LayoutGrid::around(hostBox[0], hostBox[1], hostBox[2], hostBox[3], params.spacing);
  const std::uint32_t cells = grid.cells();
  if (cellStart_.size() < cells + 1) {
    cellStart_.allocate(cells + 1);
    cellCount_.allocate(cells + 1);
  }
  WS_CUDA_CHECK(cudaMemset(cellCount_.data(), 0, (cells + 1) * sizeof(std::uint32_t)));
  const unsigned blocks = blocksFor(n, kBlock);
  recordedLaunch("cellKernel", cellKernel, blocks, kBlock)(
      positions_.data(), grid, n, cellOfVertex_.data(), vertexIds_.data(), cellCount_.data());
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch_.data(), sortBytes, cellOfVertex_.data(),
                                                sortedCells_.data(), vertexIds_.data(),
                                                cellVertices_.data(), n, 0, bitsFor(cells)));
  WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch_.data(), scanBytes, cellCount_.data(),
                                              cellStart_.data(), cells + 1));
  const LayoutInputs in = {positions_.data(),
                           grid,
                           cellStart_.data(),
                           cellVertices_.data(),
                           graph_.offset.data(),
                           graph_.arcTo.data(),
                           graph_.arcEdge.data(),
                           anyRemoved_ ? removed_.data() : nullptr,
                           params};
  recordedLaunch("forceKernel", forceKernel, blocks, kBlock)(in, n, force_.data());
  recordedLaunch("moveKernel", moveKernel, blocks, kBlock)(positions_.data(), force_.data(), n,
                                                           params);
  WS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace ws::graph
