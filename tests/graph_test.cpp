// The graph module's CPU core: building graphs and reading them from files, the generators, and
// centrality by Brandes' algorithm against brute-force enumeration of shortest paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "compute/core/errors.h"
#include "compute/graph/centrality.h"
#include "compute/graph/generators.h"
#include "compute/graph/graph_io.h"
#include "compute/graph/layout.h"
#include "tests/graph_shapes.h"
#include "tests/test_support.h"

namespace ws::graph {
namespace {

// All-pairs distances and shortest-path counts by breadth-first search from every vertex.
struct AllPairs {
  std::vector<std::vector<int>> d;
  std::vector<std::vector<double>> sigma;
};
AllPairs allPairs(const Graph& g) {
  AllPairs ap;
  ap.d.assign(g.vertices, std::vector<int>(g.vertices, -1));
  ap.sigma.assign(g.vertices, std::vector<double>(g.vertices, 0));
  for (std::uint32_t s = 0; s < g.vertices; ++s) {
    std::vector<std::uint32_t> queue = {s};
    ap.d[s][s] = 0;
    ap.sigma[s][s] = 1;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      const std::uint32_t v = queue[h];
      for (std::uint32_t a = g.offset[v]; a < g.offset[v + 1]; ++a) {
        const std::uint32_t w = g.arcTo[a];
        if (ap.d[s][w] < 0) ap.d[s][w] = ap.d[s][v] + 1, queue.push_back(w);
        if (ap.d[s][w] == ap.d[s][v] + 1) ap.sigma[s][w] += ap.sigma[s][v];
      }
    }
  }
  return ap;
}

// Brandes' values against the definitions, pair by pair: a vertex v is on a shortest s-t path
// when d(s,v) + d(v,t) = d(s,t), on sigma(s,v) sigma(v,t) of them; an edge (u,w) likewise.
void expectCentralityByEnumeration(const Graph& g, const char* name) {
  SCOPED_TRACE(name);
  const AllPairs ap = allPairs(g);
  const Centrality c = centralityOnCpu(g);
  const std::uint32_t n = g.vertices;
  std::vector<double> bc(n, 0), stress(n, 0), ebc(g.edges(), 0);
  double distances = 0;
  for (std::uint32_t s = 0; s < n; ++s)
    for (std::uint32_t t = s + 1; t < n; ++t) {
      if (ap.d[s][t] < 0) continue;
      distances += ap.d[s][t];
      for (std::uint32_t v = 0; v < n; ++v) {
        if (v == s || v == t || ap.d[s][v] < 0 || ap.d[v][t] < 0) continue;
        if (ap.d[s][v] + ap.d[v][t] != ap.d[s][t]) continue;
        bc[v] += ap.sigma[s][v] * ap.sigma[v][t] / ap.sigma[s][t];
        stress[v] += ap.sigma[s][v] * ap.sigma[v][t];
      }
      for (std::size_t e = 0; e < g.edges(); ++e)
        for (const auto& [u, w] : {std::pair{g.ends[2 * e], g.ends[2 * e + 1]},
                                   std::pair{g.ends[2 * e + 1], g.ends[2 * e]}})
          if (ap.d[s][u] >= 0 && ap.d[w][t] >= 0 && ap.d[s][u] + 1 + ap.d[w][t] == ap.d[s][t])
            ebc[e] += ap.sigma[s][u] * ap.sigma[w][t] / ap.sigma[s][t];
    }
  for (std::uint32_t v = 0; v < n; ++v) {
    EXPECT_NEAR(c.betweenness[v], bc[v], 1e-9 * (1 + bc[v])) << "vertex " << v;
    EXPECT_NEAR(c.stress[v], stress[v], 1e-9 * (1 + stress[v])) << "vertex " << v;
    double sum = 0, far = 0;
    for (std::uint32_t t = 0; t < n; ++t)
      if (ap.d[v][t] > 0) sum += ap.d[v][t], far = std::max(far, double(ap.d[v][t]));
    EXPECT_NEAR(c.closeness[v], sum > 0 ? 1 / sum : 0, 1e-12) << "vertex " << v;
    EXPECT_NEAR(c.graph[v], far > 0 ? 1 / far : 0, 1e-12) << "vertex " << v;
  }
  double edgeSum = 0;
  for (std::size_t e = 0; e < g.edges(); ++e) {
    EXPECT_NEAR(c.edgeBetweenness[e], ebc[e], 1e-9 * (1 + ebc[e])) << "edge " << e;
    edgeSum += c.edgeBetweenness[e];
  }
  // Each shortest path of length d crosses d edges: the edge sums are the pairs' distances.
  EXPECT_NEAR(edgeSum, distances, 1e-9 * distances);
}

TEST(GraphCentrality, BrandesMatchesEnumerationOnSmallGraphs) {
  expectCentralityByEnumeration(path(7), "path");
  expectCentralityByEnumeration(star(6), "star");
  expectCentralityByEnumeration(cycle(8), "cycle of 8");
  expectCentralityByEnumeration(cycle(9), "cycle of 9");
  expectCentralityByEnumeration(complete(6), "complete");
  expectCentralityByEnumeration(barbell(5), "barbell");
  expectCentralityByEnumeration(grid(5, 4), "grid");
  expectCentralityByEnumeration(fromPairs(6, {{0, 1}, {1, 2}, {3, 4}}), "two pieces and a loner");
  const std::uint64_t seed = ws::test::freshSeed();
  expectCentralityByEnumeration(barabasiAlbert(40, 2, seed), "scale-free");
  expectCentralityByEnumeration(wattsStrogatz(30, 4, 0.2, seed), "small world");
}

// Values known in closed form: the path's middle, the star's centre, the barbell's bridge.
TEST(GraphCentrality, KnownValues) {
  const Centrality p = centralityOnCpu(path(5));
  EXPECT_DOUBLE_EQ(p.betweenness[2], 4);  // pairs (0|1, 3|4) pass through 2
  EXPECT_DOUBLE_EQ(p.betweenness[0], 0);
  const Centrality s = centralityOnCpu(star(5));
  EXPECT_DOUBLE_EQ(s.betweenness[0], 10);  // all C(5, 2) leaf pairs
  const Graph b = barbell(4);
  const Centrality c = centralityOnCpu(b);
  const auto bridge = std::max_element(c.edgeBetweenness.begin(), c.edgeBetweenness.end()) -
                      c.edgeBetweenness.begin();
  EXPECT_EQ(b.ends[2 * bridge], 3u);
  EXPECT_EQ(b.ends[2 * bridge + 1], 4u);
  EXPECT_DOUBLE_EQ(c.edgeBetweenness[bridge], 16);  // 4 x 4 pairs cross it
}

// A grid's corner-to-corner path counts pass 2^63 at 34 x 34 (C(66, 33)); in doubles the
// dependencies stay right: from one corner of a 40 x 40 grid, the edge dependencies sum to the
// distances to every vertex, sum of (x + y) = 62,400 (scaled by the sample's 0.5 x 1600 / 1).
TEST(GraphCentrality, PathCountsDoNotOverflowOnGrids) {
  const Centrality c = centralityOnCpu(grid(40, 40), {0});
  double edges = 0;
  for (double v : c.edgeBetweenness) edges += v;
  EXPECT_NEAR(edges / (0.5 * 1600), 62400, 1e-6);
}

// The edges a sweep does arithmetic on (the roofline's operation model): every edge of a grid
// joins two levels (a grid is bipartite); from a barbell's corner, the 3 + 3 edges inside the
// cliques' far levels do not (7 of 13 do); an edge out of reach does not either.
TEST(GraphCentrality, LevelCrossingEdges) {
  EXPECT_DOUBLE_EQ(levelCrossingShare(grid(5, 5), {0, 12, 24}), 1.0);
  EXPECT_DOUBLE_EQ(levelCrossingShare(barbell(4), {0}), 7.0 / 13.0);
  const Graph two = buildGraph(4, {{0, 1}, {2, 3}});
  EXPECT_DOUBLE_EQ(levelCrossingShare(two, {0}), 0.5);
  EXPECT_DOUBLE_EQ(levelCrossingShare(two, {0, 2}), 0.5);
  EXPECT_DOUBLE_EQ(levelCrossingShare(two, {}), 0.0);
}

TEST(GraphCentrality, RemovedEdgesAreNotThere) {
  const Graph b = barbell(4);
  std::vector<std::uint8_t> removed(b.edges(), 0);
  for (std::size_t e = 0; e < b.edges(); ++e)
    if (b.ends[2 * e] == 3 && b.ends[2 * e + 1] == 4) removed[e] = 1;
  std::uint32_t count = 0;
  const auto component = components(b, removed, &count);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(component[0], 0u);
  EXPECT_EQ(component[7], 1u);
  const Centrality c = centralityOnCpu(b, {}, removed);
  for (double v : c.betweenness) EXPECT_DOUBLE_EQ(v, 0);  // two cliques: no vertex between
}

TEST(GraphBuild, SelfLoopsDropAndDuplicatesMerge) {
  GraphReport report;
  const Graph g = buildGraph(4, {{0, 1}, {1, 0}, {2, 2}, {1, 2}, {1, 2}, {3, 1}}, &report);
  EXPECT_EQ(g.edges(), 3u);
  EXPECT_EQ(report.selfLoops, 1u);
  EXPECT_EQ(report.duplicates, 2u);
  EXPECT_EQ(g.degree(1), 3u);
  for (std::uint32_t v = 0; v < g.vertices; ++v)
    for (std::uint32_t a = g.offset[v]; a < g.offset[v + 1]; ++a) {
      EXPECT_EQ(g.arcFrom[a], v);
      if (a > g.offset[v]) EXPECT_LT(g.arcTo[a - 1], g.arcTo[a]);
      const std::uint32_t e = g.arcEdge[a];
      EXPECT_EQ(std::min(v, g.arcTo[a]), g.ends[2 * e]);
      EXPECT_EQ(std::max(v, g.arcTo[a]), g.ends[2 * e + 1]);
    }
}

// Components against a brute-force flood fill on random graphs.
TEST(GraphBuild, ComponentsMatchAFloodFill) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 rng(seed);
  const Graph g = plantedPartition(8, 20, 0.15, 0.002, seed);
  std::vector<std::uint8_t> removed(g.edges());
  for (auto& r : removed) r = rng() % 3 == 0;
  std::uint32_t count = 0;
  const auto component = components(g, removed, &count);
  std::vector<int> flood(g.vertices, -1);
  int next = 0;
  for (std::uint32_t v = 0; v < g.vertices; ++v) {
    if (flood[v] >= 0) continue;
    std::vector<std::uint32_t> stack = {v};
    flood[v] = next;
    while (!stack.empty()) {
      const std::uint32_t u = stack.back();
      stack.pop_back();
      for (std::uint32_t a = g.offset[u]; a < g.offset[u + 1]; ++a)
        if (!removed[g.arcEdge[a]] && flood[g.arcTo[a]] < 0)
          flood[g.arcTo[a]] = next, stack.push_back(g.arcTo[a]);
    }
    ++next;
  }
  EXPECT_EQ(int(count), next) << "seed " << seed;
  for (std::uint32_t v = 0; v < g.vertices; ++v) EXPECT_EQ(int(component[v]), flood[v]);
}

