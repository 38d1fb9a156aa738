// The CUDA half of LBM (lbm_cuda.cu, lbm_tracers.cu, streamlines.cu) in a build
// without CUDA: gpuInfo() says the backend is not built, so no CUDA engine is asked for.
#include "compute/core/errors.h"
#include "compute/lbm/lbm_cuda.h"
#include "compute/lbm/lbm_tracers.h"
#include "compute/lbm/streamlines.h"

namespace ws::lbm {

std::unique_ptr<LbmEngine> makeCudaEngine(LatticeKind, const Variant&, int, LbmTimings) {
  throw InputError("this build has no CUDA backend");
}

std::unique_ptr<TracerSwarm> makeCudaTracers(TimingScope&) {
  throw InputError("this build has no CUDA backend");
}

std::unique_ptr<StreamlineTracer> makeCudaStreamlines(TimingScope&) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::lbm
