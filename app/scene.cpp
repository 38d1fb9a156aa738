#include "app/scene.h"

#include <algorithm>
#include <optional>

#include "compute/views/field.h"
#include "compute/views/graph.h"
#include "compute/views/marks.h"
#include "compute/views/mesh.h"
#include "compute/views/points.h"
#include "compute/views/surface.h"
#include "compute/views/voxels.h"
#include "render/colormap.h"
#include "render/field_renderer.h"
#include "render/gl/gl.h"
#include "render/graph_renderer.h"
#include "render/mark_renderer.h"
#include "render/mesh_renderer.h"
#include "render/point_renderer.h"
#include "render/surface_renderer.h"
#include "render/voxel_renderer.h"

namespace ws::app {

namespace {

// A view drawn by one renderer of type R, made on first use with the scene's interop link.
template <typename R>
class ViewWithRenderer : public SceneView {
 public:
  explicit ViewWithRenderer(std::shared_ptr<render::InteropLink> link) : link_(std::move(link)) {}

 protected:
  R& renderer() {
    if (!renderer_) renderer_ = std::make_unique<R>(link_);
    return *renderer_;
  }
  std::shared_ptr<render::InteropLink> link_;

 private:
  std::unique_ptr<R> renderer_;
};

// The orbit camera around a scene's sphere, in a view `width` x `height`, when a fit is due.
void fitOrbitWhenDue(Lab& lab, const glm::vec3& centre, float extent, int width, int height) {
  if (!lab.fitPending) return;
  lab.orbit.fit(centre, extent, float(width) / float(std::max(height, 1)));
  lab.fitPending = false;
}

class MeshView final : public ViewWithRenderer<render::MeshRenderer> {
 public:
  using ViewWithRenderer::ViewWithRenderer;
  bool shows(Module& module) const override {
    const MeshSource* source = module.view<MeshSource>();
    return source && source->meshScene();
  }
  void draw(Lab& lab, Module& module, int width, int height) override {
    MeshSource& source = *module.view<MeshSource>();
    const MeshScene scene = *source.meshScene();
    fitOrbitWhenDue(lab, {scene.centre[0], scene.centre[1], scene.centre[2]}, scene.extent, width,
                    height);
    renderer().draw(source, module.backend(), scene, lab.orbit, width, height,
                    lab.colormapForView());
  }
};

class SurfaceView final : public ViewWithRenderer<render::SurfaceRenderer> {
 public:
  using ViewWithRenderer::ViewWithRenderer;
  bool shows(Module& module) const override {
    const SurfaceSource* source = module.view<SurfaceSource>();
    return source && source->surfaceScene();
  }
  void draw(Lab& lab, Module& module, int width, int height) override {
    SurfaceSource& source = *module.view<SurfaceSource>();
    const SurfaceScene scene = *source.surfaceScene();
    fitOrbitWhenDue(lab, {scene.centre[0], scene.centre[1], scene.centre[2]}, scene.extent, width,
                    height);
    renderer().draw(source, module.backend(), scene, lab.orbit, width, height,
                    lab.colormapForView());
  }
};

class VoxelView final : public ViewWithRenderer<render::VoxelRenderer> {
 public:
  using ViewWithRenderer::ViewWithRenderer;
  bool shows(Module& module) const override {
    const VoxelSource* source = module.view<VoxelSource>();
    return source && source->voxelScene();
  }
  void draw(Lab& lab, Module& module, int width, int height) override {
    VoxelSource& source = *module.view<VoxelSource>();
    const VoxelScene scene = *source.voxelScene();
    fitOrbitWhenDue(lab, {0, 0, 0}, scene.extent * 0.8f, width, height);
    renderer().draw(source, module.backend(), scene, lab.orbit, width, height);
  }
};

class GraphView final : public ViewWithRenderer<render::GraphRenderer> {
 public:
  using ViewWithRenderer::ViewWithRenderer;
  bool shows(Module& module) const override {
    const GraphSource* source = module.view<GraphSource>();
    return source && source->graphScene();
  }
  void draw(Lab& lab, Module& module, int width, int height) override {
    GraphSource& source = *module.view<GraphSource>();
    const GraphScene scene = *source.graphScene();
    if (lab.fitPending || lab.followGraph) {  // the camera follows the layout until moved
      lab.camera.fit(module.world(), width, height);
      lab.fitPending = false;
    }
    renderer().draw(source, module.backend(), scene, lab.camera, width, height,
                    lab.colormapForView());
  }
};

// A field, with the module's points and marks over it where it offers them.
class FieldView2d final : public ViewWithRenderer<render::FieldRenderer> {
 public:
  using ViewWithRenderer::ViewWithRenderer;
  bool shows(Module& module) const override { return module.view<FieldSource>(); }
  void draw(Lab& lab, Module& module, int width, int height) override {
    // A world of another size since the last frame (a grid resized, another slice of a 3-D
    // one) is fitted anew; the camera is kept while it stays (panned, zoomed, restored).
    const WorldBox world = module.world();
    const bool resized = shown_ && (world.minX != shown_->minX || world.minY != shown_->minY ||
                                    world.maxX != shown_->maxX || world.maxY != shown_->maxY);
    shown_ = world;
    if (lab.fitPending || resized) {
      lab.camera.fit(world, width, height);
      lab.fitPending = false;
    }
    renderer().draw(*module.view<FieldSource>(), module.backend(), lab.camera, world, width, height,
                    lab.colormapForView(), lab.gridLines);
    if (PointSource* points = module.view<PointSource>()) {
      if (!points_) points_ = std::make_unique<render::PointRenderer>(link_);
      points_->draw(*points, module.backend(), lab.camera.request(width, height));
    }
    if (const MarkSource* marks = module.view<MarkSource>()) {
      if (!marks_) marks_ = std::make_unique<render::MarkRenderer>();
      std::vector<Mark> shown = marks->marks();
      if (lab.hover && &module == &lab.module()) {  // A's pointer, not B's
        const std::vector<Mark> preview = marks->preview(*lab.hover);
        shown.insert(shown.end(), preview.begin(), preview.end());
      }
      marks_->draw(shown, lab.camera.request(width, height), kMarkPixels);
    }
  }