TEST(GraphGenerators, SizesAndDegrees) {
  const std::uint64_t seed = ws::test::freshSeed();
  const Graph ba = barabasiAlbert(2000, 3, seed);
  EXPECT_EQ(ba.edges(), 3u * 2000 - 6);  // the 4-clique's 6 edges, then 3 a vertex
  EXPECT_GT(ba.maxDegree(), 40u) << "hubs";
  const Graph ws = wattsStrogatz(1000, 6, 0.1, seed);
  EXPECT_EQ(ws.edges(), 3000u);
  const Graph gr = grid(30, 20);
  EXPECT_EQ(gr.edges(), 29u * 20 + 30 * 19);
  EXPECT_EQ(gr.maxDegree(), 4u);
  std::vector<std::uint32_t> community;
  const Graph pp = plantedPartition(4, 50, 0.3, 0.01, seed, &community);
  std::size_t inside = 0;
  for (std::size_t e = 0; e < pp.edges(); ++e)
    inside += community[pp.ends[2 * e]] == community[pp.ends[2 * e + 1]];
  // Expected: 4 x C(50, 2) x 0.3 = 1470 inside, 6 x 2500 x 0.01 = 150 across.
  EXPECT_NEAR(double(inside), 1470, 150) << "seed " << seed;
  EXPECT_NEAR(double(pp.edges() - inside), 150, 50) << "seed " << seed;
  const Graph alpha = wattsAlpha(300, 8, 2.0, 1e-4, seed);
  EXPECT_EQ(alpha.edges(), 1200u);
  EXPECT_THROW(wattsStrogatz(10, 3, 0.1, 1), InputError);
  EXPECT_THROW(barabasiAlbert(3, 3, 1), InputError);
}

