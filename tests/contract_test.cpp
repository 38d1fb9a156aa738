// The module contract, over every registered module on each backend: what any module must do,
// whatever it simulates. A module added to the registry is tested here without an edit: its
// state saves and restores exactly, a refused parameter change leaves everything as it was,
// switching variants and backends keeps the state, every action and tool can be performed, and
// every view it offers renders (through the real scene, on an EGL context where there is one).
#include <gtest/gtest.h>

#include <algorithm>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "app/lab.h"
#include "app/scene.h"
#include "compute/core/errors.h"
#include "compute/core/memory.h"
#include "compute/core/progress.h"
#include "compute/views/graph.h"
#include "compute/views/mesh.h"
#include "compute/views/plots.h"
#include "compute/views/points.h"
#include "compute/views/surface.h"
#include "compute/views/voxels.h"
#include "render/colormap.h"
#include "render/gl/egl_context.h"
#include "render/gl/gl_check.h"
#include "render/gl/offscreen_target.h"
#include "tests/test_support.h"

namespace ws {
namespace {

// The smallest size the module sweeps (its default where it sweeps none), a few steps in.
std::string smallSize(const std::string& name) {
  const std::vector<std::string> sizes = createModule(name, Backend::Cpu)->sweepSizes();
  return sizes.empty() ? "" : sizes.front();
}

std::unique_ptr<Module> smallWorld(const std::string& name, Backend backend) {
  auto module = createModule(name, backend);
  if (const std::string size = smallSize(name); !size.empty()) module->setSize(size);
  module->step(3);
  return module;
}

// Everything a user could see change: the parameters, the variant, the step and the state.
struct Everything {
  nlohmann::json params;
  std::string variant;
  std::uint64_t steps;
  StateBlob state;
};
Everything everything(Module& module) {
  return {module.params().toJson(), module.variant(), module.stepCount(), module.saveState()};
}
void expectUnchanged(const Everything& before, Module& module, const std::string& what) {
  const Everything now = everything(module);
  EXPECT_EQ(now.params, before.params) << what;
  EXPECT_EQ(now.variant, before.variant) << what;
  EXPECT_EQ(now.steps, before.steps) << what;
  EXPECT_EQ(now.state.meta, before.state.meta) << what;
  EXPECT_TRUE(now.state.data == before.state.data) << what;
}

// The same state: bytes exactly, floats within `tolerance` (a half-precision variant rounds).
void expectSameState(const StateBlob& a, const StateBlob& b, double tolerance,
                     const std::string& what) {
  const StateDifference d = compareStates(a, b);
  ASSERT_TRUE(d.comparable) << what;
  EXPECT_EQ(d.differingBytes, 0u) << what;
  EXPECT_LE(d.largest, tolerance) << what << " (" << d.differingFloats << " floats differ)";
}

// Cancels the work this thread reports on (compute/core/progress.h) once `patience` has passed.
class CancelAfter {
 public:
  explicit CancelAfter(std::chrono::milliseconds patience)
      : reporting_(progress_), watcher_([this, patience] {
          std::unique_lock lock(mutex_);
          if (!done_.wait_for(lock, patience, [this] { return finished_; })) progress_.cancel();
        }) {}
  ~CancelAfter() {
    {
      std::lock_guard lock(mutex_);
      finished_ = true;
    }
    done_.notify_one();
    watcher_.join();
  }

