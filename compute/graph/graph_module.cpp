#include "compute/graph/graph_module.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <utility>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/memory.h"
#include "compute/core/output_file.h"
#include "compute/core/progress.h"
#include "compute/core/saved_state.h"
#include "compute/graph/generators.h"
#include "compute/graph/graph_catalog.h"
#include "compute/graph/graph_io.h"

namespace ws::graph {

namespace {

// Girvan-Newman recomputes betweenness after every removal: O(m^2 n) in all. Past this many edges
// it would take hours; Louvain is the method for those.
constexpr std::size_t kGirvanNewmanEdges = 50000;
// Sources when `sources` is 0 (all) but the graph is too large for all.
constexpr std::uint32_t kAllSourcesUpTo = 20000, kDefaultSample = 256;
}  // namespace

GraphModule::~GraphModule() = default;

GraphModule::GraphModule(Backend backend) : Module(backend) {
  declareGraphParams(declare(), backend == Backend::Cuda);
  cpuTimes_ = {&addTiming("girvan-newman step (CPU)", "removals/s", false),
               &addTiming("louvain (CPU)", "edges/s", false),
               &addTiming("centrality (CPU)", "edges/s", false),
               &addTiming("layout (CPU)", "vertices/s", false)};
  gpuTimes_ = {&addTiming("girvan-newman step (CUDA, host clock)", "removals/s", false),
               &addTiming("louvain (CUDA, host clock)", "edges/s", false),
               &addTiming("centrality (CUDA, host clock)", "edges/s", false),
               &addTiming("layout (CUDA, host clock)", "vertices/s", false)};
  readPlan();
  rebuild(params());
}

void GraphModule::readPlan() {
  using Kind = StepPlan::Kind;
  const std::string& kind = params().getText("step");
  plan_.kind = kind == "centrality" ? Kind::Centrality
               : kind == "louvain"  ? Kind::Louvain
               : kind == "layout"   ? Kind::Layout
                                    : Kind::Cluster;
  plan_.louvain = params().getText("method") == "louvain";
  plan_.layout = params().getBool("layout");
  plan_.layoutSteps = int(params().getInt("layout_steps"));
  plan_.spacing = float(params().getFloat("spacing"));
  plan_.gravity = float(params().getFloat("gravity"));
  plan_.cooling = float(params().getFloat("cooling"));
}

void GraphModule::setSize(const std::string& text) {
  setParam("vertices", params().parse("vertices", text));
}

std::vector<KernelVariant> GraphModule::variants(Backend backend) const {
  return graphVariants(backend);
}

std::string GraphModule::configuration() const {
  return engine_->configuration();
}

std::vector<std::uint32_t> GraphModule::sources() const {
  return sourcesOf(graph_->vertices);
}

std::vector<std::uint32_t> GraphModule::sourcesOf(std::uint32_t n) const {
  const auto wanted = std::uint32_t(params().getInt("sources"));
  if (wanted == 0 && n <= kAllSourcesUpTo) return {};
  return sampleSources(n, wanted ? wanted : kDefaultSample, std::uint64_t(params().getInt("seed")));
}

void GraphModule::rebuild(const ParamSet& p) {
  const std::string name = p.getText("graph");
  const auto n = std::uint32_t(p.getInt("vertices"));
  const double degree = p.getFloat("degree");
  const auto seed = std::uint64_t(p.getInt("seed"));
  // A generated graph's memory is known before it is made (about `degree` arcs a vertex, at the
  // cost per arc and vertex checked below once it exists): too large is refused first.
  if (isGenerator(name))
    requireHostMemory(double(n) * (std::max(degree, 4.0) * 16 + 64),
                      "a graph of " + std::to_string(n) + " vertices");
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
  std::unique_ptr<GraphEngine> engine = backend() == Backend::Cuda
                                            ? makeCudaGraphEngine(*g, seed, variant())
                                            : makeCpuGraphEngine(*g, seed);
  // The new graph's centrality and communities, the long part for a large one.
  CpuStopwatch clock;
  Centrality centrality;
  const std::uint32_t centralitySources = centralityOf(*g, *engine, centrality);
  const double centralityMs = clock.elapsedMs();
  clock = CpuStopwatch();
  LouvainResult louvain = engine->louvain();
  const double louvainMs = clock.elapsedMs();
  // Everything new is made: now the module changes, to the end (a cancel waits).
  const CannotCancel committing;
  gn_.reset();
  engine_.reset();  // before the graph it holds
  graph_ = std::move(g);
  crossingShare_.reset();
  engine_ = std::move(engine);
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
  spareCentrality_ = {};
  centralityMs_ = centralityMs;
  centralitySources_ = centralitySources;
  louvain_ = std::move(louvain);
  louvainMs_ = louvainMs;
  restartGirvanNewman();
  restart();
}

void GraphModule::reset() {
  rebuild(params());
}

std::uint32_t GraphModule::centralityOf(const Graph& g, GraphEngine& engine,
                                        Centrality& into) const {
  const std::vector<std::uint32_t> from = sourcesOf(g.vertices);
  engine.centrality(from, stressShown(), into);
  return from.empty() ? g.vertices : std::uint32_t(from.size());
}

void GraphModule::computeCentrality() {
  CpuStopwatch clock;
  Centrality next = std::move(spareCentrality_);
  const std::uint32_t sources = centralityOf(*graph_, *engine_, next);
  spareCentrality_ = std::exchange(centrality_, std::move(next));
  centralitySources_ = sources;
  centralityMs_ = clock.elapsedMs();
}

void GraphModule::runLouvain() {
  CpuStopwatch clock;
  louvain_ = engine_->louvain();
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
    CpuStopwatch clock;
    gn_ = std::make_unique<GirvanNewman>(*graph_, engine_->betweenness(),
                                         std::uint32_t(params().getInt("removals")),
                                         engine_->components());
    gnMs_ = clock.elapsedMs();
    modularityCurve_.values.push_back(float(gn_->levels().back().modularity));
    componentsCurve_.values.push_back(float(gn_->levels().back().components));
  }
  engine_->setRemoved(gn_ ? gn_->removed() : std::vector<std::uint8_t>{});
  restyle(stepCount());
}

