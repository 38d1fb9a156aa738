#pragma once
// The graph view: nodes as discs and edges as bands in the plane, through the field's camera
// (the graph module).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "compute/views/field.h"

namespace ws {

// Four floats per node, its world x and y, its radius in world units and the value its colour
// shows; two per edge, the value its colour and width show (0 to 1) and its opacity. On the CUDA
// backend both may be device pointers (into interop-mapped GL buffers).
struct GraphImage {
  float* nodes = nullptr;
  float* edges = nullptr;
  std::size_t nodeCount = 0, edgeCount = 0;
  bool onDevice = false;
};

// The edges' ends change only with `revision`, unique across modules; the module writes node
// positions, sizes and values and edge values every frame.
struct GraphScene {
  std::size_t nodes = 0, edges = 0;
  std::uint64_t revision = 0;
  FieldView nodeValue;  // what a node's colour shows, and its range
  int categories = 0;   // when nodes show categories (communities): their number, else 0
  FieldView edgeValue;  // what an edge's colour and width show (values 0 to 1)
  long picked = -1;     // the node picked, drawn with a ring, or -1
};

// What a module that shows a graph offers.
class GraphSource {
 public:
  virtual ~GraphSource() = default;
  virtual std::optional<GraphScene> graphScene() const = 0;
  // Each edge's two node numbers, for the current revision.
  virtual void graphTopology(std::vector<std::uint32_t>& ends) const = 0;
  virtual void renderGraph(GraphImage& image) = 0;
};

}  // namespace ws
