#include "compute/graph/graph_module.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>

#include "compute/core/device_buffer.h"
#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/progress.h"
#include "compute/core/saved_state.h"
#include "compute/graph/centrality_cuda.h"
#include "compute/graph/components_cuda.h"
#include "compute/graph/generators.h"
#include "compute/graph/graph_io.h"
#include "compute/graph/layout_cuda.h"
#include "compute/graph/louvain_cuda.h"

namespace ws::graph {

// The CUDA backend's objects: the graph on the device and what works on it.
struct GraphGpu {
  GraphGpu(const Graph& g, const std::vector<float>& positions, std::uint64_t seed)
      : graph(g),
        centrality(g, graph, seed),
        components(graph),
        layout(graph, positions),
        louvain(graph),
        nodeStyle(2 * std::size_t(std::max<std::uint32_t>(g.vertices, 1))),
        edgeStyle(2 * std::max<std::size_t>(g.edges(), 1)) {}
  DeviceGraph graph;
  CudaCentrality centrality;
  CudaComponents components;
  CudaLayout layout;
  CudaLouvain louvain;
  DeviceBuffer<float> nodeStyle, edgeStyle;
  std::uint64_t styleRevision = 0;  // of the module's style now on the device
};

namespace {

const std::vector<std::string> kGenerators = {"planted", "barabasi-albert", "watts-strogatz",
                                              "alpha", "grid"};
constexpr std::int64_t kMaxVertices = std::int64_t(1) << 24;
// Girvan-Newman recomputes betweenness after every removal: O(m^2 n) in all. Past this many edges
// it would take hours; Louvain is the method for those.
constexpr std::size_t kGirvanNewmanEdges = 50000;
// Sources when `sources` is 0 (all) but the graph is too large for all.
constexpr std::uint32_t kAllSourcesUpTo = 20000, kDefaultSample = 256;
constexpr float kFadeSteps = 20;  // a removed edge fades out over this many steps

bool isGenerator(const std::string& name) {
  return std::find(kGenerators.begin(), kGenerators.end(), name) != kGenerators.end();
}

std::string checkGraphName(const std::string& name) {
  if (isGenerator(name)) return "";
  for (const std::string& shipped : shippedGraphs())
    if (name == shipped) return "";
  std::FILE* f = std::fopen(name.c_str(), "rb");
  if (f) {
    std::fclose(f);
    return "";
  }
  std::string choices;
  for (const std::string& g : kGenerators) choices += g + ", ";
  for (const std::string& g : shippedGraphs()) choices += g + ", ";
  return "no graph called '" + json_input::brief(name) + "': a generator or shipped graph (" +
         choices.substr(0, choices.size() - 2) + ") or the path of an edge list or .mtx file";
}

// The values of `measure` scaled to 0 .. 1 by the largest.
std::vector<float> normalized(const std::vector<double>& measure) {
  double top = 0;
  for (const double m : measure) top = std::max(top, m);
  std::vector<float> out(measure.size(), 0);
  for (std::size_t i = 0; i < measure.size(); ++i) out[i] = top > 0 ? float(measure[i] / top) : 0;
  return out;
}

}  // namespace

GraphModule::~GraphModule() = default;

GraphModule::GraphModule(Backend backend) : Module(backend) {
  const bool gpu = backend == Backend::Cuda;
  ParamSet& p = declare();
  ParamSpec graph = ParamSpec::text(
      "graph", "graph", "planted",
      "a generator (planted partition, Barabasi-Albert, Watts-Strogatz, Watts' alpha-model, "
      "grid), a shipped graph (karate: Zachary's karate club) or the path of an edge list "
      "(pairs of ids, # comments, as SNAP writes them) or a Matrix Market .mtx file",
      checkGraphName);
  for (const std::string& g : kGenerators) graph.suggestions.emplace_back("generator", g);
  for (const std::string& g : shippedGraphs()) graph.suggestions.emplace_back("graph", g);
  p.declare(graph);
  ParamSpec vertices = ParamSpec::integer(
      "vertices", "vertices", gpu ? 1000 : 300, 4, double(kMaxVertices),
      "of a generated graph (a grid: the nearest square; planted: groups of equal size)");
  vertices.logScale = true;
  p.declare(vertices);
  p.declare(ParamSpec::real("degree", "mean degree", 10, 1, 200,
                            "of a generated graph (Barabasi-Albert: each new vertex brings "
                            "degree / 2 edges; grids have 4)"));
  p.declare(ParamSpec::integer("groups", "planted groups", 10, 1, 100000,
                               "groups of the planted partition"));
  p.declare(ParamSpec::real("mixing", "planted mixing", 0.1, 0, 1,
                            "the share of a planted vertex's edges that leave its group: low "
                            "values make clear communities, near 1 - 1/groups none at all"));
  p.declare(ParamSpec::real("rewiring", "rewiring / alpha", 0.1, 0, 20,
                            "Watts-Strogatz: the probability an edge is rewired; the "
                            "alpha-model: alpha (small: cliquish, large: random)"));
  p.declare(ParamSpec::integer("seed", "seed", 1, 0, 2147483647,
                               "of the generator, the layout's start and the sampled sources"));
  p.declare(ParamSpec::choice("method", "clustering", "girvan-newman", {"girvan-newman", "louvain"},
                              "Girvan-Newman: remove the edge of highest betweenness, recompute, "
                              "repeat (divisive, slow, shows the structure as it comes apart; up "
                              "to 50,000 edges); Louvain: join nodes into the communities that "
                              "raise modularity most, then the communities, level by level "
                              "(fast, for large graphs)"));
  p.declare(ParamSpec::integer("removals", "removals per step", 1, 1, 1000,
                               "Girvan-Newman's edges removed between recomputations (1: the "
                               "method as published; more: faster, coarser)"));
  p.declare(ParamSpec::integer("level", "dendrogram level", -1, -1, 1000000,
                               "the Girvan-Newman level shown: -1 the one of highest modularity, "
                               "else the level (0: nothing removed yet)"));
  p.declare(ParamSpec::integer("merges", "affinity merges", 0, 0, 1000,
                               "after the split, merge the pair of communities of highest "
                               "affinity (edges between them per pair of members) this many "
                               "times"));
  p.declare(ParamSpec::choice("view", "view", "graph", {"graph", "communities"},
                              "the graph itself, or its communities as one node each (at their "
                              "members' centre, sized by their members) joined by the edges "
                              "between them, coloured by affinity"));
  p.declare(ParamSpec::choice("size_by", "node size", "betweenness",
                              {"betweenness", "closeness", "stress", "graph", "degree"},
                              "the centrality that sizes nodes: betweenness (shortest paths "
                              "through), closeness (1 / total distance), stress (path count "
                              "through), graph (1 / farthest distance), degree"));
  p.declare(ParamSpec::choice("colour_by", "node colour", "community",
                              {"community", "centrality", "planted group"},
                              "the community shown, the sizing centrality, or the planted "
                              "partition's groups (where the graph has them)"));
  ParamSpec sources = ParamSpec::integer(
      "sources", "centrality sources", 0, 0, double(kMaxVertices),
      "breadth-first sweeps from this many random vertices, scaled up to estimate the whole "
      "(0: from every vertex, or 256 of them past 20,000 vertices); closeness and graph "
      "centrality are then known for the sources only");
  sources.logScale = true;
  p.declare(sources);
  p.declare(ParamSpec::choice("step", "one step is", "cluster",
                              {"cluster", "centrality", "louvain", "layout"},
                              "what a step computes besides the layout: a Girvan-Newman step "
                              "(Louvain's communities are found once, when the graph is made), "
                              "the centralities from the sources again or a Louvain run again "
                              "(what the benchmark times, and the roofline's point: its FP64 "
                              "arithmetic has a model), or the layout alone"));
  p.declare(
      ParamSpec::boolean("layout", "run layout", true, "move the nodes by forces every step"));
  p.declare(ParamSpec::integer("layout_steps", "layout iterations per step", 2, 1, 50,
                               "force-directed iterations a step: how fast the drawing settles"));
  p.declare(ParamSpec::real("spacing", "spacing", 1, 0.1, 10,
                            "the ideal edge length k: repulsion k^2 / d, attraction d^2 / k"));
  p.declare(ParamSpec::real("gravity", "gravity", 0.02, 0, 1,
                            "pull towards the centre, per unit of distance: keeps pieces that "
                            "split off in view (for 1,000 vertices; weaker by sqrt(1000 / "
                            "vertices) on larger graphs)"));
  p.declare(ParamSpec::real("cooling", "cooling", 0.995, 0.9, 1,
                            "the largest move shrinks by this factor each iteration, from 1 k "
                            "(down to 0.05 k); 'shake layout' heats it up again"));
  cpuTimes_ = {&addTiming("girvan-newman step (CPU)", "removals/s", false),
               &addTiming("louvain (CPU)", "edges/s", false),
               &addTiming("centrality (CPU)", "edges/s", false),
               &addTiming("layout (CPU)", "vertices/s", false)};
  gpuTimes_ = {&addTiming("girvan-newman step (CUDA, host clock)", "removals/s", false),
               &addTiming("louvain (CUDA, host clock)", "edges/s", false),
               &addTiming("centrality (CUDA, host clock)", "edges/s", false),
               &addTiming("layout (CUDA, host clock)", "vertices/s", false)};
  rebuild(params());
}

void GraphModule::setSize(const std::string& text) {
  setParam("vertices", params().parse("vertices", text));
}

std::vector<KernelVariant> GraphModule::variants(Backend backend) const {
  if (backend == Backend::Cpu)
    return {
        {"brandes",
         "Brandes' algorithm, OpenMP over sources",
         "Breadth first from each source with a queue, counting shortest paths, then the "
         "dependencies summed back from the deepest vertices (Brandes, 2001): work "
         "proportional to the arcs reached. Sources run in parallel on the CPU's cores. "
         "The chapter's single CPU thread needed 854 s for 4,096 sources of the 6.6 "
         "million-edge flickr graph (Core i7-975, 2010).",
         {"sources"},
         "ch. 2 Table 2.3 (Core i7-975, 2010): betweenness of flickr, 4,096 sources, one thread, "
         "854 s"}};
  const std::vector<std::string> tuned = {"sources"};
  return {
      {"edge", "edge-parallel (chapter 2)",
       "A thread per arc, every level: an arc whose tail is on the level updates its head "
       "(forward: "
       "distance and path count; backward: dependency). Every thread does the same small work, "
       "and neighbouring threads read neighbouring arcs (coalesced), at the price of looking at "
       "every arc at every level. A vertex's arcs sit side by side, so a warp adds up their "
       "backward shares before one atomic per vertex. The chapter's GTX 480 (2010) ran a BFS of "
       "the flickr graph in "
       "11.9 ms this way, against 26.7 ms node-parallel.",
       tuned,
       "ch. 2 Table 2.4 (GTX 480, 2010): BFS of flickr (6.6 M edges) 11.9 ms, 5.6 x 10^8 edges/s; "
       "2.2x faster than node-parallel"},
      {"node", "node-parallel",
       "A thread per vertex, every level: a vertex on the level walks its own arcs. Work per "
       "thread follows the degree: on a scale-free graph one hub's thread holds up the 31 others "
       "of its warp (divergence), while most of the warp's vertices are not on the level at all.",
       tuned, "ch. 2 Table 2.4 (GTX 480, 2010): BFS of flickr 26.7 ms"},
      {"permuted-edge", "edge-parallel, arcs permuted",
       "The edge-parallel kernel with the arcs in random order: the same even work per thread, "
       "but neighbouring threads now read far-apart memory (uncoalesced). The chapter's control: "
       "slower than both on most graphs (here a warp's arcs also no longer share tails, so each "
       "adds its own atomic), which shows that coalescing, not only even work, makes "
       "the edge-parallel kernel fast (flickr on the GTX 480: 134.8 ms).",
       tuned,
       "ch. 2 Table 2.4 (GTX 480, 2010): BFS of flickr 134.8 ms, 11x slower than edge-parallel"}};
}

std::string GraphModule::configuration() const {
  std::ostringstream out;
  if (backend() == Backend::Cuda)
    out << "block 256, " << device_->centrality.batch() << " sources a launch (grid rows)";
  else
    out << "OpenMP, a source a thread at a time";
  return out.str();
}

std::vector<std::uint32_t> GraphModule::sources() const {
  return sourcesOf(graph_->vertices);
}

std::vector<std::uint32_t> GraphModule::sourcesOf(std::uint32_t n) const {
  const auto wanted = std::uint32_t(params().getInt("sources"));
  if (wanted == 0 && n <= kAllSourcesUpTo) return {};
  return sampleSources(n, wanted ? wanted : kDefaultSample, std::uint64_t(params().getInt("seed")));
}

// The CUDA variant's thread mapping.
static Parallelism mappingOf(const std::string& variant) {
  if (variant == "node") return Parallelism::Node;
  return variant == "permuted-edge" ? Parallelism::PermutedEdge : Parallelism::Edge;
}

EdgeBetweenness GraphModule::betweennessFunction() {
  if (backend() == Backend::Cpu) return edgeBetweennessOnCpu(*graph_);
  return [this](const std::vector<std::uint32_t>& s, const std::vector<std::uint8_t>& removed) {
    return device_->centrality.run(s, mappingOf(variant()), removed, false, false).edgeBetweenness;
  };
}

void GraphModule::rebuild(const ParamSet& p) {
  const std::string name = p.getText("graph");
  const auto n = std::uint32_t(p.getInt("vertices"));
  const double degree = p.getFloat("degree");
  const auto seed = std::uint64_t(p.getInt("seed"));
  auto g = std::make_unique<Graph>();
  GraphReport report;
  std::vector<std::uint32_t> planted;
  std::string source;
  char text[160];
  if (name == "planted") {
    const auto groups = std::uint32_t(std::min<std::int64_t>(p.getInt("groups"), n));
    const std::uint32_t size = std::max(1u, n / groups);
    const double mixing = p.getFloat("mixing");
    const double pIn = std::min(1.0, degree * (1 - mixing) / std::max(1u, size - 1));
    const double pOut = std::min(1.0, degree * mixing / std::max(1.0, double(n - size)));
    *g = plantedPartition(groups, size, pIn, pOut, seed, &planted);
    std::snprintf(text, sizeof text, "planted partition: %u groups of %u, mixing %.2f", groups,
                  size, mixing);
    source = text;
  } else if (name == "barabasi-albert") {
    const auto m = std::uint32_t(std::max(1.0, std::round(degree / 2)));
    *g = barabasiAlbert(std::max(n, m + 2), m, seed);
    source = "Barabasi-Albert, " + std::to_string(m) + " edges a new vertex";
  } else if (name == "watts-strogatz") {
    const auto k = std::uint32_t(std::max(2.0, 2 * std::round(degree / 2)));
    *g = wattsStrogatz(n, k, p.getFloat("rewiring"), seed);
    source = "Watts-Strogatz small world";
  } else if (name == "alpha") {
    if (n > 20000) throw InputError("the alpha-model takes up to 20,000 vertices (O(n) an edge)");
    const auto k = std::uint32_t(std::max(2.0, std::round(degree)));
    *g = wattsAlpha(n, k, p.getFloat("rewiring"), 1e-4, seed);
    source = "Watts' alpha-model";
  } else if (name == "grid") {
    const auto side = std::uint32_t(std::max(1.0, std::round(std::sqrt(double(n)))));
    *g = grid(side, side);
    source = std::to_string(side) + " x " + std::to_string(side) + " grid";
  } else {
    *g = loadGraph(graphPathOf(name), &report);
    source = name;
  }
  const double bytes = double(g->arcs()) * 16 + double(g->vertices) * 64;
  if (backend() == Backend::Cpu) requireHostMemory(bytes, source);
  std::vector<float> start = Layout(*g, seed).positions();
  std::unique_ptr<GraphGpu> device;
  std::unique_ptr<Layout> layout;
  if (backend() == Backend::Cuda)
    device = std::make_unique<GraphGpu>(*g, start, seed);  // throws OutOfMemoryError
  else
    layout = std::make_unique<Layout>(*g, seed);
  // The new graph's centrality and communities, the long part for a large one.
  CpuStopwatch clock;
  auto [centrality, centralitySources] = centralityOf(*g, device.get());
  const double centralityMs = clock.elapsedMs();
  clock = CpuStopwatch();
  LouvainResult louvain = louvainOf(*g, device.get());
  const double louvainMs = clock.elapsedMs();
  // Everything new is made: now the module changes, to the end (a cancel waits).
  const CannotCancel committing;
  device_.reset();
  cpuLayout_.reset();
  gn_.reset();
  graph_ = std::move(g);
  crossingShare_.reset();
  device_ = std::move(device);
  cpuLayout_ = std::move(layout);
  report_ = report;
  planted_ = std::move(planted);
  source_ = source;
  static std::atomic<std::uint64_t> revisions{0};
  revision_ = ++revisions;
  pinned_.clear();
  picked_ = dragged_ = -1;
  temperature_ = 1;
  clearTimings();
  centrality_ = std::move(centrality);
  centralityMs_ = centralityMs;
  centralitySources_ = centralitySources;
  louvain_ = std::move(louvain);
  louvainMs_ = louvainMs;
  restartGirvanNewman();
  setStepCount(0);
}

void GraphModule::reset() {
  rebuild(params());
}

std::pair<Centrality, std::uint32_t> GraphModule::centralityOf(const Graph& g,
                                                               GraphGpu* device) const {
  const std::vector<std::uint32_t> from = sourcesOf(g.vertices);
  const auto count = from.empty() ? g.vertices : std::uint32_t(from.size());
  // The stress doubles the backward sweep's atomics: summed only when it is shown.
  if (device)
    return {device->centrality.run(from, mappingOf(variant()), {}, true, stressShown()), count};
  return {centralityOnCpu(g, from), count};
}

LouvainResult GraphModule::louvainOf(const Graph& g, GraphGpu* device) const {
  return device ? device->louvain.run(g) : louvainOnCpu(g);
}

void GraphModule::computeCentrality() {
  CpuStopwatch clock;
  std::tie(centrality_, centralitySources_) = centralityOf(*graph_, device_.get());
  centralityMs_ = clock.elapsedMs();
}

void GraphModule::runLouvain() {
  CpuStopwatch clock;
  louvain_ = louvainOf(*graph_, device_.get());
  louvainMs_ = clock.elapsedMs();
}

void GraphModule::startClustering() {
  runLouvain();
  restartGirvanNewman();
}

void GraphModule::restartGirvanNewman() {
  removedAt_.assign(graph_->edges(), ~0u);
  lastRemoval_.reset();
  dendrogram_.reset();  // of the run before
  modularityCurve_.values.clear();
  componentsCurve_.values.clear();
  gnMs_ = 0;
  gn_.reset();
  if (graph_->edges() <= kGirvanNewmanEdges) {
    ComponentLabels labels;
    if (backend() == Backend::Cuda)
      labels = [this](const std::vector<std::uint8_t>& removed, std::uint32_t* count) {
        return device_->components.label(removed, count);
      };
    CpuStopwatch clock;
    gn_ = std::make_unique<GirvanNewman>(*graph_, betweennessFunction(),
                                         std::uint32_t(params().getInt("removals")), labels);
    gnMs_ = clock.elapsedMs();
    modularityCurve_.values.push_back(float(gn_->levels().back().modularity));
    componentsCurve_.values.push_back(float(gn_->levels().back().components));
  }
  restyle(stepCount());
}

bool GraphModule::stressShown() const {
  return params().getText("size_by") == "stress";
}

bool GraphModule::quotientView() const {
  return params().getText("view") == "communities";
}

std::vector<std::uint32_t> GraphModule::shownCommunities(std::vector<Merge>* merges) const {
  std::vector<std::uint32_t> community;
  if (params().getText("method") == "louvain" || !gn_) {
    if (louvain_) community = louvain_->community;
  } else {
    const std::int64_t level = params().getInt("level");
    const std::size_t levels = gn_->levels().size();
    community = gn_->communities(level < 0 ? gn_->bestLevel()
                                           : std::min<std::size_t>(std::size_t(level), levels - 1));
  }
  if (community.empty()) community.assign(graph_->vertices, 0);
  const auto count = std::uint32_t(params().getInt("merges"));
  return count ? mergeByAffinity(*graph_, community, count, merges) : community;
}

std::optional<Dendrogram> GraphModule::dendrogram() const {
  if (!gn_ || params().getText("method") == "louvain") return std::nullopt;
  const std::size_t available = gn_->levels().size();
  if (!dendrogram_ || dendrogramLevels_ != available) {
    // The levels' partitions, each a refinement of the one before, while they stay few.
    std::vector<std::vector<std::uint32_t>> parts;
    std::vector<std::uint32_t> counts;
    for (std::size_t l = 0; l < available; ++l) {
      if (gn_->levels()[l].components > kDendrogramLeaves && !parts.empty()) break;
      parts.push_back(gn_->communities(l));
      counts.push_back(gn_->levels()[l].components);
    }
    const std::size_t depth = parts.size() - 1;
    // Each community's children one level down (itself when it did not split).
    std::vector<std::vector<std::vector<std::uint32_t>>> children(parts.size());
    for (std::size_t l = 0; l < depth; ++l) {
      children[l].resize(counts[l]);
      std::vector<std::uint8_t> seen(counts[l + 1], 0);
      for (std::uint32_t v = 0; v < graph_->vertices; ++v)
        if (!seen[parts[l + 1][v]]) {
          seen[parts[l + 1][v]] = 1;
          children[l][parts[l][v]].push_back(parts[l + 1][v]);
        }
    }
    // Leaves in depth-first order, so that siblings sit side by side; a parent above the middle
    // of its children.
    std::vector<std::vector<float>> x(parts.size());
    for (std::size_t l = 0; l <= depth; ++l) x[l].assign(counts[l], 0);
    float leaves = 0;
    auto place = [&](auto&& self, std::size_t l, std::uint32_t c) -> float {
      if (l == depth) return x[l][c] = leaves++;
      float sum = 0;
      for (const std::uint32_t child : children[l][c]) sum += self(self, l + 1, child);
      return x[l][c] = sum / float(children[l][c].size());
    };
    for (std::uint32_t root = 0; root < counts[0]; ++root) place(place, 0, root);
    Dendrogram tree;
    tree.name = "Girvan-Newman dendrogram";
    const float rows = float(std::max<std::size_t>(depth, 1));
    auto across = [&](float position) { return (position + 0.5f) / std::max(leaves, 1.0f); };
    for (std::size_t l = 0; l < depth; ++l)
      for (std::uint32_t c = 0; c < counts[l]; ++c) {
        float lo = x[l][c], hi = x[l][c];
        for (const std::uint32_t child : children[l][c]) {
          lo = std::min(lo, x[l + 1][child]);
          hi = std::max(hi, x[l + 1][child]);
          tree.segments.insert(tree.segments.end(), {across(x[l + 1][child]), float(l) / rows,
                                                     across(x[l + 1][child]), float(l + 1) / rows});
        }
        if (hi > lo)
          tree.segments.insert(tree.segments.end(),
                               {across(lo), float(l) / rows, across(hi), float(l) / rows});
      }
    std::ostringstream caption;
    caption << depth << " splits drawn (of " << available - 1 << ")";
    tree.caption = caption.str();
    dendrogram_ = tree;
    dendrogramLevels_ = available;
    dendrogramDepth_ = depth;
  }
  Dendrogram tree = *dendrogram_;
  const std::size_t rows = std::max<std::size_t>(dendrogramDepth_, 1);
  if (std::size_t(shownLevel_) <= dendrogramDepth_) tree.marked = float(shownLevel_) / float(rows);
  std::ostringstream caption;
  caption << tree.caption << "; level " << shownLevel_ << " shown, Q "
          << gn_->levels()[std::min<std::size_t>(shownLevel_, available - 1)].modularity;
  tree.caption = caption.str();
  return tree;
}

std::vector<double> GraphModule::nodeMeasure() const {
  const std::string& by = params().getText("size_by");
  if (by == "closeness") return centrality_.closeness;
  if (by == "stress") return centrality_.stress;
  if (by == "graph") return centrality_.graph;
  if (by == "degree") {
    std::vector<double> d(graph_->vertices);
    for (std::uint32_t v = 0; v < graph_->vertices; ++v) d[v] = graph_->degree(v);
    return d;
  }
  return centrality_.betweenness;
}

void GraphModule::restyle(std::uint64_t step) {
  const std::uint32_t n = graph_->vertices;
  const std::size_t m = graph_->edges();
  const std::vector<float> measure = normalized(nodeMeasure());
  const std::string& colourBy = params().getText("colour_by");
  merges_.clear();
  std::vector<std::uint32_t> community = shownCommunities(&merges_);
  // Kept for the notes, which the GUI asks for every frame.
  plantedAgreement_ =
      planted_.empty() ? 0 : std::max(0.0, normalizedMutualInformation(community, planted_));
  shownCommunities_ = community.empty() ? 0 : renumberCommunities(community);
  if (gn_) {
    const std::int64_t level = params().getInt("level");
    shownLevel_ =
        int(level < 0 ? gn_->bestLevel() : std::min<std::size_t>(level, gn_->levels().size() - 1));
  }
  const float k = float(params().getFloat("spacing"));
  nodeStyle_.resize(2 * std::size_t(n));
  for (std::uint32_t v = 0; v < n; ++v) {
    nodeStyle_[2 * v] = k * (0.08f + 0.3f * std::sqrt(measure[v]));
    nodeStyle_[2 * v + 1] = colourBy == "centrality" ? measure[v]
                            : colourBy == "planted group" && !planted_.empty()
                                ? float(planted_[v])
                                : float(community[v]);
  }
  const std::vector<float> value =
      normalized(gn_ ? gn_->edgeBetweenness() : centrality_.edgeBetweenness);
  const float now = float(step);
  edgeStyle_.resize(2 * m);
  for (std::size_t e = 0; e < m; ++e) {
    const bool removed = removedAt_[e] != ~0u;
    edgeStyle_[2 * e] = removed ? 1.0f : value[e];
    edgeStyle_[2 * e + 1] =
        removed ? std::max(0.0f, 1 - (now - float(removedAt_[e])) / kFadeSteps) : 1.0f;
  }
  ++styleRevision_;
}

void GraphModule::layoutSteps() {
  if (!params().getBool("layout")) return;
  const int iterations = int(params().getInt("layout_steps"));
  const float cooling = float(params().getFloat("cooling"));
  // Repulsion reaches only the nearest cells, so a large graph would be squeezed by the pull
  // that suits 1,000 vertices: it weakens as the graph's natural radius grows.
  const float gravity = float(params().getFloat("gravity") *
                              std::sqrt(1000.0 / std::max(1000.0, double(graph_->vertices))));
  CpuStopwatch clock;
  for (int i = 0; i < iterations; ++i) {
    const LayoutParams lp{float(params().getFloat("spacing")), gravity, temperature_};
    if (backend() == Backend::Cuda)
      device_->layout.step(lp);
    else
      cpuLayout_->step(lp, gn_ ? gn_->removed() : std::vector<std::uint8_t>{});
    for (const auto& [v, at] : pinned_) {
      if (backend() == Backend::Cuda)
        device_->layout.place(v, at[0], at[1]);
      else
        cpuLayout_->place(v, at[0], at[1]);
    }
    temperature_ = std::max(0.05f, temperature_ * cooling);
  }
  if (backend() == Backend::Cuda) WS_CUDA_CHECK(cudaDeviceSynchronize());
  times().layout->record(clock.elapsedMs(), double(graph_->vertices) * iterations, 0);
}

void GraphModule::advance(int count) {
  const std::string& kind = params().getText("step");
  const bool louvain = params().getText("method") == "louvain";
  // The step's own work, timed as one sample per call (the benchmark counts on it).
  double ms = 0, work = 0;
  TimingScope* scope = nullptr;
  bool changed = false;
  for (int s = 0; s < count; ++s) {
    if (kind == "louvain") {
      runLouvain();
      ms += louvainMs_;
      work += double(graph_->edges());
      scope = times().louvain;
      changed = true;
    } else if (kind == "cluster" && !louvain && gn_ && !gn_->done()) {
      CpuStopwatch clock;
      const std::size_t before = gn_->removals().size();
      gn_->step();
      const double stepMs = clock.elapsedMs();
      gnMs_ += stepMs;
      ms += stepMs;
      work += double(gn_->removals().size() - before);
      scope = times().girvanNewman;
      for (std::size_t r = before; r < gn_->removals().size(); ++r)
        removedAt_[gn_->removals()[r]] = std::uint32_t(stepCount() + s);
      lastRemoval_ = stepCount() + std::uint64_t(s);
      modularityCurve_.values.push_back(float(modularity(*graph_, gn_->communitiesNow())));
      componentsCurve_.values.push_back(float(gn_->levels().back().components));
      for (Curve* c : {&modularityCurve_, &componentsCurve_})
        while (c->values.size() > kCurveLength) c->values.pop_front();
      changed = true;
    } else if (kind == "centrality") {
      computeCentrality();
      ms += centralityMs_;
      work += double(graph_->edges()) * centralitySources_;
      scope = times().centrality;
      changed = true;
    }
  }
  // Bytes only where the byte model holds: a centrality pass.
  if (scope) scope->record(ms, work, kind == "centrality" ? work * bytesPerWorkUnit() : 0);
  if (gn_ && backend() == Backend::Cuda && kind == "cluster" && !louvain)
    device_->layout.setRemoved(gn_->removed());  // the layout lets go of them
  layoutSteps();
  // Restyled when something shown changed, or while removed edges fade.
  const std::uint64_t reached = stepCount() + std::uint64_t(count);
  if (changed || (lastRemoval_ && double(reached) < double(*lastRemoval_) + kFadeSteps + 2))
    restyle(reached);
}

std::vector<Metric> GraphModule::metrics() {
  std::vector<Metric> out = {{"vertices", double(graph_->vertices)},
                             {"edges", double(graph_->edges())},
                             {"communities shown", double(shownCommunities_)}};
  if (gn_) {
    out.push_back({"edges removed", double(gn_->removals().size())});
    out.push_back({"components", double(gn_->levels().back().components)});
    out.push_back({"best Girvan-Newman Q", gn_->levels()[gn_->bestLevel()].modularity});
  }
  if (louvain_) out.push_back({"Louvain Q", louvain_->modularity});
  return out;
}

std::string GraphModule::notes() const {
  std::ostringstream out;
  out.precision(4);
  out << source_ << ": " << graph_->vertices << " vertices, " << graph_->edges() << " edges";
  const std::string report = report_.summary();
  if (!report.empty()) out << "\n" << report;
  if (report_.weighted) out << "\nthe edge weights are ignored: every method here is unweighted";
  out << "\ncentrality from "
      << (centralitySources_ == graph_->vertices && params().getInt("sources") == 0
              ? "every vertex"
              : std::to_string(centralitySources_) + " sampled sources")
      << " in " << centralityMs_ << " ms ("
      << centralityMs_ / std::max<std::uint32_t>(centralitySources_, 1) << " ms a source)";
  if (gn_) {
    const DendrogramLevel& best = gn_->levels()[gn_->bestLevel()];
    out << "\nGirvan-Newman: " << gn_->removals().size() << " of " << graph_->edges()
        << " edges removed in " << gnMs_ << " ms; best Q " << best.modularity << " at level "
        << gn_->bestLevel() << " (" << best.components << " communities, " << best.removals
        << " removals); showing level " << shownLevel_;
  } else {
    out << "\nwarning: Girvan-Newman is off past " << kGirvanNewmanEdges
        << " edges (it recomputes betweenness after every removal); Louvain is shown";
  }
  if (louvain_)
    out << "\nLouvain (" << (backend() == Backend::Cuda ? "synchronous, GPU" : "sequential, CPU")
        << "): Q " << louvain_->modularity << ", " << louvain_->communities << " communities, "
        << louvain_->levels << " levels, in " << louvainMs_ << " ms";
  if (!planted_.empty()) out << "\nagreement with the planted groups (NMI): " << plantedAgreement_;
  for (const Merge& m : merges_)
    out << "\nmerged communities " << m.a << " and " << m.b << " (affinity " << m.affinity << ")";
  if (picked_ >= 0) {
    const auto v = std::uint32_t(picked_);
    out << "\nnode " << graph_->label(v) << ": degree " << graph_->degree(v) << ", betweenness "
        << centrality_.betweenness[v] << ", closeness " << centrality_.closeness[v] << ", graph "
        << centrality_.graph[v];
    if (backend() == Backend::Cpu || stressShown()) out << ", stress " << centrality_.stress[v];
    if (gn_) out << ", component " << gn_->communitiesNow()[v];
  }
  if (!pinned_.empty()) out << "\n" << pinned_.size() << " nodes pinned where dragged";
  return out.str();
}

std::vector<float> GraphModule::positions() const {
  return backend() == Backend::Cuda ? device_->layout.positionsOnHost() : cpuLayout_->positions();
}

WorldBox GraphModule::world() const {
  const std::vector<float> p = positions();
  WorldBox box{0, 0, 1, 1};
  if (p.empty()) return box;
  box = {p[0], p[1], p[0], p[1]};
  for (std::size_t i = 0; i < p.size(); i += 2) {
    box.minX = std::min<double>(box.minX, p[i]);
    box.maxX = std::max<double>(box.maxX, p[i]);
    box.minY = std::min<double>(box.minY, p[i + 1]);
    box.maxY = std::max<double>(box.maxY, p[i + 1]);
  }
  const double pad = params().getFloat("spacing");
  return {box.minX - pad, box.minY - pad, box.maxX + pad, box.maxY + pad};
}

std::string GraphModule::sizeText() const {
  return std::to_string(graph_->vertices) + "v/" + std::to_string(graph_->edges()) + "e";
}

std::optional<GraphScene> GraphModule::graphScene() const {
  GraphScene scene;
  const bool grouped = quotientView();
  scene.nodes = grouped ? shownCommunities_ : graph_->vertices;
  scene.revision = grouped ? revision_ * 1000003 + styleRevision_ : revision_;
  const std::string& colourBy = params().getText("colour_by");
  if (colourBy == "centrality" && !grouped) {
    scene.nodeValue = {"centrality", params().getText("size_by") + " (of the largest)", 0, 1,
                       "viridis"};
  } else {
    const std::uint32_t groups = colourBy == "planted group" && !planted_.empty() && !grouped
                                     ? *std::max_element(planted_.begin(), planted_.end()) + 1
                                     : shownCommunities_;
    scene.nodeValue = {"community", "community", 0, float(std::max(groups, 1u)), "viridis"};
    scene.categories = int(std::max(groups, 1u));
  }
  if (grouped) {
    scene.edges = quotient().edges.size() / 2;
    scene.edgeValue = {"affinity", "affinity (of the largest)", 0, 1, "inferno"};
  } else {
    scene.edges = graph_->edges();
    scene.edgeValue = {"edge betweenness", "edge betweenness (of the largest)", 0, 1, "inferno"};
    scene.picked = picked_;
  }
  return scene;
}

const GraphModule::Quotient& GraphModule::quotient() const {
  if (quotient_.style == styleRevision_) return quotient_;
  Quotient& q = quotient_;
  q.community = shownCommunities();
  const std::uint32_t k = renumberCommunities(q.community);
  q.members.assign(k, 0);
  for (const std::uint32_t c : q.community) ++q.members[c];
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> between;
  for (std::size_t e = 0; e < graph_->edges(); ++e) {
    const std::uint32_t a = q.community[graph_->ends[2 * e]],
                        b = q.community[graph_->ends[2 * e + 1]];
    if (a != b) between[{std::min(a, b), std::max(a, b)}] += 1;
  }
  std::vector<double> affinity;
  q.ends.clear();
  for (const auto& [pair, count] : between) {
    affinity.push_back(count / (q.members[pair.first] * q.members[pair.second]));
    q.ends.insert(q.ends.end(), {pair.first, pair.second});
  }
  q.edges.clear();
  for (const float a : normalized(affinity)) q.edges.insert(q.edges.end(), {a, 0.35f + 0.65f * a});
  q.style = styleRevision_;
  return q;
}

std::vector<float> GraphModule::quotientNodes() const {
  const Quotient& q = quotient();
  const auto k = std::uint32_t(q.members.size());
  const std::vector<float> p = positions();
  std::vector<double> x(k, 0), y(k, 0);
  for (std::uint32_t v = 0; v < graph_->vertices; ++v) {
    x[q.community[v]] += p[2 * v];
    y[q.community[v]] += p[2 * v + 1];
  }
  const float spacing = float(params().getFloat("spacing"));
  std::vector<float> nodes(4 * std::size_t(k), 0);
  for (std::uint32_t c = 0; c < k; ++c) {
    nodes[4 * c] = float(x[c] / q.members[c]);
    nodes[4 * c + 1] = float(y[c] / q.members[c]);
    nodes[4 * c + 2] = spacing * 0.2f * float(std::sqrt(q.members[c]));
    nodes[4 * c + 3] = float(c);
  }
  return nodes;
}

void GraphModule::graphTopology(std::vector<std::uint32_t>& ends) const {
  ends.clear();
  if (quotientView()) {
    ends = quotient().ends;
    return;
  }
  ends = graph_->ends;
}

void GraphModule::renderGraph(GraphImage& image) {
  auto copy = [&](float* to, const float* from, std::size_t count, bool fromDevice) {
    if (count == 0) return;  // an empty graph: its vectors may have no storage at all
    if (!image.onDevice && !fromDevice)
      std::memcpy(to, from, count * sizeof(float));
    else
      WS_CUDA_CHECK(cudaMemcpy(to, from, count * sizeof(float), cudaMemcpyDefault));
  };
  if (quotientView()) {
    const std::vector<float> nodes = quotientNodes();
    const std::vector<float>& edges = quotient().edges;
    copy(image.nodes, nodes.data(), std::min(nodes.size(), 4 * image.nodeCount), false);
    copy(image.edges, edges.data(), std::min(edges.size(), 2 * image.edgeCount), false);
    return;
  }
  const std::uint32_t n = graph_->vertices;
  if (backend() == Backend::Cuda) {
    if (device_->styleRevision != styleRevision_) {
      WS_CUDA_CHECK(cudaMemcpy(device_->nodeStyle.data(), nodeStyle_.data(),
                               nodeStyle_.size() * sizeof(float), cudaMemcpyHostToDevice));
      WS_CUDA_CHECK(cudaMemcpy(device_->edgeStyle.data(), edgeStyle_.data(),
                               edgeStyle_.size() * sizeof(float), cudaMemcpyHostToDevice));
      device_->styleRevision = styleRevision_;
    }
    if (image.onDevice) {
      device_->layout.writeNodes(image.nodes, device_->nodeStyle.data());
      copy(image.edges, device_->edgeStyle.data(), edgeStyle_.size(), true);
      return;
    }
  }
  const std::vector<float> p = positions();
  for (std::uint32_t v = 0; v < n; ++v) {
    image.nodes[4 * v] = p[2 * v];
    image.nodes[4 * v + 1] = p[2 * v + 1];
    image.nodes[4 * v + 2] = nodeStyle_[2 * v];
    image.nodes[4 * v + 3] = nodeStyle_[2 * v + 1];
  }
  std::memcpy(image.edges, edgeStyle_.data(), edgeStyle_.size() * sizeof(float));
}

void GraphModule::edit(const PointerEdit& edit) {
  const std::vector<float> p = positions();
  const bool fresh = edit.x == edit.fromX && edit.y == edit.fromY;
  auto nearest = [&]() -> long {
    long best = -1;
    double bestD = INFINITY;
    for (std::uint32_t v = 0; v < graph_->vertices; ++v) {
      const double d = std::hypot(p[2 * v] - edit.x, p[2 * v + 1] - edit.y);
      if (d < bestD) best = v, bestD = d;
    }
    // Within two spacings (a click that misses every node lets go).
    return bestD < 2 * params().getFloat("spacing") ? best : -1;
  };
  if (edit.tool == "pick") {
    picked_ = nearest();
  } else if (edit.tool == "drag") {
    if (fresh) dragged_ = nearest();
    if (dragged_ < 0) return;
    const auto v = std::uint32_t(dragged_);
    const std::array<float, 2> at = {float(edit.x), float(edit.y)};
    auto it = std::find_if(pinned_.begin(), pinned_.end(),
                           [&](const auto& pin) { return pin.first == v; });
    if (it == pinned_.end())
      pinned_.emplace_back(v, at);
    else
      it->second = at;
    if (backend() == Backend::Cuda)
      device_->layout.place(v, at[0], at[1]);
    else
      cpuLayout_->place(v, at[0], at[1]);
    picked_ = dragged_;
  } else {
    throw InputError("the graph module has no tool '" + edit.tool + "'");
  }
}

void GraphModule::runAction(const std::string& action) {
  if (action == "recompute centrality") {
    computeCentrality();
  } else if (action == "unpin all") {
    pinned_.clear();
  } else if (action == "shake layout") {
    temperature_ = 1;
  } else {
    throw InputError("the graph module has no action '" + action + "'");
  }
  restyle(stepCount());
}

StateBlob GraphModule::saveState() {
  StateBlob state;
  nlohmann::json pins = nlohmann::json::array();
  for (const auto& [v, at] : pinned_) pins.push_back({v, at[0], at[1]});
  state.meta = {{"steps", stepCount()},
                {"removals", gn_ ? gn_->removals().size() : 0},
                {"temperature", temperature_},
                {"pinned", pins},
                {"dragged", dragged_}};
  const std::vector<float> p = positions();
  state.data.resize(p.size() * sizeof(float));
  std::memcpy(state.data.data(), p.data(), state.data.size());
  state.floatsFrom = 0;
  return state;
}

void GraphModule::restoreState(const StateBlob& state) {
  // Read and checked against the graph the parameters built, before anything changes.
  const SavedState saved(state, "graph");
  const std::size_t vertices = graph_->vertices;
  const std::uint64_t removals = saved.count("removals", graph_->edges());
  const std::uint64_t steps = saved.steps();
  const auto temperature = float(saved.number("temperature", 0, 1e6, 1.0));
  const auto dragged = std::int64_t(saved.number("dragged", -1, double(vertices) - 1, -1));
  if (!state.data.empty())
    saved.requireBytes(2 * vertices * sizeof(float), "two coordinates a vertex");
  // Far beyond any layout's reach, a position would take the layout's grid with it.
  constexpr float kFarthest = 1e6f;
  const std::vector<float> p = saved.floats(0, state.data.size() / sizeof(float), kFarthest);
  std::vector<std::pair<std::uint32_t, std::array<float, 2>>> pins;
  const auto pinned = saved.meta().find("pinned");
  if (pinned != saved.meta().end()) {
    if (!pinned->is_array()) saved.refuse("\"pinned\" is not a list");
    for (const auto& pin : *pinned) {
      if (!pin.is_array() || pin.size() != 3 || !pin[0].is_number_unsigned() ||
          pin[0].get<std::uint64_t>() >= vertices || !pin[1].is_number() || !pin[2].is_number() ||
          !(std::fabs(pin[1].get<double>()) <= kFarthest) ||
          !(std::fabs(pin[2].get<double>()) <= kFarthest))
        saved.refuse("a pin is not [vertex, x, y] within the graph and the layout's reach");
      pins.emplace_back(pin[0].get<std::uint32_t>(),
                        std::array<float, 2>{pin[1].get<float>(), pin[2].get<float>()});
    }
  }

  rebuild(params());
  while (gn_ && gn_->removals().size() < removals && gn_->step()) {
  }
  if (gn_) {
    for (std::size_t r = 0; r < gn_->removals().size(); ++r) removedAt_[gn_->removals()[r]] = 0;
    if (backend() == Backend::Cuda) device_->layout.setRemoved(gn_->removed());
  }
  if (!p.empty()) {
    if (backend() == Backend::Cuda)
      device_->layout.setPositions(p);
    else
      cpuLayout_->setPositions(p);
  }
  temperature_ = temperature;
  pinned_ = std::move(pins);
  dragged_ = picked_ = dragged;
  setStepCount(steps);
  clearTimings();
  restyle(stepCount());
}

void GraphModule::applyParams(const std::vector<std::string>& changed) {
  if (anyOf(changed, {"graph", "vertices", "degree", "groups", "mixing", "rewiring", "seed"})) {
    rebuild(params());
    return;
  }
  if (anyOf(changed, {"removals"})) startClustering();
  if (anyOf(changed, {"sources", "size_by"})) computeCentrality();
  restyle(stepCount());
}

void GraphModule::applySelection(Backend previous, const StateBlob& state) {
  if (previous == backend()) {  // another mapping: same results, recomputed with it
    computeCentrality();
    restyle(stepCount());
    return;
  }
  restoreState(state);
}

double GraphModule::bytesPerWorkUnit() const {
  // Per edge and source of a centrality pass, the least it moves: each of the edge's two arcs
  // read once forward and once backward (a 4-byte end and the 4-byte distance it is checked
  // against), and each vertex's 32-byte record written and read once, spread over the edges.
  const double arcsPerEdge = 2;
  return arcsPerEdge * 2 * 8 +
         2.0 * 32 * graph_->vertices / std::max<std::size_t>(graph_->edges(), 1);
}

std::optional<OpModel> GraphModule::opsPerWorkUnit() const {
  if (params().getText("step") != "centrality") return std::nullopt;
  // Per edge and source, on the edges that join two levels (each then an arc of the shortest-path
  // DAG): one add forward (the paths), and backward a division, a multiply and two adds for the
  // tail's share of the head's dependency, and one more into the edge's betweenness. The stress's
  // sums, when shown, come on top.
  if (!crossingShare_) {
    std::vector<std::uint32_t> from = sources();
    if (from.size() > 8 || from.empty())
      from = sampleSources(graph_->vertices, 8, std::uint64_t(params().getInt("seed")));
    crossingShare_ = levelCrossingShare(*graph_, from);
  }
  constexpr double kFlopsPerDagArc = 6;
  return OpModel{kFlopsPerDagArc * *crossingShare_, OpKind::Fp64};
}

std::vector<std::string> GraphModule::sweepSizes() const {
  const std::string& graph = params().getText("graph");
  if (params().getText("step") == "cluster" || !isGenerator(graph)) return {};
  if (graph == "alpha") return {"250", "1000", "4000", "16000"};  // O(n) an edge: up to 20,000
  return {"250", "1000", "4000", "16000", "64000", "256000", "1000000"};
}

const TimingScope& GraphModule::stepTiming() const {
  const std::string& kind = params().getText("step");
  if (kind == "centrality") return *times().centrality;
  if (kind == "layout") return *times().layout;
  if (kind == "louvain") return *times().louvain;
  return *times().girvanNewman;
}

}  // namespace ws::graph
