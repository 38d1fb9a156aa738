// Brandes' centrality on the GPU against the CPU, for every thread mapping, on fresh random
// graphs of each kind (and with edges removed): betweenness, stress and edge betweenness in
// double agree to 1e-9 relative, closeness and graph centrality exactly; and Girvan-Newman driven
// by either removes the same edges. Skips without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compute/graph/centrality_cuda.h"
#include "compute/graph/clustering.h"
#include "compute/graph/components_cuda.h"
#include "compute/graph/generators.h"
#include "compute/graph/graph_io.h"
#include "compute/graph/layout_cuda.h"
#include "compute/graph/louvain_cuda.h"
#include "tests/test_support.h"

namespace ws::graph {
namespace {

void expectClose(const std::vector<double>& gpu, const std::vector<double>& cpu, const char* what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  for (std::size_t i = 0; i < cpu.size(); ++i)
    ASSERT_NEAR(gpu[i], cpu[i], 1e-9 * std::max(1.0, std::fabs(cpu[i]))) << what << " " << i;
}

void expectSameCentrality(const Graph& g, const std::vector<std::uint32_t>& sources,
                          const std::vector<std::uint8_t>& removed, const char* name) {
  const Centrality cpu = centralityOnCpu(g, sources, removed);
  // Every source in one batch, and a batch of a few sources at a time.
  CudaCentrality gpu(g, ws::test::freshSeed());
  CudaCentrality small(g, 1, CudaCentrality::kBytesPerSourceAndVertex * 3 * g.vertices);
  ASSERT_EQ(small.batch(), std::min<std::uint32_t>(3, g.vertices));
  // Each mapping's results are written over the last pass's, as the module runs them; the first
  // is from other sources (every vertex, or vertex 0 alone) with every edge there, so that
  // anything left of it (a closeness off the sources, other sums) fails.
  const std::vector<std::uint32_t> others =
      sources.empty() ? std::vector<std::uint32_t>{0} : std::vector<std::uint32_t>{};
  Centrality c = gpu.run(others, Parallelism::Edge);
  for (const Parallelism p :
       {Parallelism::Node, Parallelism::Edge, Parallelism::PermutedEdge, Parallelism::Frontier}) {
    SCOPED_TRACE(std::string(name) + ", mapping " + std::to_string(int(p)));
    gpu.run(c, sources, p, removed);
    expectClose(c.betweenness, cpu.betweenness, "betweenness");
    expectClose(c.stress, cpu.stress, "stress");
    expectClose(c.edgeBetweenness, cpu.edgeBetweenness, "edge betweenness");
    expectClose(c.closeness, cpu.closeness, "closeness");
    expectClose(c.graph, cpu.graph, "graph centrality");
  }
  // Without the stress (over a pass with it): the same betweenness, and the stress left at 0.
  gpu.run(c, sources, Parallelism::Edge, removed, true, false);
  expectClose(c.betweenness, cpu.betweenness, "betweenness without stress");
  EXPECT_EQ(c.stress, std::vector<double>(g.vertices, 0.0));
  for (const Parallelism p : {Parallelism::Edge, Parallelism::Frontier}) {
    SCOPED_TRACE("small batches, mapping " + std::to_string(int(p)));
    const Centrality batched = small.run(sources, p, removed);
    expectClose(batched.betweenness, cpu.betweenness, "betweenness, small batches");
    expectClose(batched.edgeBetweenness, cpu.edgeBetweenness, "edge betweenness, small batches");
    expectClose(batched.closeness, cpu.closeness, "closeness, small batches");
  }
}

TEST(GraphCentralityCuda, EveryMappingMatchesTheCpu) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  expectSameCentrality(barabasiAlbert(600, 3, seed), {}, {}, "scale-free");
  expectSameCentrality(wattsStrogatz(500, 6, 0.1, seed), {}, {}, "small world");
  expectSameCentrality(grid(30, 24), {}, {}, "grid");
  const Graph pp = plantedPartition(5, 60, 0.2, 0.01, seed);
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> removed(pp.edges());
  for (auto& r : removed) r = rng() % 4 == 0;
  expectSameCentrality(pp, sampleSources(pp.vertices, 40, seed), removed,
                       "planted partition, sampled, edges removed");
}

// The frontier mapping sweeps a scale-free graph's dense middle levels by the edge kernel's scan,
// its last dense levels forward from below (few vertices left unreached) and back from above
// (the next level thin), and its thin first and last levels by their frontiers (all in one
// sweep, matching the CPU: the test above), and every level of a grid, thin rings all, by its
// frontier.
TEST(GraphCentralityCuda, TheFrontierMappingScansOnlyDenseLevels) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Graph scaleFree = barabasiAlbert(3000, 4, seed);
  CudaCentrality gpu(scaleFree);
  const Centrality c = gpu.run({}, Parallelism::Frontier);
  expectClose(c.betweenness, centralityOnCpu(scaleFree, {}, {}).betweenness, "betweenness");
  EXPECT_GT(gpu.denseLevels(), 0u);
  EXPECT_GT(gpu.levelsFromBelow(), 0u);  // its last dense levels forward, few vertices left
  EXPECT_GT(gpu.levelsFromAbove(), 0u);  // and back, their next levels thin
  // The sources' own level is thin.
  EXPECT_LT(gpu.denseLevels() + gpu.levelsFromBelow() + gpu.levelsFromAbove(),
            gpu.levelLaunches());
  const Graph g = grid(40, 40);
  CudaCentrality onGrid(g);
  onGrid.run({}, Parallelism::Frontier);
  EXPECT_EQ(onGrid.denseLevels(), 0u);
  EXPECT_EQ(onGrid.levelsFromBelow(), 0u);
  EXPECT_EQ(onGrid.levelsFromAbove(), 0u);
  // From a corner 79 levels (0 to 78) forward, 78 back; the batch holds every source.
  EXPECT_EQ(onGrid.levelLaunches(), 79u + 78u);
}

