#pragma once
// A graph's arrays on the device, shared by the GPU methods (centrality, components, layout,
// Louvain): the compressed rows, each arc's ends and edge, each edge's ends. Throws
// OutOfMemoryError when they do not fit.
#include <cstdint>

#include "compute/core/device_buffer.h"
#include "compute/graph/graph.h"

namespace ws::graph {

struct DeviceGraph {
  explicit DeviceGraph(const Graph& g)
      : vertices(g.vertices),
        edges(g.edges()),
        arcs(g.arcs()),
        offset(toDevice(g.offset)),
        arcFrom(toDevice(g.arcFrom)),
        arcTo(toDevice(g.arcTo)),
        arcEdge(toDevice(g.arcEdge)),
        ends(toDevice(g.ends)) {}

  std::uint32_t vertices;
  std::size_t edges, arcs;
  DeviceBuffer<std::uint32_t> offset, arcFrom, arcTo, arcEdge, ends;
};

}  // namespace ws::graph
