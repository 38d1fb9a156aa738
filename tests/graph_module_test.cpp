// The graph module as the GUI and the benchmark drive it: Girvan-Newman animating step by step on
// a planted partition until it finds the groups, removed edges fading, Louvain and the merge
// step, picking and dragging nodes, bad input changing nothing, its state surviving a save and
// restore; and on a GPU, the CUDA backend removing the same edges as the CPU's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "compute/core/errors.h"
#include "compute/core/output_file.h"
#include "compute/graph/graph_module.h"
#include "tests/test_support.h"
#if WS_WITH_CUDA
#include "compute/core/device_buffer.h"
#endif

namespace ws::graph {
namespace {

GraphImage hostImage(GraphModule& module, std::vector<float>& nodes, std::vector<float>& edges) {
  const GraphScene scene = *module.graphScene();
  nodes.assign(4 * scene.nodes, -1);
  edges.assign(2 * scene.edges, -1);
  GraphImage image{nodes.data(), edges.data(), scene.nodes, scene.edges, false};
  module.renderGraph(image);
  return image;
}

TEST(GraphModule, GirvanNewmanFindsThePlantedGroupsStepByStep) {
  GraphModule module(Backend::Cpu);
  const std::uint64_t seed = ws::test::freshSeed() % 100000;
  module.setParams({{"seed", std::int64_t(seed)}, {"vertices", std::int64_t(200)}});
  ASSERT_NE(module.girvanNewman(), nullptr);
  // Before any removal the shown level is one community: no agreement at all, and it reads so.
  {
    const std::string notes = module.notes(), nmi = "agreement with the planted groups (NMI): ";
    const std::size_t at = notes.find(nmi);
    ASSERT_NE(at, std::string::npos) << notes;
    const std::string value = notes.substr(at + nmi.size());
    EXPECT_EQ(value.substr(0, value.find('\n')), "0.000") << notes;
  }
  const std::size_t edges = module.graph().edges();
  module.step(1);
  const std::uint32_t first = module.girvanNewman()->removals().front();
  std::vector<float> nodes, edgeStyle;
  hostImage(module, nodes, edgeStyle);
  EXPECT_EQ(edgeStyle[2 * first], 1.0f) << "a removed edge shows the highest betweenness";
  EXPECT_GT(edgeStyle[2 * first + 1], 0.9f) << "and starts to fade";
  module.step(60);
  hostImage(module, nodes, edgeStyle);
  EXPECT_EQ(edgeStyle[2 * first + 1], 0.0f) << "faded out";
  while (!module.girvanNewman()->done()) module.step(50);
  const GirvanNewman& gn = *module.girvanNewman();
  EXPECT_EQ(gn.removals().size(), edges);
  EXPECT_EQ(module.curves()[0].values.size(),
            std::min<std::size_t>(edges + 1, GraphModule::kCurveLength));
  EXPECT_GT(gn.levels()[gn.bestLevel()].modularity, 0.5) << "seed " << seed;
  // The best level finds the planted groups again (the bar: NMI of 0.9 or more).
  const std::string notes = module.notes();
  const std::size_t at = notes.find("agreement with the planted groups (NMI): ");
  ASSERT_NE(at, std::string::npos) << notes;
  EXPECT_GE(std::stod(notes.substr(at + 41)), 0.9) << notes << "\nseed " << seed;
  // The dendrogram: one split (a horizontal bar) per level while there are at most 128
  // communities, every segment inside the unit square, the best level marked.
  const std::optional<Dendrogram> tree = module.dendrogram();
  ASSERT_TRUE(tree);
  std::size_t splits = 0, bars = 0;
  for (std::size_t l = 1; l < gn.levels().size(); ++l)
    splits += gn.levels()[l].components <= GraphModule::kDendrogramLeaves;
  for (std::size_t i = 0; i < tree->segments.size(); i += 4) {
    for (int k = 0; k < 4; ++k) {
      EXPECT_GE(tree->segments[i + k], 0.0f);
      EXPECT_LE(tree->segments[i + k], 1.0f);
    }
    bars += tree->segments[i + 1] == tree->segments[i + 3];
  }
  EXPECT_EQ(bars, splits);
  EXPECT_FLOAT_EQ(tree->marked, float(gn.bestLevel()) / float(splits));
  // The level slider: level 0 is the whole graph in one community.
  module.setParam("level", std::int64_t(0));
  EXPECT_EQ(module.graphScene()->categories, 1);
}

TEST(GraphModule, LouvainAndTheMergeStep) {
  GraphModule module(Backend::Cpu);
  module.setParams({{"graph", std::string("karate")}, {"method", std::string("louvain")}});
  ASSERT_TRUE(module.louvain());
  const std::uint32_t k = module.louvain()->communities;
  EXPECT_EQ(module.shownCommunities(), module.louvain()->community);
  EXPECT_EQ(std::uint32_t(module.graphScene()->categories), k);
  module.setParam("merges", std::int64_t(1));
  EXPECT_EQ(std::uint32_t(module.graphScene()->categories), k - 1);
  EXPECT_NE(module.notes().find("merged communities"), std::string::npos);
  module.setParam("view", std::string("communities"));
  EXPECT_EQ(module.graphScene()->nodes, std::size_t(k - 1));
  std::vector<float> nodes, edges;
  hostImage(module, nodes, edges);
  for (const float e : edges) EXPECT_GE(e, 0.0f);  // every quotient edge written
}

// Each parameter a step reads (read once when it changes, not at every step) reaches the next
// step: what a step is, whether the layout runs, and the clustering shown.
TEST(GraphModule, EachParameterAStepReadsReachesTheNextStep) {
  GraphModule module(Backend::Cpu);
  module.setParam("graph", std::string("karate"));
  for (const char* kind : {"centrality", "layout", "louvain", "cluster"}) {
    module.setParam("step", std::string(kind));
    module.step(1);
    const std::string scope = module.stepTiming().name();
    EXPECT_EQ(scope.rfind(kind == std::string("cluster") ? "girvan-newman" : kind, 0), 0u)
        << kind << ": " << scope;
  }
  module.setParams({{"step", std::string("layout")}, {"layout", false}});
  const std::vector<float> still = module.positions();
  module.step(2);
  EXPECT_EQ(module.positions(), still);
  module.setParam("layout", true);
  module.step(2);
  EXPECT_NE(module.positions(), still);
  EXPECT_TRUE(module.dendrogram());
  module.setParam("method", std::string("louvain"));
  EXPECT_FALSE(module.dendrogram());
}

TEST(GraphModule, PickAndDrag) {
  GraphModule module(Backend::Cpu);
  module.setParam("graph", std::string("karate"));
  module.step(5);
  std::vector<float> p = module.positions();
  PointerEdit pick{"pick", p[10], p[11], p[10], p[11], ""};
  module.edit(pick);
  EXPECT_EQ(module.picked(), 5);
  EXPECT_NE(module.notes().find("node 6: degree 4"), std::string::npos) << module.notes();
  // A drag from node 5 to far away: it stays there while the others move on.
  module.edit({"drag", p[10], p[11], p[10], p[11], ""});
  module.edit({"drag", 40, -30, p[10], p[11], ""});
  // The drag goes on over node 0 and stands still there: node 5 is still the one carried.
  PointerEdit on{"drag", p[0], p[1], 40, -30, ""};
  on.start = false;
  module.edit(on);
  on.fromX = p[0], on.fromY = p[1];
  module.edit(on);
  on.x = 40, on.y = -30;
  module.edit(on);
  module.step(5);
  p = module.positions();
  EXPECT_EQ(p[10], 40.0f);
  EXPECT_EQ(p[11], -30.0f);
  EXPECT_NE(p[0], 40.0f);
  module.runAction("unpin all");
  module.step(5);
  EXPECT_NE(module.positions()[10], 40.0f);
  module.edit({"pick", 1e6, 1e6, 1e6, 1e6, ""});
  EXPECT_EQ(module.picked(), -1) << "a click far from every node lets go";
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The exports hold every node and edge with its attributes: CSV for spreadsheets, GraphML and
// GEXF for Gephi; each export is a new file; the node under the pointer and the picked one are
// described.
TEST(GraphModule, ExportsHoldTheCommunitiesCentralitiesAndLayout) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "graph-export";
  fs::remove_all(dir);
  fs::create_directories(dir);
  setOutputFolder(dir.string());
  GraphModule module(Backend::Cpu);
  module.setParam("graph", std::string("karate"));
  module.step(25);  // Girvan-Newman has split the club by now
  const GraphTable t = module.table();
  for (const char* action : {"export CSV", "export GraphML", "export GEXF", "export CSV"})
    module.runAction(action);
  setOutputFolder("");
  const std::string stem = (dir / "warpscope-graph-step25").string();
  // Nodes: a header and 34 rows whose ids, positions and communities are the module's.
  std::ifstream nodes(stem + "-nodes.csv");
  std::string header, line;
  std::getline(nodes, header);
  EXPECT_EQ(header.rfind("id,x,y,degree,betweenness,closeness,graph_centrality,stress,community,"
                         "louvain,gn_level_0,gn_level_1",
                         0),
            0u)
      << header;
  const std::vector<float> p = module.positions();
  const std::vector<std::uint32_t> shown = module.shownCommunities();
  int rows = 0;
  while (std::getline(nodes, line)) {
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, ',');) cells.push_back(cell);
    const auto v = std::uint32_t(std::stoul(cells[0])) - 1;  // karate's ids count from 1
    EXPECT_NEAR(std::stod(cells[1]), p[2 * v], 1e-4) << line;
    EXPECT_EQ(cells[3], std::to_string(module.graph().degree(v))) << line;
    EXPECT_EQ(cells[8], std::to_string(shown[v])) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 34);
  const std::string edges = readAll(stem + "-edges.csv");
  EXPECT_EQ(std::count(edges.begin(), edges.end(), '\n'), 78 + 1);
  EXPECT_EQ(edges.rfind("source,target,betweenness,removed_at_step\n", 0), 0u);
  // The second CSV export is kept beside the first.
  EXPECT_TRUE(fs::exists(stem + "-nodes-2.csv"));
  // GraphML and GEXF: every node and edge, the attributes declared with their types.
  const std::string graphml = readAll(stem + ".graphml");
  const auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(graphml, "<node id="), 34u);
  EXPECT_EQ(count(graphml, "<edge source="), 78u);
  EXPECT_NE(graphml.find("attr.name=\"community\" attr.type=\"long\""), std::string::npos);
  EXPECT_NE(graphml.find("attr.name=\"betweenness\" attr.type=\"double\""), std::string::npos);
  const std::string gexf = readAll(stem + ".gexf");
  EXPECT_EQ(count(gexf, "<node id="), 34u);
  EXPECT_EQ(count(gexf, "<edge id="), 78u);
  EXPECT_EQ(count(gexf, "<viz:position "), 34u);
  EXPECT_NE(gexf.find("title=\"community\" type=\"long\""), std::string::npos);
  EXPECT_NE(module.notes().find("wrote " + stem + "-nodes-2.csv"), std::string::npos);
  // What is under the pointer, and the picked node's label.
  EXPECT_EQ(module.describeAt(p[0], p[1]).rfind("node 1: degree 16, community ", 0), 0u)
      << module.describeAt(p[0], p[1]);
  EXPECT_EQ(module.describeAt(1e6, 1e6), "");
  module.edit({"pick", p[66], p[67], p[66], p[67], ""});
  const auto labels = module.viewLabels();
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0].text, "node 34");
}

