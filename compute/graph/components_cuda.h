#pragma once
// Connected components on the GPU, for Girvan-Newman to follow the splits where the graph lives:
// every edge hooks the root of its larger end's tree under the root of its smaller end's
// (atomicMin), then every vertex jumps to its root, until no edge joins two trees. A root is then
// its component's smallest vertex, so numbering the roots in vertex order gives the CPU's
// union-find numbering exactly.
#include <cstdint>
#include <vector>

#include "compute/graph/device_graph.h"

namespace ws::graph {

class CudaComponents {
 public:
  explicit CudaComponents(const DeviceGraph& graph);

  // Like components(g, removed, count): each vertex's component, numbered from 0 in order of the
  // component's smallest vertex. `removed` is per edge, or empty.
  std::vector<std::uint32_t> label(const std::vector<std::uint8_t>& removed,
                                   std::uint32_t* count = nullptr);
  int rounds() const { return rounds_; }  // hook-and-jump rounds of the last label()

 private:
  const DeviceGraph& graph_;
  DeviceBuffer<std::uint32_t> parent_;
  DeviceBuffer<std::uint8_t> removed_;
  DeviceBuffer<int> changed_;
  int rounds_ = 0;
};

}  // namespace ws::graph
