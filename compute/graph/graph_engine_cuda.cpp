// The graph module's CUDA engine: the graph on the device and what works on it (host code; the
// kernels are in the *_cuda.cu files).
#include <cuda_runtime.h>

#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/graph/centrality_cuda.h"
#include "compute/graph/components_cuda.h"
#include "compute/graph/graph_catalog.h"
#include "compute/graph/graph_engine.h"
#include "compute/graph/layout_cuda.h"
#include "compute/graph/louvain_cuda.h"

namespace ws::graph {

namespace {

Parallelism mappingOf(const std::string& variant) {
  return entryNamed(graphMappings(), variant).how;
}

class CudaGraphEngine final : public GraphEngine {
 public:
  CudaGraphEngine(const Graph& g, std::uint64_t seed, const std::string& variant)
      : graph_(g),
        device_(g),
        centrality_(g, device_, seed),
        components_(device_),
        layout_(device_, Layout(g, seed).positions()),
        louvain_(device_),
        nodeStyle_(2 * std::size_t(std::max<std::uint32_t>(g.vertices, 1))),
        edgeStyle_(2 * std::max<std::size_t>(g.edges(), 1)),
        mapping_(mappingOf(variant)) {}

  void useVariant(const std::string& variant) override { mapping_ = mappingOf(variant); }
  std::string configuration() const override {
    return "block 256, " + std::to_string(centrality_.batch()) + " sources a launch (grid rows)";
  }
  void centrality(const std::vector<std::uint32_t>& sources, bool stress,
                  Centrality& into) override {
    centrality_.run(into, sources, mapping_, {}, true, stress);
  }
  EdgeBetweenness betweenness() override {
    return [this](const std::vector<std::uint32_t>& s, const std::vector<std::uint8_t>& removed) {
      centrality_.run(splitScratch_, s, mapping_, removed, false, false);
      return splitScratch_.edgeBetweenness;
    };
  }
  ComponentLabels components() override {
    return [this](const std::vector<std::uint8_t>& removed, std::uint32_t* count) {
      return components_.label(removed, count);
    };
  }
  LouvainResult louvain() override { return louvain_.run(graph_); }

  void setRemoved(const std::vector<std::uint8_t>& removed) override {
    layout_.setRemoved(removed);
  }
  void layoutStep(const LayoutParams& params) override { layout_.step(params); }
  void place(std::uint32_t v, float x, float y) override { layout_.place(v, x, y); }
  std::vector<float> positions() const override { return layout_.positionsOnHost(); }
  void setPositions(const std::vector<float>& positions) override {
    layout_.setPositions(positions);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }

  void render(const std::vector<float>& nodeStyle, const std::vector<float>& edgeStyle,
              std::uint64_t styleRevision, GraphImage& image) override {
    if (!image.onDevice) return renderOnHost(positions(), nodeStyle, edgeStyle, image);
    if (styleRevision != styleRevision_) {
      WS_CUDA_CHECK(cudaMemcpy(nodeStyle_.data(), nodeStyle.data(),
                               nodeStyle.size() * sizeof(float), cudaMemcpyHostToDevice));
      WS_CUDA_CHECK(cudaMemcpy(edgeStyle_.data(), edgeStyle.data(),
                               edgeStyle.size() * sizeof(float), cudaMemcpyHostToDevice));
      styleRevision_ = styleRevision;
    }
    layout_.writeNodes(image.nodes, nodeStyle_.data());
    if (!edgeStyle.empty())
      WS_CUDA_CHECK(cudaMemcpy(image.edges, edgeStyle_.data(), edgeStyle.size() * sizeof(float),
                               cudaMemcpyDeviceToDevice));
  }

 private:
  const Graph& graph_;
  DeviceGraph device_;
  CudaCentrality centrality_;
  Centrality splitScratch_;  // Girvan-Newman's recomputations, over the arrays of the one before
  CudaComponents components_;
  CudaLayout layout_;
  CudaLouvain louvain_;
  DeviceBuffer<float> nodeStyle_, edgeStyle_;
  std::uint64_t styleRevision_ = 0;  // of the styles now on the device
  Parallelism mapping_;
};

}  // namespace

std::unique_ptr<GraphEngine> makeCudaGraphEngine(const Graph& g, std::uint64_t seed,
                                                 const std::string& variant) {
  return std::make_unique<CudaGraphEngine>(g, seed, variant);
}

}  // namespace ws::graph
