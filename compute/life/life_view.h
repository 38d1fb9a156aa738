#pragma once
// Sampling the grid into display pixels, shared by the CPU and CUDA paths. A pixel that covers
// many cells takes up to 4x4 samples and shows the live fraction (or the oldest age); a pixel
// inside one cell shows that cell.
#include <cmath>

#include "compute/core/hd.h"
#include "compute/views/field.h"

namespace ws::life {

enum class LifeView { Alive = 0, Age = 1 };

// Samples per pixel along each axis: 1 while a pixel lies within a cell, up to 4 when it covers
// many.
WS_HD int samplesPerAxis(double worldPerPixel) {
  if (worldPerPixel <= 1.0) return 1;
  return worldPerPixel >= 4.0 ? 4 : static_cast<int>(ceil(worldPerPixel));
}

// The cell under sample s of pixel p along one axis, or -1 when it falls outside [0, extent).
WS_HD int sampleCell(double origin, double worldPerPixel, int samples, int p, int s, int extent) {
  const double w = floor(origin + p * worldPerPixel + (s + 0.5) * (worldPerPixel / samples));
  return (w < 0 || w >= extent) ? -1 : static_cast<int>(w);
}

// One pixel's samples: their mean (the live fraction) or, for ages, their largest; NaN if none
// fell inside the world.
struct PixelSamples {
  bool takeMax;
  float total = 0;
  int inside = 0;
  WS_HD void add(float v) {
    total = takeMax ? fmaxf(total, v) : total + v;
    ++inside;
  }
  WS_HD float value() const { return inside == 0 ? NAN : takeMax ? total : total / inside; }
};

// Reader: anything with `float value(int x, int y) const` for cells inside the grid.
template <typename Reader>
WS_HD float samplePixel(const Reader& reader, int width, int height, const FieldRequest& request,
                        int px, int py, bool takeMax) {
  const int samples = samplesPerAxis(request.worldPerPixel);
  PixelSamples pixel{takeMax};
  for (int sy = 0; sy < samples; ++sy) {
    const int y = sampleCell(request.originY, request.worldPerPixel, samples, py, sy, height);
    if (y < 0) continue;
    for (int sx = 0; sx < samples; ++sx) {
      const int x = sampleCell(request.originX, request.worldPerPixel, samples, px, sx, width);
      if (x >= 0) pixel.add(reader.value(x, y));
    }
  }
  return pixel.value();
}

}  // namespace ws::life
