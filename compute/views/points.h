#pragma once
// The points view: points drawn over the field (LBM's tracer particles).
#include <cstddef>

namespace ws {

// Three floats per point, world x, world y and an opacity in [0, 1]. On the CUDA backend `data`
// may be a device pointer (an interop-mapped GL buffer).
struct PointImage {
  float* data = nullptr;
  std::size_t count = 0;
  bool onDevice = false;
};

// What a module that draws points over its field offers.
class PointSource {
 public:
  virtual ~PointSource() = default;
  // The points to draw this frame (none at times), and writing exactly that many into `points`.
  virtual std::size_t pointCount() const = 0;
  virtual void renderPoints(PointImage& points) = 0;
};

}  // namespace ws
