#pragma once
// The force-directed layout on the GPU: the CPU's Layout step (layout_force.h) with a thread per
// vertex. The grid is built on the device each step: the box by a reduction, the cells by a
// stable radix sort of the vertices by cell (so each cell's vertices come in increasing order,
// as on the CPU) and a scan of the cell counts. Positions stay on the device; the renderer reads
// them from there.
#include <cstdint>
#include <vector>

#include "compute/graph/device_graph.h"
#include "compute/graph/layout.h"

namespace ws::graph {

class CudaLayout {
 public:
  CudaLayout(const DeviceGraph& graph, const std::vector<float>& positions);

  // Edges with removed[e] set pull no more (removed may be empty); kept until the next call.
  void setRemoved(const std::vector<std::uint8_t>& removed);
  void step(const LayoutParams& params);

  const float* positions() const { return positions_.data(); }  // x, y per vertex, on the device
  std::vector<float> positionsOnHost() const;
  void setPositions(const std::vector<float>& positions);
  void place(std::uint32_t v, float x, float y);  // one vertex, where the user put it
  // Four floats per vertex into `nodes` (device memory): x, y, then the two of `style` (device
  // memory, two floats per vertex: radius and value).
  void writeNodes(float* nodes, const float* style) const;

 private:
  const DeviceGraph& graph_;
  DeviceBuffer<float> positions_, force_;
  DeviceBuffer<float> box_;  // low x, low y, high x, high y
  DeviceBuffer<std::uint32_t> cellOfVertex_, sortedCells_, vertexIds_, cellVertices_;
  DeviceBuffer<std::uint32_t> cellCount_, cellStart_;
  DeviceBuffer<std::uint8_t> removed_, scratch_;
  bool anyRemoved_ = false;
};

}  // namespace ws::graph
