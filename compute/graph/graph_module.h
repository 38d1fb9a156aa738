#pragma once
// The graph clustering module (the source's chapter 2): a graph, generated or loaded, laid out by
// forces in the plane while Girvan-Newman takes it apart edge by edge (or Louvain finds its
// communities at once), on the CPU or the GPU. Nodes are coloured by community and sized by a
// centrality; edges are coloured and widened by their betweenness, and fade as they are removed.
// The communities can be shown as their quotient graph, merged by affinity.
#include <array>
#include <memory>
#include <optional>
#include <utility>

#include "compute/core/module.h"
#include "compute/graph/centrality.h"
#include "compute/graph/clustering.h"
#include "compute/graph/graph_engine.h"
#include "compute/graph/graph_export.h"
#include "compute/graph/layout.h"
#include "compute/graph/louvain.h"
#include "compute/views/graph.h"
#include "compute/views/plots.h"

namespace ws::graph {

class GraphModule final : public Module, public GraphSource, public PlotSource {
 public:
  explicit GraphModule(Backend backend);
  ~GraphModule() override;

  std::string_view name() const override { return "graph"; }
  std::string_view title() const override { return "Graph clustering"; }
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;
  std::string configuration() const override;
  std::string notes() const override;

  void reset() override;
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  std::string sizeText() const override;
  std::optional<GraphScene> graphScene() const override;
  void graphTopology(std::vector<std::uint32_t>& ends) const override;
  void renderGraph(GraphImage& image) override;
  // Modularity and components after each Girvan-Newman step (the dendrogram's levels as they
  // come), the last kCurveLength of them.
  std::vector<Curve> curves() const override { return {modularityCurve_, componentsCurve_}; }
  static constexpr std::size_t kCurveLength = 2000;
  static constexpr float kFadeSteps = 20;  // a removed edge fades out over this many steps
  // Girvan-Newman's splits so far as a tree, down to the first level of more than
  // kDendrogramLeaves communities; the level shown is marked.
  std::optional<Dendrogram> dendrogram() const override;
  static constexpr std::uint32_t kDendrogramLeaves = 128;

  // "pick": the node nearest the pointer shows its values in the notes; "drag": moves the node
  // under the pointer, which then stays where it was left (pinned) while the layout goes on.
  std::vector<std::string> tools() const override { return {"pick", "drag"}; }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  void revert(const EditChange& change, bool redo) override;
  std::vector<std::string> actions() const override {
    return {"recompute centrality", "unpin all",      "shake layout",
            "export CSV",           "export GraphML", "export GEXF"};
  }
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  double bytesPerWorkUnit() const override;
  // A centrality pass's FP64 arithmetic; none for the other steps (integer and branch work).
  std::optional<OpModel> opsPerWorkUnit() const override;
  // A generated graph's sizes, for the steps whose work grows with it (not a Girvan-Newman
  // step: one removal, whatever the size); none for a graph from a file.
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override;

