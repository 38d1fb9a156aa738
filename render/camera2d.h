#pragma once
// A 2-D camera over a module's world: a centre and a zoom (pixels per world unit). Screen pixel
// (0, 0) is the viewport's top-left corner; world y grows downwards, like the grid's rows.
#include "compute/core/module.h"
#include "compute/views/field.h"

namespace ws::render {

class Camera2D {
 public:
  double centerX = 0, centerY = 0;
  double zoom = 1;  // pixels per world unit

  // Frames the box in the viewport (the view between the panels: nothing of it is covered).
  void fit(const WorldBox& box, int viewportWidth, int viewportHeight);
  double worldX(double screenX, int viewportWidth) const;
  double worldY(double screenY, int viewportHeight) const;
  // Zooms by `factor`, keeping the world point under the screen point where it is.
  void zoomAbout(double factor, double screenX, double screenY, int viewportWidth,
                 int viewportHeight);
  void pan(double dxPixels, double dyPixels);
  FieldRequest request(int viewportWidth, int viewportHeight) const;

  static constexpr double kMinZoom = 1.0 / 4096, kMaxZoom = 256;
};

}  // namespace ws::render
