#include "app/scene.h"

#include "compute/core/cuda_check.h"
#include "render/colormap.h"
#include "render/gl/gl.h"

namespace ws::app {

namespace {

// Draws through `draw`; when that fails on the CUDA backend with interop on, interop itself may be
// what failed, so the renderer carries on through host memory and draws again.
template <typename Renderer, typename Draw>
void drawFallingBack(Lab& lab, Renderer& renderer, Draw&& draw) {
  if (!lab.attempt(draw) && lab.module().backend() == Backend::Cuda &&
      renderer.interopAvailable()) {
    renderer.disableInterop("interop failed: " + lab.errorMessage);
    lab.attempt(draw);
  }
}

}  // namespace

bool shows3d(Module& module) {
  return module.voxelScene() || module.meshScene();
}

void drawScene(Lab& lab, SceneRenderers& renderers, int width, int height, int leftInset) {
  glViewport(0, 0, width, height);
  glClearColor(render::kBackground[0], render::kBackground[1], render::kBackground[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const std::optional<VoxelScene> scene = lab.module().voxelScene();
  const std::optional<MeshScene> mesh = lab.module().meshScene();
  if (lab.showed3d && !scene && !mesh) lab.fitPending = true;  // the module changed its view
  lab.showed3d = scene || mesh;
  lab.viewportHeight = height;
  if (mesh) {
    if (lab.fitPending) {
      lab.orbit.fit({mesh->centre[0], mesh->centre[1], mesh->centre[2]}, mesh->extent);
      lab.fitPending = false;
    }
    drawFallingBack(lab, renderers.mesh, [&] {
      renderers.mesh.draw(lab.module(), *mesh, lab.orbit, width, height, lab.colormapForView());
    });
    renderers.transferMode = renderers.mesh.transferMode();
    return;
  }
  if (scene) {
    if (lab.fitPending) {
      lab.orbit.fit({0, 0, 0}, scene->extent * 0.8f);
      lab.fitPending = false;
    }
    drawFallingBack(lab, renderers.voxels,
                    [&] { renderers.voxels.draw(lab.module(), *scene, lab.orbit, width, height); });
    renderers.transferMode = renderers.voxels.transferMode();
    return;
  }
  const std::optional<GraphScene> graph = lab.module().graphScene();
  if (lab.fitPending || (graph && lab.followGraph)) {
    lab.camera.fit(lab.module().world(), width, height, leftInset);
    lab.fitPending = false;
  }
  if (graph) {
    drawFallingBack(lab, renderers.graph, [&] {
      renderers.graph.draw(lab.module(), *graph, lab.camera, width, height, lab.colormapForView());
    });
    renderers.transferMode = renderers.graph.transferMode();
    return;
  }
  drawFallingBack(lab, renderers.field, [&] {
    renderers.field.draw(lab.module(), lab.camera, width, height, lab.colormapForView(),
                         lab.gridLines);
  });
  renderers.transferMode = renderers.field.transferMode();
}

}  // namespace ws::app