TEST(GraphIo, TheKarateClubLoadsWithItsWeights) {
  GraphReport report;
  const Graph g = loadGraph(graphPathOf("karate"), &report);
  EXPECT_EQ(g.vertices, 34u);
  EXPECT_EQ(g.edges(), 78u);
  EXPECT_TRUE(report.weighted);
  EXPECT_EQ(g.label(0), 1u);
  EXPECT_EQ(g.label(33), 34u);
  EXPECT_EQ(g.degree(33), 17u);  // the administrator
  EXPECT_EQ(g.degree(0), 16u);   // the instructor
}

TEST(GraphIo, EdgeListsAndMatrixMarket) {
  std::istringstream list("# comment\n% another\n10 20\n20 30 0.5\n\n30 10\n10 10\n");
  GraphReport report;
  const Graph g = readEdgeList(list, "list", &report);
  EXPECT_EQ(g.vertices, 3u);
  EXPECT_EQ(g.edges(), 3u);
  EXPECT_EQ(report.selfLoops, 1u);
  EXPECT_TRUE(report.weighted);
  EXPECT_EQ(g.label(2), 30u);
  EXPECT_EQ(report.summary(), "1 self-loops dropped, weights read and ignored");
  std::istringstream mtx(
      "%%MatrixMarket matrix coordinate pattern symmetric\n% c\n4 4 3\n2 1\n3 2\n4 3\n");
  const Graph m = readMatrixMarket(mtx, "m.mtx");
  EXPECT_EQ(m.vertices, 4u);
  EXPECT_EQ(m.edges(), 3u);
}

