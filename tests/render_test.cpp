// Real OpenGL rendering through a headless EGL context (Mesa's llvmpipe in CI, the NVIDIA driver on
// the GPU machine): a known pattern's live cells land exactly on the pixels where they should be,
// and so do the LBM's tracer particles.
#include <gtest/gtest.h>

#include "compute/graph/graph_module.h"
#include "compute/lbm/lbm_module.h"
#include "compute/life/life_module.h"
#include "compute/mesh/inspect.h"
#include "compute/mesh/mesh_module.h"
#include "compute/voxhash/voxhash_module.h"
#include "render/colormap.h"
#include "render/field_renderer.h"
#include "render/gl/egl_context.h"
#include "render/gl/gl_check.h"
#include "render/gl/offscreen_target.h"
#include "render/graph_renderer.h"
#include "render/mark_renderer.h"
#include "render/mesh_renderer.h"
#include "render/point_renderer.h"
#include "render/voxel_renderer.h"
#include "tests/test_support.h"

namespace ws {
namespace {

std::unique_ptr<gl::EglContext> makeContext() {
  try {
    return std::make_unique<gl::EglContext>();
  } catch (const gl::GlError& e) {
    return nullptr;
  }
}

struct Rgb {
  int r, g, b;
  bool operator==(const Rgb&) const = default;
};

Rgb pixel(const std::vector<std::uint8_t>& rgba, int width, int x, int y) {
  const std::size_t i = (std::size_t(y) * width + x) * 4;
  return {rgba[i], rgba[i + 1], rgba[i + 2]};
}

// Pixels of a flat-shaded colour: shading scales `rgb` by a factor, so a pixel of it has its
// proportions (its red above `minRed`, to leave out the dark background).
int shadedPixelsOf(const std::vector<std::uint8_t>& rgba, int width, int height,
                   const double rgb[3], int minRed) {
  int count = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const Rgb p = pixel(rgba, width, x, y);
      const double k = p.r / 255.0 / rgb[0];
      if (p.r > minRed && std::abs(p.g / 255.0 - k * rgb[1]) < 0.03 &&
          std::abs(p.b / 255.0 - k * rgb[2]) < 0.03)
        ++count;
    }
  return count;
}

Rgb colormapEnd(const std::string& name, int entry) {
  const auto table = render::colormapTable(name);
  return {table[entry * 4], table[entry * 4 + 1], table[entry * 4 + 2]};
}

// The interop link renderers share; with `interop` false, through host memory as after a failure.
std::shared_ptr<render::InteropLink> linkFor(bool interop) {
  auto link = std::make_shared<render::InteropLink>();
  if (!interop) link->fail("the test asks for the host copy");
  return link;
}

struct Frame {
  std::vector<std::uint8_t> rgba;  // top row first
  std::string transferMode;
  bool interopAvailable;
};

// One frame of the module with world (0, 0) at the top-left pixel, `zoom` pixels per cell.
Frame drawFrame(Module& module, int width, int height, int zoom, bool interop,
                const std::string& colormap) {
  gl::OffscreenTarget target(width, height);
  target.bind();
  const auto link = linkFor(interop);
  render::FieldRenderer renderer(link);
  render::Camera2D camera;
  camera.zoom = zoom;
  camera.centerX = width / (2.0 * zoom);
  camera.centerY = height / (2.0 * zoom);
  renderer.draw(*module.view<FieldSource>(), module.backend(), camera, module.world(), width,
                height, colormap, false);
  if (PointSource* points = module.view<PointSource>())
    render::PointRenderer(link).draw(*points, module.backend(), camera.request(width, height));
  if (const MarkSource* marks = module.view<MarkSource>())
    render::MarkRenderer().draw(marks->marks(), camera.request(width, height), 3);
  glFinish();
  return {gl::readPixels(width, height), link->transferMode(module.backend()), link->available()};
}

void renderPatternAndCheck(Backend backend, bool interop) {
  auto context = makeContext();
  if (!context) GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  constexpr int kWidth = 320, kHeight = 200, kZoom = 4;
  life::LifeModule life(backend);
  life.setSize("64x40");
  life.setParamText("boundary", "dead");
  life.runAction("clear");
  // A glider and a blinker at known cells.
  const std::vector<std::pair<int, int>> cells = {{11, 10}, {12, 11}, {10, 12}, {11, 12},
                                                  {12, 12}, {30, 20}, {31, 20}, {32, 20}};
  for (auto [x, y] : cells) life.edit({"draw", double(x), double(y), double(x), double(y), ""});

  const Frame frame = drawFrame(life, kWidth, kHeight, kZoom, interop, "life");
  const auto& rgba = frame.rgba;

  const Rgb alive = colormapEnd("life", 255), dead = colormapEnd("life", 0);
  const auto rgb = [](const float(&c)[3]) {
    return Rgb{int(c[0] * 255 + 0.5f), int(c[1] * 255 + 0.5f), int(c[2] * 255 + 0.5f)};
  };
  const Rgb outside = rgb(render::kBackground), border = rgb(render::kWorldBorder);
  int aliveFound = 0, mismatches = 0, borderFound = 0;
  for (int py = 0; py < kHeight; ++py)
    for (int px = 0; px < kWidth; ++px) {
      const int cx = px / kZoom, cy = py / kZoom;
      // The world's border: the two pixels just outside it (right and below, here).
      const bool nearWorld = px < 64 * kZoom + 2 && py < 40 * kZoom + 2;
      Rgb expected = nearWorld ? border : outside;
      borderFound += nearWorld && (cx >= 64 || cy >= 40);
      if (cx < 64 && cy < 40) {
        const bool live = std::find(cells.begin(), cells.end(), std::pair{cx, cy}) != cells.end();
        expected = live ? alive : dead;
        aliveFound += live;
      }
      const Rgb got = pixel(rgba, kWidth, px, py);
      const bool close = std::abs(got.r - expected.r) <= 2 && std::abs(got.g - expected.g) <= 2 &&
                         std::abs(got.b - expected.b) <= 2;
      if (!close && ++mismatches <= 5)
        ADD_FAILURE() << "pixel " << px << "," << py << " (cell " << cx << "," << cy << "): got "
                      << got.r << "," << got.g << "," << got.b << " expected " << expected.r << ","
                      << expected.g << "," << expected.b;
    }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(aliveFound, int(cells.size()) * kZoom * kZoom);
  EXPECT_EQ(borderFound, 2 * (40 * kZoom + 2) + 2 * 64 * kZoom);
  std::cout << "rendered on " << context->description() << " via " << frame.transferMode
            << std::endl;
  if (backend == Backend::Cuda && interop && frame.interopAvailable)
    EXPECT_EQ(frame.transferMode, "CUDA-GL interop");
}

// Tracers at known plane positions show as light dots where the field puts their cells (plane row
// 0 at the bottom), and nowhere else.
void renderTracersAndCheck(Backend backend, bool interop) {
  auto context = makeContext();
  if (!context) GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  constexpr int kWidth = 320, kHeight = 200, kZoom = 4, kCellsX = 64, kCellsY = 40;
  lbm::LbmModule flow(backend);
  flow.setParams({{"scene", std::string("taylor-green")},
                  {"width", std::int64_t(kCellsX)},
                  {"height", std::int64_t(kCellsY)},
                  {"view", std::string("density")},
                  {"velocity", 0.001}});
  const std::vector<lbm::Tracer> tracers = {
      {10.5f, 20.5f, 50, 100}, {30.25f, 5.75f, 50, 100}, {50.5f, 30.5f, 50, 100}};
  flow.tracers().setTracers(tracers, 1);

  const auto rgba = drawFrame(flow, kWidth, kHeight, kZoom, interop, "inferno").rgba;
  auto light = [&](int x, int y) {
    const Rgb p = pixel(rgba, kWidth, x, y);
    return p.r > 200 && p.g > 200 && p.b > 200;
  };
  int lightPixels = 0;
  for (int py = 0; py < kHeight; ++py)
    for (int px = 0; px < kWidth; ++px) lightPixels += light(px, py);
  for (const lbm::Tracer& t : tracers) {
    const int px = int(t.a * kZoom), py = int((kCellsY - t.b) * kZoom);
    EXPECT_TRUE(light(px, py)) << "no dot at " << px << "," << py;
    EXPECT_FALSE(light(px + 4, py)) << "the dot at " << px << "," << py << " is too large";
  }
  EXPECT_GE(lightPixels, 3 * 4);
  EXPECT_LE(lightPixels, 3 * 16);
}

// LBM's probe line shows where its cells are (plane row 0 at the bottom), a few pixels wide over a
// dark rim, and ends where it ends.
TEST(Render, TheProbeLineLandsOnItsPixels) {
  auto context = makeContext();
  if (!context) GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  constexpr int kWidth = 320, kHeight = 200, kZoom = 4, kCellsY = 40;
  lbm::LbmModule flow(Backend::Cpu);
  flow.setParams({{"width", std::int64_t(64)},
                  {"height", std::int64_t(kCellsY)},
                  {"tracers", std::int64_t(0)},
                  {"probe", std::string("10,20,50,20")}});
  const auto rgba = drawFrame(flow, kWidth, kHeight, kZoom, false, "inferno").rgba;
  const auto yellow = [&](int x, int y) {
    const Rgb p = pixel(rgba, kWidth, x, y);
    return p.r > 240 && p.g > 200 && p.g < 235 && p.b < 50;
  };
  const auto dark = [&](int x, int y) {
    const Rgb p = pixel(rgba, kWidth, x, y);
    return p.r < 20 && p.g < 20 && p.b < 20;
  };
  const int row = int((kCellsY - 20 - 0.5) * kZoom);  // the cells' centres
  for (int x = int(10.5 * kZoom); x <= int(50.5 * kZoom); x += 8)
    EXPECT_TRUE(yellow(x, row)) << "no line at " << x << "," << row;
  EXPECT_TRUE(dark(100, row - 3)) << "no rim above the line";
  EXPECT_FALSE(yellow(100, row - 6)) << "the line is too wide";
  EXPECT_FALSE(yellow(int(10.5 * kZoom) - 8, row)) << "the line goes on past its start";
  EXPECT_FALSE(yellow(int(50.5 * kZoom) + 8, row)) << "the line goes on past its end";
}

// Each way a frame reaches GL: CPU upload, CUDA through interop, CUDA through a host copy.
struct RenderPath {
  Backend backend;
  bool interop;
  const char* name;
};

void PrintTo(const RenderPath& path, std::ostream* out) {
  *out << path.name;
}

class RenderPaths : public ::testing::TestWithParam<RenderPath> {
 protected:
  void SetUp() override {
    if (GetParam().backend == Backend::Cuda) WS_REQUIRE_GPU();
  }
};

TEST_P(RenderPaths, LiveCellsLandOnTheirPixels) {
  renderPatternAndCheck(GetParam().backend, GetParam().interop);
}

TEST_P(RenderPaths, TracersLandOnTheirPixels) {
  renderTracersAndCheck(GetParam().backend, GetParam().interop);
}

INSTANTIATE_TEST_SUITE_P(Render, RenderPaths,
                         ::testing::Values(RenderPath{Backend::Cpu, false, "Cpu"},
                                           RenderPath{Backend::Cuda, true, "Cuda"},
                                           RenderPath{Backend::Cuda, false, "CudaThroughHostCopy"}),
                         [](const auto& info) { return std::string(info.param.name); });

// Life's age view: a newborn cell is the brightest colour, cells darken as they age but stay
// apart from dead ones; the evenly spaced maps keep their control points.
TEST(Colormaps, NewbornCellsAreBrightestInTheAgeMap) {
  const auto luminance = [](const Rgb& c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; };
  const Rgb dead = colormapEnd("age", 0), newborn = colormapEnd("age", 1);
  EXPECT_EQ(dead, colormapEnd("life", 0));
  EXPECT_EQ(newborn, (Rgb{255, 255, 255}));
  for (int entry = 2; entry < 256; ++entry) {
    EXPECT_LE(luminance(colormapEnd("age", entry)),
              luminance(colormapEnd("age", entry - 1)) + 0.5)  // each channel rounds
        << entry;
    EXPECT_GT(luminance(colormapEnd("age", entry)), luminance(dead) + 15) << entry;
  }
  EXPECT_EQ(colormapEnd("inferno", 0), (Rgb{0x00, 0x00, 0x04}));
  EXPECT_EQ(colormapEnd("inferno", 255), (Rgb{0xfc, 0xff, 0xa4}));
  EXPECT_EQ(colormapEnd("life", 85), (Rgb{0x3a, 0x5a, 0x78}));
}

TEST(Render, ZoomedOutPixelsShowTheLiveFraction) {
  auto context = makeContext();
  if (!context) GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  life::LifeModule life(Backend::Cpu);
  life.setSize("256");
  life.runAction("clear");
  for (int y = 0; y < 128; ++y)  // the top half alive, the bottom half dead
    life.edit({"draw", 0, double(y), 255, double(y), ""});
  std::vector<float> pixels(64 * 64);
  FieldImage image{pixels.data(), 64, 64, false};
  life.renderField({0, 0, 4.0, 64, 64}, image);
  EXPECT_EQ(pixels[5 * 64 + 10], 1.0f);
  EXPECT_EQ(pixels[40 * 64 + 10], 0.0f);
}

// The voxel scene: pixels of A's and B's colours where the camera looks at them; hiding a class
// takes its colour off the screen.
void renderVoxelsAndCheck(Backend backend, bool interop) {
  auto context = makeContext();
  if (!context) GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  constexpr int kWidth = 240, kHeight = 180;
  voxhash::VoxhashModule scene(backend);
  scene.setSize("48^3");
  scene.setParam("path", std::string("collide"));
  auto countColour = [&](int cls) {
    gl::OffscreenTarget target(kWidth, kHeight);
    target.bind();
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    render::VoxelRenderer renderer(linkFor(interop));
    render::OrbitCamera camera;
    camera.fit({0, 0, 0}, voxhash::kSceneExtent);
    const VoxelScene view = *scene.voxelScene();
    renderer.draw(scene, backend, view, camera, kWidth, kHeight);
    glFinish();
    const auto rgba = gl::readPixels(kWidth, kHeight);
    const auto& c = view.classColours[cls];
    const double rgb[3] = {c[0], c[1], c[2]};
    return shadedPixelsOf(rgba, kWidth, kHeight, rgb, 20);
  };
  EXPECT_GT(countColour(voxhash::kOnlyA), 200);
  EXPECT_GT(countColour(voxhash::kOnlyB), 100);
  scene.setParam("show_a", false);
  EXPECT_EQ(countColour(voxhash::kOnlyA), 0);
  EXPECT_GT(countColour(voxhash::kOnlyB), 100);
}

TEST_P(RenderPaths, VoxelsShowTheirClassesAndHiddenOnesVanish) {
  renderVoxelsAndCheck(GetParam().backend, GetParam().interop);
}

// The mesh scene: coloured by colour class, every class's palette colour covers part of the
// sphere; coloured by smallest angle after the mesh is optimized, the colour map's upper end
// (good triangles) covers more of it than before, and in the colour map the user picks.
void renderMeshAndCheck(Backend backend, bool interop) {
  auto context = makeContext();
  if (!context) GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  constexpr int kWidth = 240, kHeight = 180;
  mesh::MeshModule sphere(backend);
  sphere.setParams({{"vertices", std::int64_t(2562)},
                    {"wireframe", false},
                    {"colour_by", std::string("colour class")}});
  const auto link = linkFor(interop);
  render::MeshRenderer renderer(link);  // one renderer, as in the GUI: the corners go up once
  // The whole sphere, or the part of it within `radius` of `focus`.
  auto draw = [&](const std::string& colormap = "viridis", const mesh::Vec3* focus = nullptr,
                  float radius = 0) {
    gl::OffscreenTarget target(kWidth, kHeight);
    target.bind();
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const MeshScene scene = *sphere.meshScene();
    render::OrbitCamera camera;
    camera.fit({scene.centre[0], scene.centre[1], scene.centre[2]}, scene.extent);
    if (focus) camera.fit({focus->x, focus->y, focus->z}, radius);
    renderer.draw(sphere, backend, scene, camera, kWidth, kHeight, colormap);
    glFinish();
    return gl::readPixels(kWidth, kHeight);
  };
  auto matching = [&](const std::vector<std::uint8_t>& rgba, const double rgb[3]) {
    return shadedPixelsOf(rgba, kWidth, kHeight, rgb, 15);
  };
  const auto classes = draw();
  const int colours = sphere.meshScene()->categories;
  ASSERT_GE(colours, 3);
  for (int k = 0; k < std::min(colours, 12); ++k) {
    const std::uint32_t c = render::kCategoryColours[k];
    const double rgb[3] = {(c >> 16 & 0xff) / 255.0, (c >> 8 & 0xff) / 255.0, (c & 0xff) / 255.0};
    EXPECT_GT(matching(classes, rgb), 20) << "colour class " << k << " of " << colours;
  }
  // Good triangles: smallest angles of 48 degrees and more, the colour map's top fifth.
  auto good = [&](const std::vector<std::uint8_t>& rgba, const std::string& colormap = "viridis") {
    int count = 0;
    for (int entry = 204; entry < 256; entry += 4) {
      const Rgb c = colormapEnd(colormap, entry);
      const double rgb[3] = {c.r / 255.0, c.g / 255.0, c.b / 255.0};
      count += matching(rgba, rgb);
    }
    return count;
  };
  sphere.setParam("colour_by", std::string("smallest angle"));
  const int before = good(draw());
  sphere.step(10);
  const int after = good(draw());
  EXPECT_GT(after, before + 2000) << "before " << before << ", after " << after;
  const auto coolwarm = draw("coolwarm");
  EXPECT_GT(good(coolwarm, "coolwarm"), after / 2) << "the picked colour map";
  EXPECT_LT(good(coolwarm), after / 10) << "viridis where coolwarm was picked";
  // The vertex inspector's disk and search, drawn over the mesh in their own colours.
  auto exactly = [&](const std::vector<std::uint8_t>& rgba, const float colour[3]) {
    int count = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) {
        const Rgb p = pixel(rgba, kWidth, x, y);
        count += std::abs(p.r - colour[0] * 255) < 3 && std::abs(p.g - colour[1] * 255) < 3 &&
                 std::abs(p.b - colour[2] * 255) < 3;
      }
    return count;
  };
  PointerEdit click;
  click.tool = "inspect";
  click.hasRay = true;
  click.origin[2] = 5;
  click.direction[2] = -1;
  sphere.edit(click);
  ASSERT_NE(sphere.inspection(), nullptr);
  const mesh::Inspection in = *sphere.inspection();
  const auto inspected = draw("viridis", &in.centre, 3 * in.radius);
  click.direction[2] = 1;  // a click that misses: no more inspection
  sphere.edit(click);
  EXPECT_EQ(exactly(draw("viridis", &in.centre, 3 * in.radius), mesh::kDiskColour), 0);
  EXPECT_GT(exactly(inspected, mesh::kDiskColour), 10) << "the inspected vertex's disk";
  EXPECT_GT(exactly(inspected, mesh::kSearchColour), 3) << "its search";
  const std::string mode = link->transferMode(backend);
  if (backend == Backend::Cpu) EXPECT_EQ(mode, "CPU upload");
  if (backend == Backend::Cuda && interop && link->available()) EXPECT_EQ(mode, "CUDA-GL interop");
  if (backend == Backend::Cuda && !interop) EXPECT_EQ(mode.rfind("host copy", 0), 0u) << mode;
}

