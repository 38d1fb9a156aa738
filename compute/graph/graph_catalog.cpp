#include "compute/graph/graph_catalog.h"

#include <algorithm>
#include <cstdio>

#include "compute/core/json_input.h"
#include "compute/graph/graph_io.h"

namespace ws::graph {

namespace {

const std::vector<std::string> kGenerators = {"planted", "barabasi-albert", "watts-strogatz",
                                              "alpha", "grid"};
constexpr std::int64_t kMaxVertices = std::int64_t(1) << 24;
}  // namespace

bool isGenerator(const std::string& name) {
  return std::find(kGenerators.begin(), kGenerators.end(), name) != kGenerators.end();
}

namespace {

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

}  // namespace

void declareGraphParams(ParamSet& p, bool gpu) {
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
}

std::vector<KernelVariant> graphVariants(Backend backend) {
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
  return describe(graphMappings());
}

const VariantCatalog<Parallelism>& graphMappings() {
  const std::vector<std::string> tuned = {"sources"};
  static const VariantCatalog<Parallelism> catalog = {
      {{"edge", "edge-parallel (chapter 2)",
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
       Parallelism::Edge},
      {{"node", "node-parallel",
        "A thread per vertex, every level: a vertex on the level walks its own arcs. Work per "
        "thread follows the degree: on a scale-free graph one hub's thread holds up the 31 others "
        "of its warp (divergence), while most of the warp's vertices are not on the level at all.",
        tuned, "ch. 2 Table 2.4 (GTX 480, 2010): BFS of flickr 26.7 ms"},
       Parallelism::Node},
      {{"permuted-edge", "edge-parallel, arcs permuted",
        "The edge-parallel kernel with the arcs in random order: the same even work per thread, "
        "but neighbouring threads now read far-apart memory (uncoalesced). The chapter's control: "
        "slower than both on most graphs (here a warp's arcs also no longer share tails, so each "
        "adds its own atomic), which shows that coalescing, not only even work, makes "
        "the edge-parallel kernel fast (flickr on the GTX 480: 134.8 ms).",
        tuned,
        "ch. 2 Table 2.4 (GTX 480, 2010): BFS of flickr 134.8 ms, 11x slower than edge-parallel"},
       Parallelism::PermutedEdge},
      {{"frontier", "frontier (beyond the chapter)",
        "A thread per arc of the level's frontier only: the vertices on the level (every source "
        "of the batch together) are a list, the running sums of their degrees (CUB's scan) give "
        "each of their arcs a thread, which finds its vertex by a binary search, and a vertex "
        "reached first (a compare-and-swap) joins the next level's list. Each arc is looked at "
        "once each way, where the edge-parallel kernel looks at every arc at every level: on a "
        "grid's thousand thin levels that is most of its time. A level whose frontier holds most "
        "of the arcs (the middle levels of a scale-free graph) runs the edge-parallel scan "
        "instead, whose threads do less each; but forward, once few vertices are left unreached, "
        "it goes from below (each unreached vertex looks among its own arcs for parents on the "
        "level), and backward, where the next level is thin, from above (that level's arcs back "
        "to this one) (Merrill, Garland and Grimshaw's frontier, 2012; the switches by density "
        "and direction after Beamer's direction-optimizing search).",
        tuned,
        "Merrill, Garland and Grimshaw, Scalable GPU Graph Traversal (PPoPP 2012): work-efficient "
        "frontiers expanded by prefix sums"},
       Parallelism::Frontier}};
  return catalog;
}

}  // namespace ws::graph
