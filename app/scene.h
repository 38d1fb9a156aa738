#pragma once
// Drawing one frame's simulation view, shared by the GUI and the headless runner.
#include "app/lab.h"
#include "render/field_renderer.h"

namespace ws::app {

// Clears the bound framebuffer and draws the module's current view through the lab's camera.
// `leftInset`: pixels on the left covered by panels, kept free when the view is fitted.
void drawScene(Lab& lab, render::FieldRenderer& renderer, int width, int height, int leftInset);

}  // namespace ws::app
