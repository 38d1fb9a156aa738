#pragma once
// The field view: a scalar quantity on the plane, sampled into an image and shown through a colour
// map (Life's cells, LBM's vorticity, a hash table's slots). Light on purpose: CUDA kernels
// include it for FieldRequest and FieldImage.
#include <string>
#include <vector>

namespace ws {

// Which part of the world to sample into the image: pixel (i, j) covers world
// [originX + i*worldPerPixel, +worldPerPixel) x [originY + j*worldPerPixel, +worldPerPixel).
struct FieldRequest {
  double originX = 0, originY = 0;
  double worldPerPixel = 1;
  int width = 0, height = 0;
};

// Where the image goes: one float per pixel, row-major, top row first; NaN marks "outside the
// world". On the CUDA backend `pixels` may be a device pointer (an interop-mapped GL buffer).
struct FieldImage {
  float* pixels = nullptr;
  int width = 0, height = 0;
  bool onDevice = false;
};

// A quantity the field can show, and how.
struct FieldView {
  std::string name;   // "alive", "age", "vorticity"
  std::string label;  // for the colour bar
  float minValue = 0, maxValue = 1;
  std::string colormap;  // default colour map
};

// What a module that shows a field offers.
class FieldSource {
 public:
  virtual ~FieldSource() = default;
  virtual std::vector<FieldView> fieldViews() const = 0;
  virtual int currentFieldView() const = 0;
  // Samples the current view into `image` (written on the device where image.onDevice).
  virtual void renderField(const FieldRequest& request, FieldImage& image) = 0;
};

}  // namespace ws
