#include "app/scene.h"

#include "compute/core/cuda_check.h"
#include "render/colormap.h"
#include "render/gl/gl.h"

namespace ws::app {

namespace {

// Draws through `draw`; when that fails on the CUDA backend with interop on, interop itself may be
// what failed, so the renderer carries on through host memory and draws again.
template <typename Renderer, typename Draw>
void drawFallingBack(Lab& lab, Module& module, Renderer& renderer, Draw&& draw) {
  if (!lab.attempt(draw) && module.backend() == Backend::Cuda && renderer.interopAvailable()) {
    renderer.disableInterop("interop failed: " + lab.errorMessage);
    lab.attempt(draw);
  }
}

// One module's view into the current GL viewport (`width` x `height`).
void drawModule(Lab& lab, Module& module, SceneRenderers& renderers, int width, int height) {
  const std::optional<VoxelScene> scene = module.voxelScene();
  const std::optional<MeshScene> mesh = module.meshScene();
  if (mesh) {
    if (lab.fitPending) {
      lab.orbit.fit({mesh->centre[0], mesh->centre[1], mesh->centre[2]}, mesh->extent);
      lab.fitPending = false;
    }
    drawFallingBack(lab, module, renderers.mesh, [&] {
      renderers.mesh.draw(module, *mesh, lab.orbit, width, height, lab.colormapForView());
    });
    renderers.transferMode = renderers.mesh.transferMode();
    return;
  }
  if (scene) {
    if (lab.fitPending) {
      lab.orbit.fit({0, 0, 0}, scene->extent * 0.8f);
      lab.fitPending = false;
    }
    drawFallingBack(lab, module, renderers.voxels,
                    [&] { renderers.voxels.draw(module, *scene, lab.orbit, width, height); });
    renderers.transferMode = renderers.voxels.transferMode();
    return;
  }
  const std::optional<GraphScene> graph = module.graphScene();
  if (lab.fitPending || (graph && lab.followGraph)) {
    lab.camera.fit(module.world(), width, height);
    lab.fitPending = false;
  }
  if (graph) {
    drawFallingBack(lab, module, renderers.graph, [&] {
      renderers.graph.draw(module, *graph, lab.camera, width, height, lab.colormapForView());
    });
    renderers.transferMode = renderers.graph.transferMode();
    return;
  }
  renderers.field.useInterop(lab.interop);
  drawFallingBack(lab, module, renderers.field, [&] {
    renderers.field.draw(module, lab.camera, width, height, lab.colormapForView(), lab.gridLines);
  });
  renderers.transferMode = renderers.field.transferMode();
}

}  // namespace

bool shows3d(Module& module) {
  return module.voxelScene() || module.meshScene();
}

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
  if (lab.showed3d && !is3d) lab.fitPending = true;  // the module changed its view
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
