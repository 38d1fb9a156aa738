#pragma once
// The intersection pipeline on the GPU, step for step the CPU one (intersect.h): voxelization
// with a CUB radix sort and unique, the cuckoo tables and lookups of cuckoo_cuda, and a flood
// fill that grows the outside cell by cell until it stops changing. Inputs and outputs stay in
// device memory; the host versions of the functions are for tests.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/voxhash/intersect.h"

namespace ws::voxhash {

// The sorted unique keys of the cells holding `points` (device arrays of n); returns their count.
std::size_t voxelizeCuda(const Point* points, std::size_t n, const VoxelGrid& grid,
                         DeviceBuffer<std::uint32_t>& keys);

// outside (device, grid.cells() bytes) becomes 1 where a cell is reached from the grid's
// boundary through cells not in `shell` (device, sorted or not) across faces, else 0. Returns
// the sweeps it took.
int outsideOfCuda(const std::uint32_t* shell, std::size_t n, const VoxelGrid& grid,
                  DeviceBuffer<std::uint8_t>& outside);

// The CPU functions' results, computed on the GPU (host vectors in and out).
std::vector<std::uint32_t> voxelizeOnGpu(const std::vector<Point>& points, const VoxelGrid& grid);
std::vector<std::uint8_t> outsideOfOnGpu(const std::vector<std::uint32_t>& shell,
                                         const VoxelGrid& grid);
Intersection intersectOnGpu(const std::vector<std::uint32_t>& a,
                            const std::vector<std::uint32_t>& b, const VoxelGrid& grid,
                            const CuckooParams& params, std::uint64_t seed);

}  // namespace ws::voxhash