TEST(GraphModule, BadInputChangesNothing) {
  GraphModule module(Backend::Cpu);
  module.setParam("graph", std::string("karate"));
  module.step(3);
  const std::size_t edges = module.graph().edges();
  EXPECT_THROW(module.setParam("graph", std::string("no-such-graph")), InputError);
  const std::string path = ::testing::TempDir() + "/malformed-graph.txt";
  std::ofstream(path) << "# a graph\n1 2\n2 x\n";
  try {
    module.setParam("graph", path);
    FAIL() << "a malformed file loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("malformed-graph.txt:3:"), std::string::npos) << e.what();
  }
  EXPECT_EQ(module.params().getText("graph"), "karate");
  EXPECT_EQ(module.graph().edges(), edges);
  EXPECT_EQ(module.stepCount(), 3u);
  EXPECT_THROW(module.setParam("vertices", std::int64_t(1)), InputError);
  std::remove(path.c_str());
}

TEST(GraphModule, StateSurvivesSaveAndRestore) {
  GraphModule module(Backend::Cpu);
  module.setParams({{"vertices", std::int64_t(150)}, {"removals", std::int64_t(3)}});
  module.step(12);
  const std::vector<std::uint32_t> removals = module.girvanNewman()->removals();
  const std::vector<float> positions = module.positions();
  const StateBlob state = module.saveState();
  module.step(10);
  module.restoreState(state);
  EXPECT_EQ(module.girvanNewman()->removals(), removals);
  EXPECT_EQ(module.positions(), positions);
  EXPECT_EQ(module.stepCount(), 12u);
}

