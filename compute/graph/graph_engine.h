#pragma once
// What the graph module's passes run on, the CPU (OpenMP) or the GPU: the centralities, the edge
// betweenness and components Girvan-Newman asks for, Louvain, the force layout, and the frame's
// nodes and edges. An engine holds one graph (which must outlive it); a rebuild makes the next
// engine aside, so that a refusal changes nothing.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/graph/centrality.h"
#include "compute/graph/clustering.h"
#include "compute/graph/graph.h"
#include "compute/graph/layout.h"
#include "compute/graph/louvain.h"
#include "compute/views/graph.h"

namespace ws::graph {

class GraphEngine {
 public:
  virtual ~GraphEngine() = default;

  // The variant's way from now on (the GPU's thread mapping; the CPU has one way).
  virtual void useVariant(const std::string& variant) { (void)variant; }
  // How the passes run, in words ("OpenMP, a source a thread at a time").
  virtual std::string configuration() const = 0;
  // The centralities from `sources` (every vertex when empty) into `into`, over what it held
  // (its arrays' memory reused where the engine can); the stress doubles the backward sweep's
  // atomics on the GPU, so it is summed there only when asked.
  virtual void centrality(const std::vector<std::uint32_t>& sources, bool stress,
                          Centrality& into) = 0;
  // For Girvan-Newman: the edge betweenness of what remains, and the components' labels (none:
  // the CPU's union-find).
  virtual EdgeBetweenness betweenness() = 0;
  virtual ComponentLabels components() = 0;
  virtual LouvainResult louvain() = 0;

  // The force layout. Edges with removed[e] set pull no more (kept until the next call).
  virtual void setRemoved(const std::vector<std::uint8_t>& removed) = 0;
  virtual void layoutStep(const LayoutParams& params) = 0;
  virtual void place(std::uint32_t v, float x, float y) = 0;  // one vertex, where the user put it
  virtual std::vector<float> positions() const = 0;           // x, y per vertex
  virtual void setPositions(const std::vector<float>& positions) = 0;
  virtual void synchronize() {}

  // The frame: four floats per node (x, y, then its two of `nodeStyle`) and `edgeStyle` as it
  // is, into `image`; `styleRevision` changes with the styles (the GPU keeps a copy).
  virtual void render(const std::vector<float>& nodeStyle, const std::vector<float>& edgeStyle,
                      std::uint64_t styleRevision, GraphImage& image) = 0;
};

std::unique_ptr<GraphEngine> makeCpuGraphEngine(const Graph& g, std::uint64_t seed);
// `variant`: the thread mapping ("edge", "node", "permuted-edge", "frontier"). Throws OutOfMemoryError.
std::unique_ptr<GraphEngine> makeCudaGraphEngine(const Graph& g, std::uint64_t seed,
                                                 const std::string& variant);

// The frame's nodes and edges written on the host from host positions (both engines' fallback).
void renderOnHost(const std::vector<float>& positions, const std::vector<float>& nodeStyle,
                  const std::vector<float>& edgeStyle, GraphImage& image);

}  // namespace ws::graph