// Grids' path counts pass 2^63: in doubles the GPU still agrees with the CPU.
TEST(GraphCentralityCuda, LargeGridsAgree) {
  WS_REQUIRE_GPU();
  expectSameCentrality(grid(60, 60), {0, 1799, 3599}, {}, "60 x 60 grid");
}

// Girvan-Newman with the GPU's edge betweenness removes the same edges in the same order as with
// the CPU's (near-ties go to the lowest edge id on both), on the karate club and a planted
// partition.
TEST(GraphCentralityCuda, GirvanNewmanRemovesTheSameEdges) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  for (const Graph& g :
       {loadGraph(graphPathOf("karate")), plantedPartition(4, 30, 0.3, 0.02, seed)}) {
    GirvanNewman cpu(g, edgeBetweennessOnCpu(g));
    CudaCentrality device(g);
    GirvanNewman gpu(g, [&](const std::vector<std::uint32_t>& sources,
                            const std::vector<std::uint8_t>& removed) {
      return device.run(sources, Parallelism::Edge, removed, false).edgeBetweenness;
    });
    while (cpu.step()) ASSERT_TRUE(gpu.step());
    EXPECT_FALSE(gpu.step());
    EXPECT_EQ(gpu.removals(), cpu.removals()) << "seed " << seed;
    EXPECT_EQ(gpu.bestLevel(), cpu.bestLevel());
  }
}

// Hook-and-jump components on the GPU number the components exactly as the CPU's union-find,
// with random edges removed, on graphs of many components and on a long path (many rounds).
TEST(GraphComponentsCuda, MatchUnionFind) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const Graph& g : {plantedPartition(20, 50, 0.05, 0.0005, seed), grid(80, 3),
                         wattsStrogatz(3000, 4, 0.05, seed)}) {
    const DeviceGraph device(g);
    CudaComponents gpu(device);
    for (const int keepOneIn : {0, 2, 4}) {
      std::vector<std::uint8_t> removed(g.edges(), 0);
      if (keepOneIn)
        for (auto& r : removed) r = rng() % keepOneIn != 0;
      std::uint32_t cpuCount = 0, gpuCount = 0;
      const std::vector<std::uint32_t> cpu = components(g, removed, &cpuCount);
      EXPECT_EQ(gpu.label(removed, &gpuCount), cpu);
      EXPECT_EQ(gpuCount, cpuCount);
    }
  }
}

// One layout step on the GPU moves every vertex as the CPU's does from the same positions (the
// same forces in the same order; only fused multiply-adds round differently), with edges removed.
TEST(GraphLayoutCuda, AStepMatchesTheCpu) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Graph g = barabasiAlbert(3000, 3, seed);
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> removed(g.edges());
  for (auto& r : removed) r = rng() % 5 == 0;
  Layout cpu(g, seed);
  for (int s = 0; s < 20; ++s) cpu.step({}, removed);  // a layout under way, not just random
  const DeviceGraph device(g);
  CudaLayout gpu(device, cpu.positions());
  gpu.setRemoved(removed);
  const LayoutParams params{1.0f, 0.05f, 0.5f};
  cpu.step(params, removed);
  gpu.step(params);
  const std::vector<float> a = cpu.positions(), b = gpu.positionsOnHost();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    ASSERT_NEAR(b[i], a[i], 1e-3f * std::max(1.0f, std::fabs(a[i]))) << "coordinate " << i;
}

// The GPU's synchronous Louvain takes exactly the CPU reference's decisions (integer gains):
// the same communities, levels and sweeps, on the karate club and fresh random graphs.
TEST(GraphLouvainCuda, MatchesTheSynchronousCpuMethod) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const Graph& g :
       {loadGraph(graphPathOf("karate")), plantedPartition(10, 80, 0.15, 0.004, seed),
        barabasiAlbert(5000, 4, seed), wattsStrogatz(4000, 6, 0.05, seed), grid(40, 30)}) {
    const LouvainResult cpu = louvainSynchronousOnCpu(g);
    const DeviceGraph device(g);
    const LouvainResult gpu = CudaLouvain(device).run(g);
    EXPECT_EQ(gpu.community, cpu.community);
    EXPECT_EQ(gpu.levels, cpu.levels);
    EXPECT_EQ(gpu.sweeps, cpu.sweeps);
    EXPECT_DOUBLE_EQ(gpu.modularity, cpu.modularity);
  }
}

}  // namespace
}  // namespace ws::graph