bool GraphModule::stressShown() const {
  return params().getText("size_by") == "stress";
}

bool GraphModule::quotientView() const {
  return params().getText("view") == "communities";
}

void GraphModule::layoutSteps() {
  if (!plan_.layout) return;
  const int iterations = plan_.layoutSteps;
  // Repulsion reaches only the nearest cells, so a large graph would be squeezed by the pull
  // that suits 1,000 vertices: it weakens as the graph's natural radius grows.
  const float gravity =
      float(plan_.gravity * std::sqrt(1000.0 / std::max(1000.0, double(graph_->vertices))));
  CpuStopwatch clock;
  for (int i = 0; i < iterations; ++i) {
    engine_->layoutStep(LayoutParams{plan_.spacing, gravity, temperature_});
    for (const auto& [v, at] : pinned_) engine_->place(v, at[0], at[1]);
    temperature_ = std::max(0.05f, temperature_ * plan_.cooling);
  }
  engine_->synchronize();
  times().layout->record(clock.elapsedMs(), double(graph_->vertices) * iterations, 0);
}

void GraphModule::advance(int count) {
  using Kind = StepPlan::Kind;
  const Kind kind = plan_.kind;
  // The step's own work, timed as one sample per call (the benchmark counts on it).
  double ms = 0, work = 0;
  TimingScope* scope = nullptr;
  bool changed = false;
  for (int s = 0; s < count; ++s) {
    if (kind == Kind::Louvain) {
      runLouvain();
      ms += louvainMs_;
      work += double(graph_->edges());
      scope = times().louvain;
      changed = true;
    } else if (kind == Kind::Cluster && !plan_.louvain && gn_ && !gn_->done()) {
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
    } else if (kind == Kind::Centrality) {
      computeCentrality();
      ms += centralityMs_;
      work += double(graph_->edges()) * centralitySources_;
      scope = times().centrality;
      changed = true;
    }
  }
  // Bytes only where the byte model holds: a centrality pass.
  if (scope) scope->record(ms, work, kind == Kind::Centrality ? work * bytesPerWorkUnit() : 0);
  if (gn_ && kind == Kind::Cluster && !plan_.louvain)
    engine_->setRemoved(gn_->removed());  // the layout lets go of them
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
  // NMI is a score from 0 to 1: three decimals, so that one community's 0 (the sum of
  // q log 1 rounding off) reads 0.000 rather than 4.7e-14.
  if (!planted_.empty()) {
    std::ostringstream nmi;
    nmi.setf(std::ios::fixed);
    nmi.precision(3);
    nmi << std::clamp(plantedAgreement_, 0.0, 1.0);
    out << "\nagreement with the planted groups (NMI): " << nmi.str();
  }
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
  if (!exported_.empty()) out << "\nwrote " << exported_;
  return out.str();
}

