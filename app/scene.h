#pragma once
// Drawing one frame's simulation view, shared by the GUI and the headless runner: a module's 2-D
// field, its 2-D graph, or its 3-D voxel or mesh scene where it has one.
#include <array>
#include <memory>
#include <string>
#include <vector>

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
  // The A/B view's right half (the compared module's own buffers), made on first use.
  std::unique_ptr<SceneRenderers> compared;
};

// The part of the framebuffer the simulation is drawn in, in pixels from its top left: the free
// area between the panels (app/ui/ui.h's Layout), or the whole window when they are hidden.
struct ViewArea {
  int x = 0, y = 0, width = 1, height = 1;
};

// A column of the view, in framebuffer pixels from the left: where one simulation is drawn.
struct ViewColumn {
  int x = 0, width = 0;
  bool contains(double px) const { return px >= x && px < x + width; }
};
// The simulation's columns: the whole view, or in the A/B view its two halves.
std::vector<ViewColumn> viewColumns(Lab& lab, const ViewArea& view);

// Whether the module shows a 3-D scene now (the orbit camera drives the view).
bool shows3d(Module& module);

// Clears the bound framebuffer (`width` x `height` pixels) and draws the module's current view
// into `view` alone, through the lab's camera; in the A/B view, A on the left half of it and B on
// the right, through the same camera.
void drawScene(Lab& lab, SceneRenderers& renderers, int width, int height, const ViewArea& view);

}  // namespace ws::app
