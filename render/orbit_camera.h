#pragma once
// A camera that orbits a centre (Polyscope's turntable): yaw about the vertical axis, pitch above
// the horizon, a distance; dragging turns it, the wheel moves it closer, panning moves the centre.
#include <glm/glm.hpp>

namespace ws::render {

class OrbitCamera {
 public:
  glm::vec3 centre{0.0f};
  float yaw = 0.6f, pitch = 0.45f;  // radians
  float distance = 5;

  // Looks at a sphere of radius `radius` around `target` from a distance that shows all of it in
  // a viewport `aspect` (width / height) wide.
  void fit(glm::vec3 target, float radius, float aspect = 1);
  void turn(double dxPixels, double dyPixels);
  void zoom(double factor);  // > 1 moves closer
  void pan(double dxPixels, double dyPixels, int viewportHeight);
  glm::vec3 eye() const;
  glm::mat4 viewProjection(int viewportWidth, int viewportHeight) const;
  // The ray from the eye through the pixel (x, y from the top left), in world coordinates.
  void ray(double xPixels, double yPixels, int viewportWidth, int viewportHeight, glm::vec3& origin,
           glm::vec3& direction) const;

  static constexpr float kFieldOfView = 0.8f;  // vertical, radians
};

}  // namespace ws::render
