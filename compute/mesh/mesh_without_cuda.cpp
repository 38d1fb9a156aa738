// The CUDA half of the mesh module (mesh_engine_cuda.cu, optimize_cuda.cu) in a build without
// CUDA: gpuInfo() says the backend is not built, so no CUDA engine is asked for.
#include "compute/core/errors.h"
#include "compute/mesh/mesh_engine.h"

namespace ws::mesh {

std::unique_ptr<MeshEngine> makeCudaMeshEngine(MeshTimings, int) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::mesh
