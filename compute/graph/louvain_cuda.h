#pragma once
// The synchronous Louvain method on the GPU (louvain.h's louvainSynchronousOnCpu, which it
// matches exactly). A sweep: each arc is keyed by its far end's community and each node's arcs
// are sorted by that key (CUB's segmented sort), so that a thread at the start of each run of
// equal keys sums the node's links into that community and scores joining it; the best score
// and then the lowest community scoring it are found with atomics, and every node moves at
// once. Aggregation sorts the arcs by (community, community) and adds up equal pairs (CUB's
// radix sort and reduce-by-key). Throws OutOfMemoryError when the arrays do not fit, InputError
// when 2m >= 2^31.
#include <cstdint>

#include "compute/graph/device_graph.h"
#include "compute/graph/louvain.h"

namespace ws::graph {

class CudaLouvain {
 public:
  explicit CudaLouvain(const DeviceGraph& graph) : graph_(graph) {}
  LouvainResult run(const Graph& g);  // g: the graph graph_ holds (for the final modularity)

 private:
  const DeviceGraph& graph_;
};

}  // namespace ws::graph
