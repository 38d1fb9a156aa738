#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <numeric>

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

// States: 0 unknown, 1 outside, 2 shell. The shell first, then every unknown boundary cell.
__global__ void markShellKernel(const std::uint32_t* shell, std::size_t n, VoxelGrid grid,
                                std::uint8_t* state) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  state[cellOf(grid, shell[i])] = 2;
}

// One sweep: an unknown cell with an outside neighbour across a face (or on the grid's boundary)
// becomes outside. Cells only ever go from 0 to 1, so sweeps can run in any order and overlap.
__global__ void growOutsideKernel(VoxelGrid grid, std::uint8_t* state, unsigned* changed) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
            z = blockIdx.z;
  const int n = grid.side;
  if (x >= n || y >= n) return;
  const std::size_t c = grid.index(x, y, z);
  if (state[c] != 0) return;
  const bool reached = x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1 ||
                       state[c - 1] == 1 || state[c + 1] == 1 || state[c - n] == 1 ||
                       state[c + n] == 1 || state[c - std::size_t(n) * n] == 1 ||
                       state[c + std::size_t(n) * n] == 1;
  if (reached) {
    state[c] = 1;
    *changed = 1;
  }
}

__global__ void finishOutsideKernel(std::size_t cells, std::uint8_t* state) {
  const std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < cells) state[c] = state[c] == 1;
}

__global__ void classifyKernel(const std::uint32_t* keys, std::size_t n, const std::uint32_t* found,
                               const std::uint8_t* otherOutside, VoxelGrid grid, VoxelClass only,
                               VoxelClass inside, std::uint8_t* classes) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    classes[i] =
        classOf(found[i] != kNotFound, otherOutside[cellOf(grid, keys[i])] != 0, only, inside);
}