 private:
  static constexpr float kMarkPixels = 3;
  std::optional<WorldBox> shown_;  // the world drawn last
  std::unique_ptr<render::PointRenderer> points_;
  std::unique_ptr<render::MarkRenderer> marks_;
};

// One module's view into the current GL viewport (`width` x `height`). When drawing fails on the
// CUDA backend with interop on, interop itself may be what failed: the views carry on through
// host memory, and it is drawn again.
void drawModule(Lab& lab, Module& module, SceneRenderers& renderers, int width, int height) {
  renderers.link->want(lab.interop);
  for (const std::unique_ptr<SceneView>& view : renderers.views) {
    if (!view->shows(module)) continue;
    const auto draw = [&] { view->draw(lab, module, width, height); };
    if (!lab.attempt(draw) && module.backend() == Backend::Cuda && renderers.link->on()) {
      renderers.link->fail("interop failed: " + lab.errorMessage);
      lab.attempt(draw);
    }
    break;
  }
  renderers.transferMode = renderers.link->transferMode(module.backend());
}

}  // namespace

SceneRenderers::SceneRenderers() : link(std::make_shared<render::InteropLink>()) {
  views.push_back(std::make_unique<MeshView>(link));
  views.push_back(std::make_unique<VoxelView>(link));
  views.push_back(std::make_unique<SurfaceView>(link));
  views.push_back(std::make_unique<GraphView>(link));
  views.push_back(std::make_unique<FieldView2d>(link));
}

SceneRenderers::~SceneRenderers() = default;

std::vector<ViewColumn> viewColumns(Lab& lab, const ViewArea& view) {
  if (!lab.comparison()) return {{view.x, view.width}};
  const int free = std::max(2, view.width), half = free / 2;
  return {{view.x, half}, {view.x + half, free - half}};
}

void drawScene(Lab& lab, SceneRenderers& renderers, int width, int height, const ViewArea& view) {
  glViewport(0, 0, width, height);
  glClearColor(render::kBackground[0], render::kBackground[1], render::kBackground[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const bool is3d = shows3d(lab.module());
  if (lab.showed3d != is3d) lab.fitPending = true;  // the module changed its view
  lab.showed3d = is3d;
  lab.viewportHeight = view.height;
  // GL counts rows from the bottom; nothing drawn for the view reaches the panels' area.
  const int bottom = height - view.y - view.height;
  glEnable(GL_SCISSOR_TEST);
  glScissor(view.x, bottom, view.width, view.height);
  const std::vector<ViewColumn> columns = viewColumns(lab, view);
  glViewport(columns[0].x, bottom, columns[0].width, view.height);
  drawModule(lab, lab.module(), renderers, columns[0].width, view.height);
  // Both halves through one camera, each fitted to its half.
  if (columns.size() > 1)
    if (Comparison* comparison = lab.comparison()) {  // drawing A may have ended the comparison
      if (!renderers.compared) renderers.compared = std::make_unique<SceneRenderers>();
      glViewport(columns[1].x, bottom, columns[1].width, view.height);
      drawModule(lab, comparison->module(), *renderers.compared, columns[1].width, view.height);
    }
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, width, height);
}

}  // namespace ws::app
