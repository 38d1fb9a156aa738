#include "app/scene.h"

#include "compute/core/cuda_check.h"
#include "render/colormap.h"
#include "render/gl/gl.h"

namespace ws::app {

void drawScene(Lab& lab, render::FieldRenderer& renderer, int width, int height, int leftInset) {
  glViewport(0, 0, width, height);
  glClearColor(render::kBackground[0], render::kBackground[1], render::kBackground[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (lab.fitPending) {
    lab.camera.fit(lab.module().world(), width, height, leftInset);
    lab.fitPending = false;
  }
  const bool drawn = lab.attempt([&] {
    renderer.draw(lab.module(), lab.camera, width, height, lab.colormapForView(), lab.gridLines);
  });
  if (!drawn && lab.module().backend() == Backend::Cuda && renderer.interopAvailable()) {
    // Interop itself may be what failed: carry on through host memory.
    renderer.disableInterop("interop failed: " + lab.errorMessage);
    lab.attempt([&] {
      renderer.draw(lab.module(), lab.camera, width, height, lab.colormapForView(), lab.gridLines);
    });
  }
}

}  // namespace ws::app