template <typename T>
DeviceBuffer<T> upload(const std::vector<T>& host) {
  DeviceBuffer<T> device(std::max<std::size_t>(host.size(), 1));
  WS_CUDA_CHECK(
      cudaMemcpy(device.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

template <typename T>
std::vector<T> download(const DeviceBuffer<T>& device, std::size_t n) {
  std::vector<T> host(n);
  WS_CUDA_CHECK(cudaMemcpy(host.data(), device.data(), n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace

std::size_t CudaVoxelizer::run(const Point* points, std::size_t n, const ModelPose& pose,
                               const VoxelGrid& grid, DeviceBuffer<std::uint32_t>& keys) {
  if (n == 0) return 0;
  if (raw_.size() < n) {
    requireDeviceMemory(double(n) * 3 * sizeof(std::uint32_t),
                        double(raw_.bytes() + sorted_.bytes() + keys.bytes()),
                        std::to_string(n) + " points' voxel keys");
    raw_.allocate(n);
    sorted_.allocate(n);
    count_.allocate(1);
  }
  if (keys.size() < n) keys.allocate(n);
  voxelKeysKernel<<<blocksFor(n, 256), 256>>>(points, n, pose, grid, raw_.data());
  WS_CUDA_CHECK(cudaGetLastError());
  // Bits 0 to 30: the keys' 30 and kOffGrid's, so that points off the grid sort last.
  constexpr int kEndBit = 31;
  std::size_t sortBytes = 0, uniqueBytes = 0;
  const int items = int(n);
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sortBytes, raw_.data(), sorted_.data(),
                                               items, 0, kEndBit));
  WS_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, uniqueBytes, sorted_.data(), keys.data(),
                                          count_.data(), items));
  if (scratch_.size() < std::max(sortBytes, uniqueBytes))
    scratch_.allocate(std::max(sortBytes, uniqueBytes));
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(scratch_.data(), sortBytes, raw_.data(),
                                               sorted_.data(), items, 0, kEndBit));
  WS_CUDA_CHECK(cub::DeviceSelect::Unique(scratch_.data(), uniqueBytes, sorted_.data(), keys.data(),
                                          count_.data(), items));
  int unique = 0;
  WS_CUDA_CHECK(cudaMemcpy(&unique, count_.data(), sizeof unique, cudaMemcpyDeviceToHost));
  std::uint32_t last = 0;
  WS_CUDA_CHECK(cudaMemcpy(&last, keys.data() + unique - 1, sizeof last, cudaMemcpyDeviceToHost));
  return std::size_t(unique) - (last == kOffGrid ? 1 : 0);
}

std::size_t voxelizeCuda(const Point* points, std::size_t n, const VoxelGrid& grid,
                         DeviceBuffer<std::uint32_t>& keys) {
  CudaVoxelizer voxelizer;
  return voxelizer.run(points, n, ModelPose{}, grid, keys);
}

int outsideOfCuda(const std::uint32_t* shell, std::size_t n, const VoxelGrid& grid,
                  DeviceBuffer<std::uint8_t>& outside) {
  if (outside.size() != grid.cells()) outside.allocate(grid.cells());
  outside.zero();
  if (n) markShellKernel<<<blocksFor(n, 256), 256>>>(shell, n, grid, outside.data());
  DeviceBuffer<unsigned> changed(1);
  const dim3 block(32, 8), blocks(blocksFor(grid.side, 32), blocksFor(grid.side, 8), grid.side);
  int sweeps = 0;
  for (unsigned more = 1; more; ++sweeps) {
    changed.zero();
    growOutsideKernel<<<blocks, block>>>(grid, outside.data(), changed.data());
    WS_CUDA_CHECK(cudaGetLastError());
    WS_CUDA_CHECK(cudaMemcpy(&more, changed.data(), sizeof more, cudaMemcpyDeviceToHost));
  }
  finishOutsideKernel<<<blocksFor(grid.cells(), 256), 256>>>(grid.cells(), outside.data());
  WS_CUDA_CHECK(cudaGetLastError());
  return sweeps;
}

void classifyCuda(const std::uint32_t* keys, std::size_t n, const std::uint32_t* found,
                  const std::uint8_t* otherOutside, const VoxelGrid& grid, VoxelClass only,
                  VoxelClass inside, std::uint8_t* classes) {
  if (n == 0) return;
  classifyKernel<<<blocksFor(n, 256), 256>>>(keys, n, found, otherOutside, grid, only, inside,
                                             classes);
  WS_CUDA_CHECK(cudaGetLastError());
}

std::vector<std::uint32_t> voxelizeOnGpu(const std::vector<Point>& points, const VoxelGrid& grid) {
  const DeviceBuffer<Point> device = upload(points);
  DeviceBuffer<std::uint32_t> keys;
  const std::size_t n = voxelizeCuda(device.data(), points.size(), grid, keys);
  return download(keys, n);
}

std::vector<std::uint8_t> outsideOfOnGpu(const std::vector<std::uint32_t>& shell,
                                         const VoxelGrid& grid) {
  const DeviceBuffer<std::uint32_t> keys = upload(shell);
  DeviceBuffer<std::uint8_t> outside;
  outsideOfCuda(keys.data(), shell.size(), grid, outside);
  return download(outside, grid.cells());
}

Intersection intersectOnGpu(const std::vector<std::uint32_t>& a,
                            const std::vector<std::uint32_t>& b, const VoxelGrid& grid,
                            const CuckooParams& params, std::uint64_t seed) {
  struct Model {
    DeviceBuffer<std::uint32_t> keys, ids, found;
    DeviceBuffer<std::uint8_t> outside, classes;
    CudaCuckooTable table;
    std::size_t n;
  };
  auto load = [&](const std::vector<std::uint32_t>& keys, std::uint64_t tableSeed) {
    auto m = std::make_unique<Model>();
    m->n = keys.size();
    m->keys = upload(keys);
    std::vector<std::uint32_t> ids(keys.size());
    std::iota(ids.begin(), ids.end(), 0u);
    m->ids = upload(ids);
    m->found.allocate(std::max<std::size_t>(m->n, 1));
    m->classes.allocate(std::max<std::size_t>(m->n, 1));
    m->table.build(m->keys.data(), m->ids.data(), m->n, params, tableSeed, true);
    outsideOfCuda(m->keys.data(), m->n, grid, m->outside);
    return m;
  };
  const auto ma = load(a, seed), mb = load(b, seed + 1);
  auto classify = [&](Model& mine, Model& other, VoxelClass only, VoxelClass inside) {
    if (!mine.n) return std::vector<std::uint8_t>();
    other.table.query(mine.keys.data(), mine.n, mine.found.data());
    classifyCuda(mine.keys.data(), mine.n, mine.found.data(), other.outside.data(), grid, only,
                 inside, mine.classes.data());
    return download(mine.classes, mine.n);
  };
  Intersection r;
  r.classOfA = classify(*ma, *mb, kOnlyA, kAInsideB);
  r.classOfB = classify(*mb, *ma, kOnlyB, kBInsideA);
  r.contact = std::count(r.classOfA.begin(), r.classOfA.end(), kContact);
  r.aInsideB = std::count(r.classOfA.begin(), r.classOfA.end(), kAInsideB);
  r.bInsideA = std::count(r.classOfB.begin(), r.classOfB.end(), kBInsideA);
  return r;
}

}  // namespace ws::voxhash
