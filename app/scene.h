#pragma once
// Drawing one frame's simulation view, shared by the GUI and the headless runner: a module's 2-D
// field, its 2-D graph, or its 3-D voxel or mesh scene where it has one.
#include <string>

#include "app/lab.h"
#include "render/field_renderer.h"
#include "render/graph_renderer.h"
#include "render/mesh_renderer.h"
#include "render/voxel_renderer.h"

namespace ws::app {

struct SceneRenderers {
  render::FieldRenderer field;
  render::VoxelRenderer voxels;
  render::MeshRenderer mesh;
  render::GraphRenderer graph;
  // How the last frame's view reached GL, for the status bar.
  std::string transferMode;
};

// Clears the bound framebuffer and draws the module's current view through the lab's camera.
// `leftInset`: pixels on the left covered by panels, kept free when the view is fitted.
// Whether the module shows a 3-D scene now (the orbit camera drives the view).
bool shows3d(Module& module);

void drawScene(Lab& lab, SceneRenderers& renderers, int width, int height, int leftInset);

}  // namespace ws::app
