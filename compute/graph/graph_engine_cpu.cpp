#include <cstring>

#include "compute/graph/graph_engine.h"

namespace ws::graph {

void renderOnHost(const std::vector<float>& positions, const std::vector<float>& nodeStyle,
                  const std::vector<float>& edgeStyle, GraphImage& image) {
  const std::size_t n = positions.size() / 2;
  for (std::size_t v = 0; v < n; ++v) {
    image.nodes[4 * v] = positions[2 * v];
    image.nodes[4 * v + 1] = positions[2 * v + 1];
    image.nodes[4 * v + 2] = nodeStyle[2 * v];
    image.nodes[4 * v + 3] = nodeStyle[2 * v + 1];
  }
  if (!edgeStyle.empty())
    std::memcpy(image.edges, edgeStyle.data(), edgeStyle.size() * sizeof(float));
}

namespace {

class CpuGraphEngine final : public GraphEngine {
 public:
  CpuGraphEngine(const Graph& g, std::uint64_t seed) : graph_(g), layout_(g, seed) {}

  std::string configuration() const override { return "OpenMP, a source a thread at a time"; }
  void centrality(const std::vector<std::uint32_t>& sources, bool, Centrality& into) override {
    into = centralityOnCpu(graph_, sources);
  }
  EdgeBetweenness betweenness() override { return edgeBetweennessOnCpu(graph_); }
  ComponentLabels components() override { return {}; }
  LouvainResult louvain() override { return louvainOnCpu(graph_); }

  void setRemoved(const std::vector<std::uint8_t>& removed) override { removed_ = removed; }
  void layoutStep(const LayoutParams& params) override { layout_.step(params, removed_); }
  void place(std::uint32_t v, float x, float y) override { layout_.place(v, x, y); }
  std::vector<float> positions() const override { return layout_.positions(); }
  void setPositions(const std::vector<float>& positions) override {
    layout_.setPositions(positions);
  }
  void render(const std::vector<float>& nodeStyle, const std::vector<float>& edgeStyle,
              std::uint64_t, GraphImage& image) override {
    renderOnHost(layout_.positions(), nodeStyle, edgeStyle, image);
  }

 private:
  const Graph& graph_;
  Layout layout_;
  std::vector<std::uint8_t> removed_;
};

}  // namespace

std::unique_ptr<GraphEngine> makeCpuGraphEngine(const Graph& g, std::uint64_t seed) {
  return std::make_unique<CpuGraphEngine>(g, seed);
}

}  // namespace ws::graph
