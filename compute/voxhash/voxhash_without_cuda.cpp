// The CUDA half of the voxel hash module (its .cu files) in a build without CUDA: gpuInfo() says
// the backend is not built, so no CUDA engine is asked for.
#include "compute/core/errors.h"
#include "compute/voxhash/hash_lab.h"
#include "compute/voxhash/pipeline.h"

namespace ws::voxhash {

std::unique_ptr<HashLab> makeCudaHashLab(LabTimings, int) {
  throw InputError("this build has no CUDA backend");
}

std::unique_ptr<IntersectionPipeline> makeCudaPipeline(PipelineTimings, int) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::voxhash
