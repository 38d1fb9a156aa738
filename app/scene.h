#pragma once
// Drawing one frame's simulation view, shared by the GUI and the headless runner: of the views a
// module offers (compute/views/), the first in the scene's order that it shows now, each drawn by
// its own renderer through the lab's camera.
#include <memory>
#include <string>
#include <vector>

#include "app/lab.h"
#include "app/shown_view.h"
#include "render/shared_buffer.h"

namespace ws::app {

// One kind of view the scene can draw: whether a module shows it now, and drawing it.
class SceneView {
 public:
  virtual ~SceneView() = default;
  virtual bool shows(Module& module) const = 0;
  // Into the current GL viewport (`width` x `height`), fitting the camera first where it is due.
  virtual void draw(Lab& lab, Module& module, int width, int height) = 0;
};

// The scene's views in order of precedence (the first a module shows is drawn), their renderers
// made when first drawn, and the interop link their buffers share.
struct SceneRenderers {
  SceneRenderers();  // needs a current GL context
  ~SceneRenderers();
  std::shared_ptr<render::InteropLink> link;
  std::vector<std::unique_ptr<SceneView>> views;
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

// Clears the bound framebuffer (`width` x `height` pixels) and draws the module's current view
// into `view` alone, through the lab's camera; in the A/B view, A on the left half of it and B on
// the right, through the same camera.
void drawScene(Lab& lab, SceneRenderers& renderers, int width, int height, const ViewArea& view);

}  // namespace ws::app
