#pragma once
// The intersection pipeline on the GPU, step for step the CPU one (intersect.h): voxelization
// with a CUB radix sort and unique, the cuckoo tables and lookups of cuckoo_cuda, and a flood
// fill that grows the outside cell by cell until it stops changing. Inputs and outputs stay in
// device memory; the host versions of the functions are for tests.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/voxhash/intersect.h"
#include "compute/voxhash/scene.h"

namespace ws::voxhash {

// Voxel keys sorted and deduplicated (CUB radix sort and unique), with the scratch memory kept
// from one frame to the next.
class CudaVoxelizer {
 public:
  // The sorted unique keys of the cells holding the `n` device points, moved by `pose`, into
  // `keys` (grown as needed); returns their count. Points outside the grid are dropped.
  std::size_t run(const Point* points, std::size_t n, const ModelPose& pose, const VoxelGrid& grid,
                  DeviceBuffer<std::uint32_t>& keys);

 private:
  DeviceBuffer<std::uint32_t> raw_, sorted_;
  DeviceBuffer<int> count_;
  DeviceBuffer<unsigned char> scratch_;
};

// The sorted unique keys of the cells holding `points` (device arrays of n); returns their count.
std::size_t voxelizeCuda(const Point* points, std::size_t n, const VoxelGrid& grid,
                         DeviceBuffer<std::uint32_t>& keys);

// outside (device, grid.cells() bytes) becomes 1 where a cell is reached from the grid's
// boundary through cells not in `shell` (device, sorted or not) across faces, else 0. Returns
// the sweeps it took.
int outsideOfCuda(const std::uint32_t* shell, std::size_t n, const VoxelGrid& grid,
                  DeviceBuffer<std::uint8_t>& outside);

// classes[i] (device) becomes the class of voxel keys[i] of one model: contact where found[i] (its
// lookup in the other model's structure) is not kNotFound, else inside or only by the other
// model's outside (device, a byte per cell).
void classifyCuda(const std::uint32_t* keys, std::size_t n, const std::uint32_t* found,
                  const std::uint8_t* otherOutside, const VoxelGrid& grid, VoxelClass only,
                  VoxelClass inside, std::uint8_t* classes);

// The CPU functions' results, computed on the GPU (host vectors in and out).
std::vector<std::uint32_t> voxelizeOnGpu(const std::vector<Point>& points, const VoxelGrid& grid);
std::vector<std::uint8_t> outsideOfOnGpu(const std::vector<std::uint32_t>& shell,
                                         const VoxelGrid& grid);
Intersection intersectOnGpu(const std::vector<std::uint32_t>& a,
                            const std::vector<std::uint32_t>& b, const VoxelGrid& grid,
                            const CuckooParams& params, std::uint64_t seed);

}  // namespace ws::voxhash