 private:
  Progress progress_;
  ReportingTo reporting_;
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::thread watcher_;
};

// For its lifetime, modules see 32 MiB of host memory (requireHostMemory).
struct SmallMemory {
  SmallMemory() { limitHostMemory(32.0 * 1024 * 1024); }
  ~SmallMemory() { limitHostMemory(0); }
};

class Contract : public ::testing::TestWithParam<std::tuple<std::string, Backend>> {
 protected:
  void SetUp() override {
    if (std::get<1>(GetParam()) == Backend::Cuda) WS_REQUIRE_GPU();
  }
  const std::string& name() const { return std::get<0>(GetParam()); }
  Backend backend() const { return std::get<1>(GetParam()); }
};

TEST_P(Contract, SaveAndRestoreAreExact) {
  auto module = smallWorld(name(), backend());
  const StateBlob saved = module->saveState();
  const std::uint64_t steps = module->stepCount();
  module->step(2);
  const StateBlob later = module->saveState();
  module->restoreState(saved);
  EXPECT_EQ(module->stepCount(), steps);
  expectSameState(module->saveState(), saved, 0, "restored in place");
  module->step(2);
  expectSameState(module->saveState(), later, 0, "the same two steps from the restored state");
  // Into another module of the same kind and parameters.
  auto other = createModule(name(), backend());
  other->setParams(other->params().checkJson(module->params().toJson()));
  other->restoreState(saved);
  expectSameState(other->saveState(), saved, 0, "restored into a new module");
}

TEST_P(Contract, ARefusedParameterChangeLeavesEverythingAsItWas) {
  auto module = smallWorld(name(), backend());
  int refused = 0;
  for (const ParamSpec& spec : module->params().specs()) {
    const Everything before = everything(*module);
    // A value no parameter takes: refused before the module sees it.
    if (spec.type != ws::ParamType::Text) {
      EXPECT_THROW(module->setParamText(spec.key, "no such value"), InputError) << spec.key;
      expectUnchanged(before, *module, spec.key + " = no such value");
    }
    // The largest value it takes: a module may refuse it (no memory for it), or take too long
    // and be cancelled, changing nothing either way.
    if (spec.type != ws::ParamType::Int && spec.type != ws::ParamType::Float) continue;
    const ParamValue largest =
        spec.type == ws::ParamType::Int ? ParamValue(std::int64_t(spec.max)) : ParamValue(spec.max);
    const ParamValue old = module->params().value(spec.key);
    try {
      const CancelAfter patience(std::chrono::seconds(1));  // a long set-up is cancelled
      const SmallMemory refusedSooner;  // sizes at the maximum are refused before they start
      module->setParam(spec.key, largest);
    } catch (const InputError&) {
      ++refused;
      expectUnchanged(before, *module, spec.key + " at its maximum, refused or cancelled");
      continue;
    }
    module->setParam(spec.key, old);  // taken: put back
  }
  std::cout << name() << ": " << refused << " parameters refused at their maximum" << std::endl;
}

TEST_P(Contract, SwitchingVariantsAndBackendsKeepsTheState) {
  auto module = smallWorld(name(), backend());
  const StateBlob start = module->saveState();
  const std::string first = module->variant();
  for (const KernelVariant& v : module->variants(backend())) {
    module->select(backend(), v.name);
    EXPECT_EQ(module->variant(), v.name);
    expectSameState(module->saveState(), start, 1e-3, "after selecting " + v.name);
  }
  module->select(backend(), first);
  if (!gpuInfo().available) return;
  const Backend other = backend() == Backend::Cpu ? Backend::Cuda : Backend::Cpu;
  module->select(other, "");
  EXPECT_EQ(module->backend(), other);
  expectSameState(module->saveState(), start, 1e-3, "on the other backend");
  module->select(backend(), first);
  expectSameState(module->saveState(), start, 1e-3, "and back");
}

// A point inside the world (3-D scenes: a ray down onto its centre).
PointerEdit editAt(Module& module, const std::string& tool, double fx, double fy) {
  const WorldBox box = module.world();
  PointerEdit edit;
  edit.tool = tool;
  const auto items = module.toolItems(tool);
  edit.item = items.empty() ? "" : items.front();
  edit.x = edit.fromX = box.minX + (box.maxX - box.minX) * fx;
  edit.y = edit.fromY = box.minY + (box.maxY - box.minY) * fy;
  edit.hasRay = true;
  edit.origin[0] = float(fx - 0.5), edit.origin[1] = float(fy - 0.5), edit.origin[2] = 10;
  edit.direction[2] = -1;
  return edit;
}

TEST_P(Contract, EveryActionAndToolCanBePerformed) {
  const std::filesystem::path folder = std::filesystem::path(::testing::TempDir()) /
                                       ("contract-" + name() + std::string(toString(backend())));
  std::filesystem::remove_all(folder);  // saves never overwrite: a folder of their own each run
  std::filesystem::create_directories(folder);
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(folder);  // actions that export write here
  auto module = smallWorld(name(), backend());
  for (const std::string& action : module->actions()) {
    EXPECT_NO_THROW(module->runAction(action)) << action;
    EXPECT_NO_THROW(module->step(1)) << "a step after " << action;
  }
  for (const std::string& tool : module->tools()) {
    PointerEdit edit = editAt(*module, tool, 0.4, 0.5);
    EXPECT_NO_THROW(module->edit(edit)) << tool;
    const PointerEdit from = edit;
    edit = editAt(*module, tool, 0.6, 0.5);
    edit.fromX = from.x, edit.fromY = from.y;  // a drag
    EXPECT_NO_THROW(module->edit(edit)) << tool << ", dragged";
    EXPECT_NO_THROW(module->step(1)) << "a step after " << tool;
  }
  std::filesystem::current_path(before);
}

bool allFinite(const std::vector<float>& values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

// What each view interface the module offers gives, read on the host.
TEST_P(Contract, EveryViewItOffersGivesWhatItSays) {
  auto module = smallWorld(name(), backend());
  int offered = 0;
  if (FieldSource* field = module->view<FieldSource>()) {
    ++offered;
    const auto views = field->fieldViews();
    ASSERT_FALSE(views.empty());
    ASSERT_GE(field->currentFieldView(), 0);
    ASSERT_LT(field->currentFieldView(), int(views.size()));
    if (!module->view<VoxelSource>() || !module->view<VoxelSource>()->voxelScene()) {
      const WorldBox box = module->world();
      std::vector<float> pixels(64 * 48, -1);
      FieldImage image{pixels.data(), 64, 48, false};
      const double perPixel = std::max((box.maxX - box.minX) / 64, (box.maxY - box.minY) / 48);
      field->renderField({box.minX, box.minY, perPixel, 64, 48}, image);
      EXPECT_GT(
          std::count_if(pixels.begin(), pixels.end(), [](float v) { return std::isfinite(v); }),
          64 * 48 / 8)
          << "the world covers part of the image";
    }
  }
  if (PointSource* points = module->view<PointSource>()) {
    ++offered;
    std::vector<float> data(3 * points->pointCount());
    PointImage image{data.data(), points->pointCount(), false};
    points->renderPoints(image);
    EXPECT_TRUE(allFinite(data));
  }
  if (VoxelSource* voxels = module->view<VoxelSource>(); voxels && voxels->voxelScene()) {
    ++offered;
    const VoxelScene scene = *voxels->voxelScene();
    EXPECT_EQ(scene.classNames.size(), scene.classColours.size());
    std::vector<unsigned> words(2 * voxels->voxelCount());
    VoxelImage image{words.data(), voxels->voxelCount(), false};
    voxels->renderVoxels(image);
    EXPECT_GT(voxels->voxelCount(), 0u);
  }
  if (MeshSource* mesh = module->view<MeshSource>(); mesh && mesh->meshScene()) {
    ++offered;
    const MeshScene scene = *mesh->meshScene();
    std::vector<std::uint32_t> corners;
    std::vector<float> start;
    mesh->meshTopology(corners, start);
    EXPECT_EQ(corners.size(), 3 * scene.triangles);
    EXPECT_EQ(start.size(), 3 * scene.vertices);
    const std::size_t values =
        scene.values == MeshScene::Values::PerTriangle ? scene.triangles : scene.vertices;
    std::vector<float> positions(3 * scene.vertices), shown(values);
    MeshImage image{positions.data(), shown.data(), scene.vertices, values, false};
    mesh->renderMesh(image);
    EXPECT_TRUE(allFinite(positions));
    EXPECT_TRUE(allFinite(shown));
  }
  if (SurfaceSource* surface = module->view<SurfaceSource>(); surface && surface->surfaceScene()) {
    ++offered;
    std::vector<float> fixed;
    surface->fixedSurface(fixed);
    EXPECT_EQ(fixed.size() % (3 * kSurfaceVertexFloats), 0u);
    EXPECT_TRUE(allFinite(fixed));
    const std::size_t triangles = surface->surfaceTriangles();
    const std::size_t segments = surface->surfaceSegments();
    std::vector<float> vertices(triangles * 3 * kSurfaceVertexFloats),
        lines(segments * 2 * kLineVertexFloats, NAN);
    SurfaceImage image{vertices.data(), triangles, false, lines.data(), segments, false};
    surface->renderSurface(image);
    EXPECT_TRUE(allFinite(vertices));
    EXPECT_TRUE(allFinite(lines)) << "every segment written, drawn or not";
  }
  if (GraphSource* graph = module->view<GraphSource>(); graph && graph->graphScene()) {
    ++offered;
    const GraphScene scene = *graph->graphScene();
    std::vector<std::uint32_t> ends;
    graph->graphTopology(ends);
    EXPECT_EQ(ends.size(), 2 * scene.edges);
    EXPECT_TRUE(std::all_of(ends.begin(), ends.end(), [&](auto e) { return e < scene.nodes; }));
    std::vector<float> nodes(4 * scene.nodes), edges(2 * scene.edges);
    GraphImage image{nodes.data(), edges.data(), scene.nodes, scene.edges, false};
    graph->renderGraph(image);
    EXPECT_TRUE(allFinite(nodes));
    EXPECT_TRUE(allFinite(edges));
  }
  if (const PlotSource* plots = module->view<PlotSource>()) {
    for (const Histogram& h : plots->histograms()) EXPECT_EQ(h.labels.size(), h.values.size());
    if (const auto tree = plots->dendrogram()) EXPECT_EQ(tree->segments.size() % 4, 0u);
  }
  EXPECT_GT(offered, 0) << "a module shows something";
}

// The module drawn through the real scene: its view covers a good part of the picture.
TEST_P(Contract, ItsViewDrawsThroughTheScene) {
  std::unique_ptr<gl::EglContext> context;
  try {
    context = std::make_unique<gl::EglContext>();
  } catch (const gl::GlError&) {
    GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  }
  app::LabOptions options;
  options.module = name();
  options.backend = backend();
  options.size = smallSize(name());
  app::Lab lab(options);
  lab.module().step(3);
  constexpr int kWidth = 320, kHeight = 240;
  gl::OffscreenTarget target(kWidth, kHeight);
  target.bind();
  app::SceneRenderers renderers;
  app::drawScene(lab, renderers, kWidth, kHeight, {0, 0, kWidth, kHeight});
  app::drawScene(lab, renderers, kWidth, kHeight, {0, 0, kWidth, kHeight});  // fitted now
  EXPECT_TRUE(lab.errorMessage.empty()) << lab.errorMessage;
  const std::vector<std::uint8_t> rgba = gl::readPixels(kWidth, kHeight);
  long drawn = 0;
  for (std::size_t p = 0; p < rgba.size(); p += 4)
    drawn += std::abs(rgba[p] - int(render::kBackground[0] * 255 + 0.5f)) > 3 ||
             std::abs(rgba[p + 1] - int(render::kBackground[1] * 255 + 0.5f)) > 3 ||
             std::abs(rgba[p + 2] - int(render::kBackground[2] * 255 + 0.5f)) > 3;
  EXPECT_GT(drawn, long(kWidth) * kHeight / 20) << "via " << renderers.transferMode;
}

INSTANTIATE_TEST_SUITE_P(EveryModule, Contract,
                         ::testing::Combine(::testing::ValuesIn(test::registeredModules()),
                                            ::testing::Values(Backend::Cpu, Backend::Cuda)),
                         [](const ::testing::TestParamInfo<Contract::ParamType>& info) {
                           // A test's name takes letters, digits and '_' only.
                           std::string name = std::get<0>(info.param);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name + "_" + std::string(toString(std::get<1>(info.param)));
                         });

}  // namespace
}  // namespace ws