  // For tests: the graph, the communities shown, the node positions, the Girvan-Newman run.
  const Graph& graph() const { return *graph_; }
  // (with the merges by affinity made, when asked)
  std::vector<std::uint32_t> shownCommunities(std::vector<Merge>* merges = nullptr) const;
  std::vector<float> positions() const;
  const GirvanNewman* girvanNewman() const { return gn_.get(); }
  const std::optional<LouvainResult>& louvain() const { return louvain_; }
  const Centrality& centrality() const { return centrality_; }
  long picked() const { return picked_; }
  // The graph with its layout and what was computed on it, as the exports write it: per node its
  // degree, centralities, the community shown, Louvain's and the planted groups where known, and
  // each Girvan-Newman level the dendrogram draws; per edge its betweenness and the step it was
  // removed at.
  GraphTable table() const;
  // A short description of the node nearest the world point (x, y), where one is close
  // ("node 33: degree 12, community 2"), else "".
  std::string describeAt(double x, double y) const override;
  std::vector<ViewLabel> viewLabels() const override;  // the picked node's id

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  using Pin = std::pair<std::uint32_t, std::array<float, 2>>;  // a node held where the user put it
  // The pin of node v, or pinned_.end().
  std::vector<Pin>::iterator pinAt(std::uint32_t v);
  // Puts node v at `at`, pinned there or free to move.
  void put(std::uint32_t v, std::array<float, 2> at, bool pinned);
  struct Timings {
    TimingScope *girvanNewman, *louvain, *centrality, *layout;
  };
  void rebuild(const ParamSet& p);  // a new graph from the parameters; throws changing nothing
  // What a step reads of the parameters, read once when they change.
  struct StepPlan {
    enum class Kind { Cluster, Centrality, Louvain, Layout } kind = Kind::Cluster;
    bool louvain = false;  // clustering by Louvain, else Girvan-Newman
    bool layout = true;
    int layoutSteps = 2;
    float spacing = 1, gravity = 0, cooling = 1;
  } plan_;
  void readPlan();
  void startClustering();      // Louvain, then Girvan-Newman from the whole graph
  void restartGirvanNewman();  // every edge back, the divisive run from its start
  void computeCentrality();
  void runLouvain();
  // The centrality of a graph that may not be the module's yet (a rebuild makes it aside) into
  // `into`; returns the number of its sources (all the vertices when every one is).
  std::uint32_t centralityOf(const Graph& g, GraphEngine& engine, Centrality& into) const;
  void layoutSteps();
  // Node sizes and colours, edge values, after what they show changed; removed edges fade by
  // their age at `step`.
  void restyle(std::uint64_t step);
  bool quotientView() const;
  // The node nearest (x, y) at positions `p` (x, y per node) and its distance; -1 for none.
  std::pair<long, double> nearestNode(const std::vector<float>& p, double x, double y) const;
  bool stressShown() const;
  // The communities view: a node per community, an edge per pair with edges between them
  // (two node numbers each, then value and opacity), kept until the style changes; the nodes
  // (at their members' centre) follow the layout every frame.
  struct Quotient {
    std::uint64_t style = ~std::uint64_t(0);
    std::vector<std::uint32_t> community, ends;
    std::vector<double> members;
    std::vector<float> edges;
  };
  const Quotient& quotient() const;
  std::vector<float> quotientNodes() const;
  mutable Quotient quotient_;
  std::vector<double> nodeMeasure() const;
  std::vector<std::uint32_t> sources() const;
  std::vector<std::uint32_t> sourcesOf(std::uint32_t vertices) const;

  Timings cpuTimes_, gpuTimes_;
  const Timings& times() const { return backend() == Backend::Cuda ? gpuTimes_ : cpuTimes_; }
  std::unique_ptr<Graph> graph_;
  mutable std::optional<double> crossingShare_;  // levelCrossingShare, until the graph changes
  GraphReport report_;
  std::string source_;                   // what the graph is, in words
  std::vector<std::uint32_t> planted_;   // the planted groups, when known
  std::unique_ptr<GraphEngine> engine_;  // holds graph_
  std::unique_ptr<GirvanNewman> gn_;
  std::optional<LouvainResult> louvain_;
  double louvainMs_ = 0, gnMs_ = 0, centralityMs_ = 0;
  std::uint32_t centralitySources_ = 0;
  std::optional<std::uint64_t> lastRemoval_;  // the step of the last Girvan-Newman removal
  Centrality centrality_;
  // The result before the shown one, whose arrays the next pass writes over (new arrays for a
  // 10^7-edge graph cost the GPU's pass a fifth more, run 126), so that a failed pass leaves the
  // shown one as it was; empty after a rebuild.
  Centrality spareCentrality_;
  std::vector<std::uint32_t> removedAt_;  // per edge: the step it was removed at, or ~0u
  std::vector<Pin> pinned_;
  long picked_ = -1, dragged_ = -1;
  std::string exported_;  // the files the last export wrote
  float temperature_ = 1;
  std::uint64_t revision_ = 0;
  // What renderGraph draws: per node radius and value, per edge value and opacity.
  std::vector<float> nodeStyle_, edgeStyle_;
  std::uint64_t styleRevision_ = 0;
  int shownLevel_ = 0;
  std::uint32_t shownCommunities_ = 0;
  std::vector<Merge> merges_;
  double plantedAgreement_ = 0;  // NMI of the communities shown with the planted groups
  mutable std::optional<Dendrogram> dendrogram_;  // computed when due
  mutable std::size_t dendrogramLevels_ = 0;      // the levels it was computed from
  mutable std::size_t dendrogramDepth_ = 0;       // the splits it draws
  Curve modularityCurve_{"modularity Q", "removal step", {}},
      componentsCurve_{"communities (components)", "removal step", {}};
};

}  // namespace ws::graph
