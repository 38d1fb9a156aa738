#include "render/camera2d.h"

#include <algorithm>
#include <cmath>

namespace ws::render {

void Camera2D::fit(const WorldBox& box, int viewportWidth, int viewportHeight) {
  const double zx = viewportWidth / std::max(1e-9, box.maxX - box.minX);
  const double zy = viewportHeight / std::max(1e-9, box.maxY - box.minY);
  zoom = std::clamp(std::min(zx, zy), kMinZoom, kMaxZoom);
  // Whole pixels per cell when zoomed in, so cells look crisp and equal.
  if (zoom >= 2) zoom = std::floor(zoom);
  centerX = 0.5 * (box.minX + box.maxX);
  centerY = 0.5 * (box.minY + box.maxY);
}

double Camera2D::worldX(double screenX, int viewportWidth) const {
  return centerX + (screenX - 0.5 * viewportWidth) / zoom;
}

double Camera2D::worldY(double screenY, int viewportHeight) const {
  return centerY + (screenY - 0.5 * viewportHeight) / zoom;
}

void Camera2D::zoomAbout(double factor, double screenX, double screenY, int viewportWidth,
                         int viewportHeight) {
  const double wx = worldX(screenX, viewportWidth), wy = worldY(screenY, viewportHeight);
  zoom = std::clamp(zoom * factor, kMinZoom, kMaxZoom);
  centerX = wx - (screenX - 0.5 * viewportWidth) / zoom;
  centerY = wy - (screenY - 0.5 * viewportHeight) / zoom;
}

void Camera2D::pan(double dxPixels, double dyPixels) {
  centerX -= dxPixels / zoom;
  centerY -= dyPixels / zoom;
}

FieldRequest Camera2D::request(int viewportWidth, int viewportHeight) const {
  FieldRequest r;
  r.originX = worldX(0, viewportWidth);
  r.originY = worldY(0, viewportHeight);
  r.worldPerPixel = 1.0 / zoom;
  r.width = viewportWidth;
  r.height = viewportHeight;
  return r;
}

}  // namespace ws::render