std::vector<float> GraphModule::positions() const {
  return engine_->positions();
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

namespace {

// What dragging a node changed: its place and its pin, before and after.
struct GraphChange final : EditChange {
  std::uint32_t node = 0;
  struct Where {
    std::array<float, 2> at;
    bool pinned;
  } before, after;
  std::size_t bytes() const override { return sizeof *this; }
};

}  // namespace

std::unique_ptr<EditChange> GraphModule::edit(const PointerEdit& edit) {
  const std::vector<float> p = positions();
  auto nearest = [&](double x, double y) -> long {
    const auto [node, distance] = nearestNode(p, x, y);
    // Within two spacings (a click that misses every node lets go).
    return distance < 2 * params().getFloat("spacing") ? node : -1;
  };
  if (edit.tool == "pick") {
    picked_ = nearest(edit.x, edit.y);
    return nullptr;
  }
  if (edit.tool != "drag") throw InputError("the graph module has no tool '" + edit.tool + "'");
  // The press takes the node nearest to where the drag began; the drag carries it along.
  if (edit.start) dragged_ = nearest(edit.fromX, edit.fromY);
  if (dragged_ < 0) return nullptr;
  const auto v = std::uint32_t(dragged_);
  auto change = std::make_unique<GraphChange>();
  change->node = v;
  change->before = {{p[2 * v], p[2 * v + 1]}, pinAt(v) != pinned_.end()};
  change->after = {{float(edit.x), float(edit.y)}, true};
  put(v, change->after.at, true);
  picked_ = dragged_;
  return change;
}

void GraphModule::revert(const EditChange& edit, bool redo) {
  const auto& change = dynamic_cast<const GraphChange&>(edit);
  if (change.node >= graph_->vertices) return;  // of another graph
  const GraphChange::Where& to = redo ? change.after : change.before;
  put(change.node, to.at, to.pinned);
}

std::vector<GraphModule::Pin>::iterator GraphModule::pinAt(std::uint32_t v) {
  return std::find_if(pinned_.begin(), pinned_.end(),
                      [&](const auto& pin) { return pin.first == v; });
}

void GraphModule::put(std::uint32_t v, std::array<float, 2> at, bool pinned) {
  const auto pin = pinAt(v);
  if (!pinned && pin != pinned_.end())
    pinned_.erase(pin);
  else if (pinned && pin == pinned_.end())
    pinned_.emplace_back(v, at);
  else if (pinned)
    pin->second = at;
  engine_->place(v, at[0], at[1]);
}

GraphTable GraphModule::table() const {
  GraphTable t;
  t.graph = graph_.get();
  t.positions = positions();
  const std::uint32_t n = graph_->vertices;
  // A column of `count` values; what was not computed is NaN (an empty cell).
  const auto column = [](std::string name, bool integer, const auto& values, std::size_t count) {
    Attribute a{std::move(name), integer, std::vector<double>(values.begin(), values.end())};
    a.values.resize(count, NAN);
    return a;
  };
  const auto node = [&](std::string name, bool integer, const auto& values) {
    t.nodes.push_back(column(std::move(name), integer, values, n));
  };
  std::vector<double> degree(n);
  for (std::uint32_t v = 0; v < n; ++v) degree[v] = graph_->degree(v);
  node("degree", true, degree);
  node("betweenness", false, centrality_.betweenness);
  node("closeness", false, centrality_.closeness);
  node("graph_centrality", false, centrality_.graph);
  if (backend() == Backend::Cpu || stressShown()) node("stress", false, centrality_.stress);
  if (const auto shown = shownCommunities(); !shown.empty()) node("community", true, shown);
  if (louvain_) node("louvain", true, louvain_->community);
  if (!planted_.empty()) node("planted", true, planted_);
  // Every Girvan-Newman level the dendrogram draws (while the communities stay few).
  if (gn_)
    for (std::size_t l = 0; l < gn_->levels().size(); ++l) {
      if (gn_->levels()[l].components > kDendrogramLeaves && l > 0) break;
      node("gn_level_" + std::to_string(l), true, gn_->communities(l));
    }
  const std::size_t edges = graph_->edges();
  t.edges.push_back(column("betweenness", false, centrality_.edgeBetweenness, edges));
  if (gn_) {
    std::vector<double> removed(edges, NAN);
    for (std::size_t e = 0; e < edges && e < removedAt_.size(); ++e)
      if (removedAt_[e] != ~0u) removed[e] = removedAt_[e];
    t.edges.push_back(column("removed_at_step", true, removed, edges));
  }
  return t;
}

std::pair<long, double> GraphModule::nearestNode(const std::vector<float>& p, double x,
                                                 double y) const {
  long best = -1;
  double bestD = INFINITY;
  for (std::uint32_t v = 0; v < graph_->vertices; ++v)
    if (const double d = std::hypot(p[2 * v] - x, p[2 * v + 1] - y); d < bestD) best = v, bestD = d;
  return {best, bestD};
}

std::string GraphModule::describeAt(double x, double y) const {
  if (quotientView()) return "";
  const auto [best, distance] = nearestNode(positions(), x, y);
  if (best < 0 || distance > params().getFloat("spacing")) return "";
  const auto v = std::uint32_t(best);
  std::string text =
      "node " + std::to_string(graph_->label(v)) + ": degree " + std::to_string(graph_->degree(v));
  if (const auto shown = shownCommunities(); v < shown.size())
    text += ", community " + std::to_string(shown[v]);
  return text;
}

std::vector<Module::ViewLabel> GraphModule::viewLabels() const {
  if (picked_ < 0 || quotientView()) return {};
  const std::vector<float> p = positions();
  const auto v = std::size_t(picked_);
  return {{p[2 * v], p[2 * v + 1], "node " + std::to_string(graph_->label(std::uint32_t(v)))}};
}

void GraphModule::runAction(const std::string& action) {
  if (action.rfind("export ", 0) == 0) {
    const GraphTable t = table();
    const std::string stem = "warpscope-graph-step" + std::to_string(stepCount());
    if (action == "export CSV") {
      const std::string nodes = freshOutputPath(stem + "-nodes.csv");
      writeNodesCsv(nodes, t);
      const std::string edges = freshOutputPath(stem + "-edges.csv");
      writeEdgesCsv(edges, t);
      exported_ = nodes + " and " + edges;
    } else if (action == "export GraphML") {
      exported_ = freshOutputPath(stem + ".graphml");
      writeGraphMl(exported_, t);
    } else if (action == "export GEXF") {
      exported_ = freshOutputPath(stem + ".gexf");
      writeGexf(exported_, t);
    } else {
      throw InputError("the graph module has no action '" + action + "'");
    }
    return;
  }
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
    engine_->setRemoved(gn_->removed());
  }
  if (!p.empty()) engine_->setPositions(p);
  temperature_ = temperature;
  pinned_ = std::move(pins);
  dragged_ = picked_ = dragged;
  setStepCount(steps);
  clearTimings();
  restyle(stepCount());
}

