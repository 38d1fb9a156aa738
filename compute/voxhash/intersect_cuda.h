#pragma once
// The intersection pipeline on the GPU, step for step the CPU one (intersect.h): voxelization
// with a CUB radix sort and unique, the cuckoo tables and lookups of cuckoo_cuda, and the flood
// fill of fill_cuda. Inputs and outputs stay in device memory; the host versions of the functions
// are for tests.
#include <cstdint>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/voxhash/fill_cuda.h"
#include "compute/voxhash/intersect.h"
#include "compute/voxhash/scene.h"

namespace ws::voxhash {

// What voxelizing a cloud gives besides its keys: the number of unique keys written and the box
// of the points' cells (box.offGrid set when the last unique key is kOffGrid, which is not a
// voxel).
struct VoxelSummary {
  VoxelBox box;
  int unique = 0;

  std::size_t voxels() const { return std::size_t(unique - box.offGrid); }
};

// Voxel keys sorted and deduplicated (CUB radix sort and unique), with the scratch memory kept
// from one frame to the next.
class CudaVoxelizer {
 public:
  // Queues the voxelization of the `n` device points moved by `pose`: their cells' sorted unique
  // keys into `keys` (grown to n as needed), the count and box into *summary (device). Nothing is
  // waited for.
  void enqueue(const Point* points, std::size_t n, const ModelPose& pose, const VoxelGrid& grid,
               DeviceBuffer<std::uint32_t>& keys, VoxelSummary* summary);

 private:
  DeviceBuffer<std::uint32_t> raw_, sorted_;
  DeviceBuffer<unsigned char> scratch_;
};

// classes[i] (device) becomes the class of voxel keys[i] of one model: contact where found[i] (its
// lookup in the other model's structure) is not kNotFound, else inside or only by the other
// model's outside.
void classifyCuda(const std::uint32_t* keys, std::size_t n, const std::uint32_t* found,
                  const OutsideBits& otherOutside, VoxelClass only, VoxelClass inside,
                  std::uint8_t* classes);

// The CPU functions' results, computed on the GPU (host vectors in and out).
std::vector<std::uint32_t> voxelizeOnGpu(const std::vector<Point>& points, const VoxelGrid& grid);
Intersection intersectOnGpu(const std::vector<std::uint32_t>& a,
                            const std::vector<std::uint32_t>& b, const VoxelGrid& grid,
                            const CuckooParams& params, std::uint64_t seed);

}  // namespace ws::voxhash
