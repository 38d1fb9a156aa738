#pragma once
// The intersection pipeline of the chapter's Figure 4.1, run every frame: both models' clouds
// moved to their poses and voxelized (keys sorted and deduplicated), a lookup structure built for
// each, each model's voxels looked up in the other's (the hits are the contact voxels), a flood
// fill from outside each shell, and every voxel classified. On the CPU or the GPU; on the GPU
// nothing but counts crosses to the host.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/timing.h"
#include "compute/views/field.h"
#include "compute/views/voxels.h"
#include "compute/voxhash/cuckoo.h"
#include "compute/voxhash/intersect.h"
#include "compute/voxhash/scene.h"

namespace ws::voxhash {

// The structure each model's voxels are put in, for the other model's lookups: the chapter's
// cuckoo table, or the two it weighs against hashing.
enum class LookupStructure { Cuckoo, SortedArray, BitGrid };

struct PipelineTimings {
  TimingScope *frame, *voxelize, *build, *query, *fill, *classify, *view;
};

// A voxel's class in the view: the classes of intersect.h, and B's contact voxels, which A's
// contact voxels already show.
constexpr unsigned kHiddenDuplicate = 255;

struct FrameReport {
  std::size_t points[2] = {0, 0}, voxels[2] = {0, 0};
  std::size_t contact = 0, aInsideB = 0, bInsideA = 0;
  BuildReport builds[2];  // cuckoo tables only; the chain histogram is A's alone
  int fillPasses = 0;     // of the GPU's flood fill, both models at once (the CPU's is a search)
};

// One frame's input: the models' poses and the seed of its hash constants.
struct FramePoses {
  ModelPose a, b;
  std::uint64_t seed = 0;
};

class IntersectionPipeline {
 public:
  virtual ~IntersectionPipeline() = default;
  // The models' clouds in model space. Throws OutOfMemoryError, keeping the old ones.
  virtual void setClouds(const std::vector<Point>& a, const std::vector<Point>& b) = 0;
  // Frames one after the other, the last one kept; the frame scope times them as one sample, the
  // stages frame by frame. Throws InputError when a table cannot be built.
  virtual void frames(const std::vector<FramePoses>& frames, const VoxelGrid& grid,
                      LookupStructure structure, const CuckooParams& params) = 0;
  virtual FrameReport report() = 0;
  // A's voxels, then B's.
  virtual std::size_t voxelCount() const = 0;
  virtual void renderVoxels(VoxelImage& image) = 0;
  // Model m's cuckoo table of the last frame as the hash lab draws it (renderTableOnHost), and
  // its slots; 0 slots and an empty image when the frame used another structure.
  virtual std::uint32_t tableSlots(int model) const = 0;
  virtual void renderTable(int model, const FieldRequest& request, FieldImage& image) = 0;
  // The last frame's voxel keys and classes, A's then B's, on the host (for tests).
  virtual void result(std::vector<std::uint32_t>& keys, std::vector<std::uint8_t>& classes) = 0;
  virtual void pollTimings() {}
  virtual void drainTimings() {}
  virtual void synchronize() {}
};

std::unique_ptr<IntersectionPipeline> makeCpuPipeline(PipelineTimings timings);
std::unique_ptr<IntersectionPipeline> makeCudaPipeline(PipelineTimings timings, int block);

// The class drawn for a voxel of model 0 (A) or 1 (B).
WS_HD unsigned shownClass(int model, std::uint8_t voxelClass) {
  return model == 1 && voxelClass == kContact ? kHiddenDuplicate : voxelClass;
}

}  // namespace ws::voxhash
