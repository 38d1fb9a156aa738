#pragma once
// What the user looks at: one plane of the lattice (the whole grid in 2-D, a movable slice in
// 3-D), its moments, and the quantity shown per pixel. Shared by the CPU and CUDA paths.
#include <cmath>
#include <cstddef>

#include "compute/core/hd.h"
#include "compute/lbm/lbm_cell.h"
#include "compute/views/field.h"

namespace ws::lbm {

enum class LbmView { Speed = 0, Vorticity = 1, Density = 2 };

// A plane through the grid, normal to `axis` (0 x, 1 y, 2 z) at `index`. Plane coordinates
// (a, b) are the two other axes in order: (x, y) for z, (x, z) for y, (y, z) for x.
struct Plane {
  int axis = 2, index = 0;
  WS_HD int width(const Grid& g) const { return axis == 0 ? g.ny : g.nx; }
  WS_HD int height(const Grid& g) const { return axis == 2 ? g.ny : g.nz; }
  WS_HD std::size_t cell(const Grid& g, int a, int b) const {
    const int x = axis == 0 ? index : a;
    const int y = axis == 0 ? a : axis == 1 ? index : b;
    const int z = axis == 2 ? index : b;
    return (std::size_t(z) * g.ny + y) * g.nx + x;
  }
  // In-plane velocity components of a cell's moments.
  WS_HD int firstComponent() const { return axis == 0 ? 1 : 0; }
  WS_HD int secondComponent() const { return axis == 2 ? 1 : 2; }
};

// The moments of one plane cell, packed for the view (rho is NaN on walls); aligned so that the
// GPU reads one in a single 16-byte load.
struct alignas(16) PlaneSample {
  float rho, u[3];
};

// The value shown for plane cell (a, b). `at(a, b)` returns a PlaneSample.
template <typename At>
WS_HD float viewValue(LbmView view, const Plane& plane, int width, int height, int a, int b,
                      const At& at) {
  const PlaneSample c = at(a, b);
  if (!(c.rho == c.rho)) return NAN;  // wall
  if (view == LbmView::Density) return c.rho;
  if (view == LbmView::Speed) return sqrtf(c.u[0] * c.u[0] + c.u[1] * c.u[1] + c.u[2] * c.u[2]);
  // Vorticity normal to the plane: d(u_b)/da - d(u_a)/db, central where both neighbours are fluid.
  const int ca = plane.firstComponent(), cb = plane.secondComponent();
  auto derivative = [&](int da, int db, int component) {
    const bool hasPrev = (da ? a > 0 : b > 0), hasNext = (da ? a < width - 1 : b < height - 1);
    PlaneSample prev = c, next = c;
    if (hasPrev) prev = at(a - da, b - db);
    if (hasNext) next = at(a + da, b + db);
    const bool prevOk = hasPrev && prev.rho == prev.rho, nextOk = hasNext && next.rho == next.rho;
    const float lo = prevOk ? prev.u[component] : c.u[component];
    const float hi = nextOk ? next.u[component] : c.u[component];
    const int span = int(prevOk) + int(nextOk);
    return span == 0 ? 0.0f : (hi - lo) / float(span);
  };
  return derivative(1, 0, cb) - derivative(0, 1, ca);
}

// The plane cell under pixel (px, py): world x runs along a, world y upwards along b (the plane's
// row 0 is at the bottom of the picture). Returns false outside the plane.
WS_HD bool pixelCell(const FieldRequest& r, int width, int height, int px, int py, int& a, int& b) {
  const double wx = r.originX + (px + 0.5) * r.worldPerPixel;
  const double wy = r.originY + (py + 0.5) * r.worldPerPixel;
  if (wx < 0 || wy < 0 || wx >= width || wy >= height) return false;
  a = int(wx);
  b = height - 1 - int(wy);
  return true;
}

// Pixel (px, py) of the image: the view's value at the plane cell under it (moments row by row).
WS_HD float renderPixel(LbmView view, const Plane& plane, int width, int height,
                        const FieldRequest& request, int px, int py, const PlaneSample* moments) {
  int a = 0, b = 0;
  if (!pixelCell(request, width, height, px, py, a, b)) return NAN;
  return viewValue(view, plane, width, height, a, b,
                   [&](int i, int j) { return moments[std::size_t(j) * width + i]; });
}

}  // namespace ws::lbm
