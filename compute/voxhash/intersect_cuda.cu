#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <numeric>

#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/voxhash/cuckoo_cuda.h"
#include "compute/voxhash/intersect_cuda.h"

namespace ws::voxhash {

namespace {

__global__ void voxelKeysKernel(const Point* points, std::size_t n, ModelPose pose, VoxelGrid grid,
                                std::uint32_t* keys) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Point p = animate(points[i], pose);
  std::uint32_t key;
  keys[i] = voxelOf(grid, p.x, p.y, p.z, key) ? key : kOffGrid;
}

const VoxelSummary kNoVoxels{};

struct BoxOfKey {
  __device__ VoxelBox operator()(std::uint32_t key) const { return VoxelBox::of(key); }
};
struct BoxUnion {
  __device__ VoxelBox operator()(const VoxelBox& a, const VoxelBox& b) const { return a | b; }
};

__global__ void classifyKernel(const std::uint32_t* keys, std::size_t n, const std::uint32_t* found,
                               OutsideBits otherOutside, VoxelClass only, VoxelClass inside,
                               std::uint8_t* classes) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    classes[i] = classOf(found[i] != kNotFound, otherOutside.outside(keys[i]), only, inside);
}

}  // namespace

void CudaVoxelizer::enqueue(const Point* points, std::size_t n, const ModelPose& pose,
                            const VoxelGrid& grid, DeviceBuffer<std::uint32_t>& keys,
                            VoxelSummary* summary) {
  if (n == 0) {
    WS_CUDA_CHECK(cudaMemcpyAsync(summary, &kNoVoxels, sizeof kNoVoxels, cudaMemcpyHostToDevice));
    return;
  }
  if (raw_.size() < n) {
    requireDeviceMemory(double(n) * 3 * sizeof(std::uint32_t),
                        double(raw_.bytes() + sorted_.bytes() + keys.bytes()),
                        std::to_string(n) + " points' voxel keys");
    raw_.allocate(n);
    sorted_.allocate(n);
  }
  if (keys.size() < n) keys.allocate(n);
  recordedLaunch("voxelKeysKernel", voxelKeysKernel, blocksFor(n, 256), 256)(points, n, pose, grid,
                                                                             raw_.data());
  WS_CUDA_CHECK(cudaGetLastError());
  // Bits 0 to 30: the keys' 30 and kOffGrid's, so that points off the grid sort last.
  constexpr int kEndBit = 31;
  const auto boxes = thrust::make_transform_iterator(raw_.data(), BoxOfKey{});
  std::size_t sortBytes = 0, uniqueBytes = 0, boxBytes = 0;
  const int items = int(n);
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sortBytes, raw_.data(), sorted_.data(),
                                               items, 0, kEndBit));
  WS_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, uniqueBytes, sorted_.data(), keys.data(),
                                          &summary->unique, items));
  WS_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, boxBytes, boxes, &summary->box, items,
                                          BoxUnion{}, VoxelBox{}));
  const std::size_t scratch = std::max({sortBytes, uniqueBytes, boxBytes});
  if (scratch_.size() < scratch) scratch_.allocate(scratch);
  WS_CUDA_CHECK(cub::DeviceReduce::Reduce(scratch_.data(), boxBytes, boxes, &summary->box, items,
                                          BoxUnion{}, VoxelBox{}));
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(scratch_.data(), sortBytes, raw_.data(),
                                               sorted_.data(), items, 0, kEndBit));
  WS_CUDA_CHECK(cub::DeviceSelect::Unique(scratch_.data(), uniqueBytes, sorted_.data(), keys.data(),
                                          &summary->unique, items));
}

void classifyCuda(const std::uint32_t* keys, std::size_t n, const std::uint32_t* found,
                  const OutsideBits& otherOutside, VoxelClass only, VoxelClass inside,
                  std::uint8_t* classes) {
  if (n == 0) return;
  recordedLaunch("classifyKernel", classifyKernel, blocksFor(n, 256), 256)(
      keys, n, found, otherOutside, only, inside, classes);
  WS_CUDA_CHECK(cudaGetLastError());
}

std::vector<std::uint32_t> voxelizeOnGpu(const std::vector<Point>& points, const VoxelGrid& grid) {
  const DeviceBuffer<Point> device = toDevice(points);
  DeviceBuffer<std::uint32_t> keys;
  DeviceBuffer<VoxelSummary> summary(1);
  CudaVoxelizer voxelizer;
  voxelizer.enqueue(device.data(), points.size(), ModelPose{}, grid, keys, summary.data());
  return toHost(keys.data(), toHost(summary.data(), 1)[0].voxels());
}

Intersection intersectOnGpu(const std::vector<std::uint32_t>& a,
                            const std::vector<std::uint32_t>& b, const VoxelGrid& grid,
                            const CuckooParams& params, std::uint64_t seed) {
  struct Model {
    DeviceBuffer<std::uint32_t> keys, ids, found;
    DeviceBuffer<std::uint8_t> classes;
    CudaCuckooTable table;
    std::size_t n = 0;
    VoxelBox box;
  };
  auto load = [&](const std::vector<std::uint32_t>& keys, std::uint64_t tableSeed) {
    auto m = std::make_unique<Model>();
    m->n = keys.size();
    m->keys = toDevice(keys);
    std::vector<std::uint32_t> ids(keys.size());
    std::iota(ids.begin(), ids.end(), 0u);
    m->ids = toDevice(ids);
    m->found.allocate(std::max<std::size_t>(m->n, 1));
    m->classes.allocate(std::max<std::size_t>(m->n, 1));
    m->table.build(m->keys.data(), m->ids.data(), m->n, params, tableSeed, true);
    m->box = boxOf(keys);
    return m;
  };
  const auto ma = load(a, seed), mb = load(b, seed + 1);
  CudaShellFill fill;
  const std::uint32_t* shells[] = {ma->keys.data(), mb->keys.data()};
  const std::size_t counts[] = {ma->n, mb->n};
  const VoxelBox boxes[] = {ma->box, mb->box};
  fill.run(2, shells, counts, boxes);
  auto classify = [&](Model& mine, Model& other, const OutsideBits& otherOutside, VoxelClass only,
                      VoxelClass inside) {
    if (!mine.n) return std::vector<std::uint8_t>();
    other.table.query(mine.keys.data(), mine.n, mine.found.data());
    classifyCuda(mine.keys.data(), mine.n, mine.found.data(), otherOutside, only, inside,
                 mine.classes.data());
    return toHost(mine.classes.data(), mine.n);
  };
  Intersection r;
  r.classOfA = classify(*ma, *mb, fill.outside(1), kOnlyA, kAInsideB);
  r.classOfB = classify(*mb, *ma, fill.outside(0), kOnlyB, kBInsideA);
  r.contact = std::count(r.classOfA.begin(), r.classOfA.end(), kContact);
  r.aInsideB = std::count(r.classOfA.begin(), r.classOfA.end(), kAInsideB);
  r.bInsideA = std::count(r.classOfB.begin(), r.classOfB.end(), kBInsideA);
  return r;
}

}  // namespace ws::voxhash
