#pragma once
// Sampling the grid into display pixels, shared by the CPU and CUDA paths. A pixel that covers
// many cells takes up to 4x4 samples and shows the live fraction (or the oldest age); a pixel
// inside one cell shows that cell.
#include <cmath>

#include "compute/core/field.h"
#include "compute/core/hd.h"

namespace ws::life {

enum class LifeView { Alive = 0, Age = 1 };

// Reader: anything with `float value(int x, int y) const` for cells inside the grid.
template <typename Reader>
WS_HD float samplePixel(const Reader& reader, int width, int height, const FieldRequest& request,
                        int px, int py, bool takeMax) {
  const double x0 = request.originX + px * request.worldPerPixel;
  const double y0 = request.originY + py * request.worldPerPixel;
  const int samples = request.worldPerPixel <= 1.0 ? 1
                      : request.worldPerPixel >= 4.0
                          ? 4
                          : static_cast<int>(ceil(request.worldPerPixel));
  const double spacing = request.worldPerPixel / samples;
  float total = 0;
  int inside = 0;
  for (int sy = 0; sy < samples; ++sy) {
    const double wy = floor(y0 + (sy + 0.5) * spacing);
    if (wy < 0 || wy >= height) continue;
    for (int sx = 0; sx < samples; ++sx) {
      const double wx = floor(x0 + (sx + 0.5) * spacing);
      if (wx < 0 || wx >= width) continue;
      const float v = reader.value(static_cast<int>(wx), static_cast<int>(wy));
      total = takeMax ? fmaxf(total, v) : total + v;
      ++inside;
    }
  }
  if (inside == 0) return NAN;
  return takeMax ? total : total / inside;
}

}  // namespace ws::life