// Each malformed file is refused with its line (and column).
TEST(GraphIo, MalformedFilesSayWhere) {
  auto line = [](const std::string& text, bool matrix) {
    std::istringstream in(text);
    try {
      if (matrix)
        readMatrixMarket(in, "f");
      else
        readEdgeList(in, "f");
    } catch (const ParseError& e) {
      return e.line();
    }
    return 0;
  };
  EXPECT_EQ(line("1 2\n3\n", false), 2);          // one id
  EXPECT_EQ(line("1 2\n3 x\n", false), 2);        // not a number
  EXPECT_EQ(line("1 2\n-3 4\n", false), 2);       // negative
  EXPECT_EQ(line("1 2\n3 4 1.0 9\n", false), 2);  // a field too many
  EXPECT_EQ(line("1 2\n3 4 w\n", false), 2);      // weight not a number
  EXPECT_EQ(line("%%MatrixMarket matrix array real general\n2 2\n", true), 1);
  EXPECT_EQ(line("%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 2\n", true), 2);
  EXPECT_EQ(line("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", true), 3);
  EXPECT_EQ(line("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 4\n", true), 3);
  EXPECT_EQ(line("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n", true), 4);
  EXPECT_EQ(line("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", true), 3);
  EXPECT_THROW(loadGraph("/no/such/graph.txt"), InputError);
}

// Runs `steps` layout steps with the temperature cooling from 1 to 0.02.
Layout laidOut(const Graph& g, int steps, std::uint64_t seed) {
  Layout layout(g, seed);
  LayoutParams params;
  for (int s = 0; s < steps; ++s) {
    params.temperature = std::max(0.02f, 1 - float(s) / float(steps));
    layout.step(params);
  }
  return layout;
}

float distance(const std::vector<float>& p, std::uint32_t a, std::uint32_t b) {
  return std::hypot(p[2 * a] - p[2 * b], p[2 * a + 1] - p[2 * b + 1]);
}

// A grid laid out from random places: its edges end up near one length (the forces' balance),
// and the same seed gives the same drawing.
TEST(GraphLayout, AGridSettlesToEvenEdges) {
  const std::uint64_t seed = ws::test::freshSeed();
  const Graph g = grid(10, 10);
  const Layout layout = laidOut(g, 400, seed);
  const std::vector<float>& p = layout.positions();
  double sum = 0, squares = 0;
  for (std::size_t e = 0; e < g.edges(); ++e) {
    const double l = distance(p, g.ends[2 * e], g.ends[2 * e + 1]);
    sum += l;
    squares += l * l;
  }
  const double mean = sum / double(g.edges());
  const double spread = std::sqrt(squares / double(g.edges()) - mean * mean) / mean;
  // Laid out, the spread runs up to about 0.32 over random starts (2 in 100 of them above 0.3,
  // the tail of one distribution, no folds); unlaid, random points' distances spread by about
  // 0.5.
  EXPECT_LT(spread, 0.35) << "mean " << mean << ", seed " << seed;
  EXPECT_GT(mean, 0.3);
  EXPECT_EQ(laidOut(g, 400, seed).positions(), p);
}

// The barbell's cliques end apart: their centres farther from each other than their members
// from their own centre.
TEST(GraphLayout, TheBarbellsCliquesEndApart) {
  const std::uint64_t seed = ws::test::freshSeed();
  const Graph g = barbell(8);
  const std::vector<float> p = laidOut(g, 300, seed).positions();
  float centre[2][2] = {};
  for (std::uint32_t v = 0; v < 16; ++v)
    for (int a = 0; a < 2; ++a) centre[v / 8][a] += p[2 * v + a] / 8;
  const float apart = std::hypot(centre[0][0] - centre[1][0], centre[0][1] - centre[1][1]);
  float spread = 0;
  for (std::uint32_t v = 0; v < 16; ++v)
    spread =
        std::max(spread, std::hypot(p[2 * v] - centre[v / 8][0], p[2 * v + 1] - centre[v / 8][1]));
  EXPECT_GT(apart, 1.5f * spread) << "seed " << seed;
}

}  // namespace
}  // namespace ws::graph
