// Brandes' centrality on the GPU against the CPU, for every thread mapping, on fresh random
// graphs of each kind (and with edges removed): betweenness, stress and edge betweenness in
// double agree to 1e-9 relative, closeness and graph centrality exactly; and Girvan-Newman driven
// by either removes the same edges. Skips without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compute/graph/centrality_cuda.h"
#include "compute/graph/clustering.h"
#include "compute/graph/generators.h"
#include "compute/graph/graph_io.h"
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
  CudaCentrality gpu(g, ws::test::freshSeed());
  for (const Parallelism p : {Parallelism::Node, Parallelism::Edge, Parallelism::PermutedEdge}) {
    SCOPED_TRACE(std::string(name) + ", mapping " + std::to_string(int(p)));
    const Centrality c = gpu.run(sources, p, removed);
    expectClose(c.betweenness, cpu.betweenness, "betweenness");
    expectClose(c.stress, cpu.stress, "stress");
    expectClose(c.edgeBetweenness, cpu.edgeBetweenness, "edge betweenness");
    expectClose(c.closeness, cpu.closeness, "closeness");
    expectClose(c.graph, cpu.graph, "graph centrality");
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

}  // namespace
}  // namespace ws::graph
