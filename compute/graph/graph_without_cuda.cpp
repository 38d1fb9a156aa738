// The CUDA half of the graph module (its .cu files and graph_engine_cuda.cpp) in a build without
// CUDA: gpuInfo() says the backend is not built, so no CUDA engine is asked for.
#include "compute/core/errors.h"
#include "compute/graph/graph_engine.h"

namespace ws::graph {

std::unique_ptr<GraphEngine> makeCudaGraphEngine(const Graph&, std::uint64_t, const std::string&) {
  throw InputError("this build has no CUDA backend");
}

}  // namespace ws::graph
