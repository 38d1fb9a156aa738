// The CUDA half of the isosurfaces (isosurface.cu) in a build without CUDA: gpuInfo() says the
// backend is not built, so no CUDA extractor is asked for.
#include "compute/core/errors.h"
#include "compute/geometry/isosurface.h"

namespace ws::geometry {

std::unique_ptr<IsosurfaceExtractor> makeCudaIsosurface(TimingScope&) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::geometry