void GraphModule::applyParams(const std::vector<std::string>& changed) {
  const StepPlan before = plan_;
  readPlan();  // what the graph shows follows it
  try {
    if (anyOf(changed, {"graph", "vertices", "degree", "groups", "mixing", "rewiring", "seed"})) {
      rebuild(params());
      return;
    }
    if (anyOf(changed, {"removals"})) startClustering();
    if (anyOf(changed, {"sources", "size_by"})) computeCentrality();
    restyle(stepCount());
  } catch (...) {
    plan_ = before;  // with the parameters
    throw;
  }
}

void GraphModule::applySelection(Backend previous, const StateBlob& state) {
  if (previous == backend()) {  // another mapping: same results, recomputed with it
    engine_->useVariant(variant());
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
  if (plan_.kind != StepPlan::Kind::Centrality) return std::nullopt;
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
  if (plan_.kind == StepPlan::Kind::Cluster || !isGenerator(graph)) return {};
  if (graph == "alpha") return {"250", "1000", "4000", "16000"};  // O(n) an edge: up to 20,000
  return {"250", "1000", "4000", "16000", "64000", "256000", "1000000"};
}

const TimingScope& GraphModule::stepTiming() const {
  switch (plan_.kind) {
    case StepPlan::Kind::Centrality:
      return *times().centrality;
    case StepPlan::Kind::Layout:
      return *times().layout;
    case StepPlan::Kind::Louvain:
      return *times().louvain;
    case StepPlan::Kind::Cluster:
      break;
  }
  return *times().girvanNewman;
}

}  // namespace ws::graph
