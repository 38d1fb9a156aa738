#pragma once
// Drawing one frame's simulation view, shared by the GUI and the headless runner.
#include "app/lab.h"
#include "render/field_renderer.h"

namespace ws::app {

// Clears the bound framebuffer and draws the module's current view through the lab's camera.
void drawScene(Lab& lab, render::FieldRenderer& renderer, int width, int height);

}  // namespace ws::app