TEST_P(RenderPaths, MeshShowsItsClassesAndItsAnglesImprove) {
  renderMeshAndCheck(GetParam().backend, GetParam().interop);
}

// The graph scene: the karate club split by Girvan-Newman, each community's palette colour covers
// its nodes' discs, edges are drawn between them (coloured pixels that are no node's colour), the
// picked node has its white ring, and the communities view draws one disc per community.
void renderGraphAndCheck(Backend backend, bool interop) {
  auto context = makeContext();
  if (!context) GTEST_SKIP() << "no EGL device with OpenGL 4.3 here";
  constexpr int kWidth = 320, kHeight = 240;
  graph::GraphModule module(backend);
  module.setParams({{"graph", std::string("karate")}, {"layout_steps", std::int64_t(20)}});
  module.step(60);  // the layout settles; 60 of 78 edges are removed
  const auto link = linkFor(interop);
  render::GraphRenderer renderer(link);
  auto draw = [&] {
    gl::OffscreenTarget target(kWidth, kHeight);
    target.bind();
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    render::Camera2D camera;
    camera.fit(module.world(), kWidth, kHeight);
    renderer.draw(module, backend, *module.graphScene(), camera, kWidth, kHeight, "viridis");
    glFinish();
    return gl::readPixels(kWidth, kHeight);
  };
  auto count = [&](const std::vector<std::uint8_t>& rgba, std::uint32_t c) {
    int n = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) {
        const Rgb p = pixel(rgba, kWidth, x, y);
        n += std::abs(p.r - int(c >> 16 & 0xff)) <= 2 && std::abs(p.g - int(c >> 8 & 0xff)) <= 2 &&
             std::abs(p.b - int(c & 0xff)) <= 2;
      }
    return n;
  };
  const GraphScene scene = *module.graphScene();
  ASSERT_GE(scene.categories, 2);
  const auto rgba = draw();
  int nodes = 0;
  for (int k = 0; k < std::min(scene.categories, 12); ++k) {
    const int here = count(rgba, render::kCategoryColours[k]);
    EXPECT_GT(here, 10) << "community " << k << " of " << scene.categories;
    nodes += here;
  }
  int lit = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const Rgb p = pixel(rgba, kWidth, x, y);
      lit += p.r + p.g + p.b > 60;
    }
  EXPECT_GT(lit, nodes + 50) << "edges and rims besides the discs";
  EXPECT_EQ(count(rgba, 0xffffff), 0) << "no node picked yet";
  const std::vector<float> p = module.positions();
  PointerEdit pick;
  pick.tool = "pick";
  pick.x = pick.fromX = p[0];
  pick.y = pick.fromY = p[1];
  module.edit(pick);
  ASSERT_EQ(module.picked(), 0);
  EXPECT_GT(count(draw(), 0xffffff), 5) << "the picked node's ring";
  module.setParam("view", std::string("communities"));
  const GraphScene grouped = *module.graphScene();
  EXPECT_EQ(grouped.nodes, std::size_t(scene.categories));
  const auto communities = draw();
  for (int k = 0; k < std::min(scene.categories, 12); ++k)
    EXPECT_GT(count(communities, render::kCategoryColours[k]), 10) << "community " << k;
  if (backend == Backend::Cuda && interop && link->available())
    EXPECT_EQ(link->transferMode(backend), "CUDA-GL interop");
}

TEST_P(RenderPaths, GraphShowsItsCommunitiesEdgesAndPick) {
  renderGraphAndCheck(GetParam().backend, GetParam().interop);
}

}  // namespace
}  // namespace ws
