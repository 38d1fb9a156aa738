#include "render/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace ws::render {

namespace {
constexpr float kRadiansPerPixel = 0.008f;
constexpr float kMaxPitch = 1.55f;  // just short of straight up or down
}  // namespace

void OrbitCamera::fit(glm::vec3 target, float radius, float aspect) {
  centre = target;
  // The narrower of the two fields of view: a tall, narrow view sees less across than up.
  const float halfUp = kFieldOfView / 2;
  const float halfAcross = std::atan(std::tan(halfUp) * std::max(aspect, 1e-3f));
  distance = radius / std::sin(std::min(halfUp, halfAcross)) * 1.05f;
}

void OrbitCamera::turn(double dxPixels, double dyPixels) {
  yaw -= float(dxPixels) * kRadiansPerPixel;
  pitch = std::clamp(pitch + float(dyPixels) * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::zoom(double factor) {
  distance = std::clamp(distance / float(factor), 0.05f, 1000.0f);
}

glm::vec3 OrbitCamera::eye() const {
  return centre + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                       std::cos(pitch) * std::cos(yaw));
}

void OrbitCamera::pan(double dxPixels, double dyPixels, int viewportHeight) {
  // One pixel moves the centre by the width a pixel covers at the centre's distance.
  const float perPixel =
      2 * distance * std::tan(kFieldOfView / 2) / float(std::max(viewportHeight, 1));
  const glm::vec3 forward = glm::normalize(centre - eye());
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, forward);
  centre += (-float(dxPixels) * right + float(dyPixels) * up) * perPixel;
}

glm::mat4 OrbitCamera::viewProjection(int viewportWidth, int viewportHeight) const {
  const float aspect = float(std::max(viewportWidth, 1)) / float(std::max(viewportHeight, 1));
  const glm::mat4 projection =
      glm::perspective(kFieldOfView, aspect, distance * 0.01f, distance * 10.0f);
  return projection * glm::lookAt(eye(), centre, glm::vec3(0, 1, 0));
}

void OrbitCamera::ray(double xPixels, double yPixels, int viewportWidth, int viewportHeight,
                      glm::vec3& origin, glm::vec3& direction) const {
  // The pixel's points on the near and far planes, through the inverse of the projection.
  const glm::mat4 inverse = glm::inverse(viewProjection(viewportWidth, viewportHeight));
  const float x = float(2 * xPixels / std::max(viewportWidth, 1) - 1);
  const float y = float(1 - 2 * yPixels / std::max(viewportHeight, 1));
  const glm::vec4 near = inverse * glm::vec4(x, y, -1, 1), far = inverse * glm::vec4(x, y, 1, 1);
  origin = glm::vec3(near) / near.w;
  direction = glm::normalize(glm::vec3(far) / far.w - origin);
}

}  // namespace ws::render