#if WS_WITH_CUDA  // the CUDA engine drawn into device memory
// The CUDA backend: the same graph, the same removals as the CPU's (edge-parallel and
// node-parallel), centralities to 1e-9, and the layout's positions reaching an image in device
// memory as they are.
TEST(GraphModuleCuda, RemovesTheSameEdgesAsTheCpu) {
  WS_REQUIRE_GPU();
  GraphModule cpu(Backend::Cpu), gpu(Backend::Cuda);
  for (GraphModule* m : {&cpu, &gpu})
    m->setParams({{"vertices", std::int64_t(400)}, {"seed", std::int64_t(7)}});
  cpu.step(40);
  gpu.step(20);
  gpu.select(Backend::Cuda, "node");
  gpu.step(20);
  EXPECT_EQ(gpu.girvanNewman()->removals(), cpu.girvanNewman()->removals());
  for (std::size_t v = 0; v < cpu.graph().vertices; ++v)
    ASSERT_NEAR(gpu.centrality().betweenness[v], cpu.centrality().betweenness[v],
                1e-9 * std::max(1.0, cpu.centrality().betweenness[v]));
  // Passes from sampled sources and from every vertex again, each written over the arrays of the
  // pass before last (the module keeps two): the CPU's results each time, nothing left over.
  for (const std::int64_t sources : {25, 0, 60}) {
    for (GraphModule* m : {&cpu, &gpu}) m->setParam("sources", sources);
    for (std::size_t v = 0; v < cpu.graph().vertices; ++v) {
      ASSERT_NEAR(gpu.centrality().betweenness[v], cpu.centrality().betweenness[v],
                  1e-9 * std::max(1.0, cpu.centrality().betweenness[v]))
          << sources << " sources";
      ASSERT_EQ(gpu.centrality().closeness[v], cpu.centrality().closeness[v]) << sources;
    }
  }
  const GraphScene scene = *gpu.graphScene();
  DeviceBuffer<float> nodes(4 * scene.nodes), edges(2 * scene.edges);
  GraphImage image{nodes.data(), edges.data(), scene.nodes, scene.edges, true};
  gpu.renderGraph(image);
  const std::vector<float> drawn = toHost(nodes.data(), nodes.size());
  const std::vector<float> p = gpu.positions();
  for (std::size_t v = 0; v < scene.nodes; ++v) {
    ASSERT_EQ(drawn[4 * v], p[2 * v]);
    ASSERT_EQ(drawn[4 * v + 1], p[2 * v + 1]);
  }
  // Back to the CPU with the state: the same removals, the same positions.
  gpu.select(Backend::Cpu, "");
  EXPECT_EQ(gpu.girvanNewman()->removals(), cpu.girvanNewman()->removals());
  EXPECT_EQ(gpu.positions(), p);
}
#endif

}  // namespace
}  // namespace ws::graph
