#pragma once
// One implementation of the Cahn-Hilliard field and its step: the CPU engine (ch_cpu.cpp, OpenMP)
// and the CUDA engine (ch_cuda.cu) with the source's kernels A-D and a fast path. The module
// drives whichever is selected.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compute/cahn-hilliard/ch_stencil.h"
#include "compute/core/timing.h"
#include "compute/views/field.h"

namespace ws::ch {

enum class Integrator { Euler, RK2 };

// A slice of the grid as the field view shows it: normal to `axis` (0 x, 1 y, 2 z) at `index`.
// The view's x runs along the first other axis, its y along the second.
struct Slice {
  int axis = 2, index = 0;
};
// The slice's width and height in cells.
inline int sliceWidth(const Shape& s, const Slice& slice) {
  return slice.axis == 0 ? s.ny : s.nx;
}
inline int sliceHeight(const Shape& s, const Slice& slice) {
  return slice.axis == 2 ? s.ny : s.nz;
}

inline int dimensionsOf(const Shape& s) {
  return s.nz > 1 ? 3 : 2;
}
inline bool sameShape(const Shape& a, const Shape& b) {
  return a.nx == b.nx && a.ny == b.ny && a.nz == b.nz;
}
// The domain size the totals give: the mean chord, the cells along every axis over the bonds
// that cross from one phase to the other; 0 where none does.
inline double domainSize(const Totals& t, const Shape& s) {
  return t.crossings == 0 ? 0.0 : double(dimensionsOf(s)) * double(s.cells()) / double(t.crossings);
}

// "1024x768" or "128x128x64".
inline std::string shapeText(const Shape& s) {
  std::string text = std::to_string(s.nx);
  text += 'x';
  text += std::to_string(s.ny);
  if (s.nz > 1) {
    text += 'x';
    text += std::to_string(s.nz);
  }
  return text;
}

// A cell set to a value (an edit), or what it held before.
struct CellValue {
  std::size_t cell = 0;
  float value = 0;
};

struct ChTimings {
  TimingScope* step;
  TimingScope* view;
};

class ChEngine {
 public:
  virtual ~ChEngine() = default;

  // A new grid of zeros. Throws OutOfMemoryError before touching the current one when it won't fit.
  virtual void reshape(const Shape& shape) = 0;
  virtual const Shape& shape() const = 0;

  virtual void load(std::span<const float> phi) = 0;  // shape().cells() values, x fastest
  virtual std::vector<float> save() = 0;
  // Sets each cell (named at most once) and returns what they held, in the same order.
  virtual std::vector<CellValue> setCells(std::span<const CellValue> cells) = 0;

  virtual void step(int steps, const Coefficients& k, Integrator integrator) = 0;
  virtual Totals totals(const Coefficients& k) = 0;
  virtual void render(const Slice& slice, const FieldRequest& request, FieldImage& image) = 0;
  // The field and its Laplacian (periodic) at every cell, in the engine's memory (device memory
  // for CUDA), for the isosurface: good until the engine next changes.
  struct Volume {
    const float* phi = nullptr;
    const float* laplacian = nullptr;
  };
  virtual Volume volume() = 0;

  virtual void pollTimings() {}
  virtual void drainTimings() {}
  virtual void synchronize() {}
  // How the step is launched, in words ("block 16x16, 12x12 update"), for the UI and the tests.
  virtual std::string configuration() const = 0;
  // The bytes a cell's time step moves at least through memory with this integrator: Euler
  // reads phi and writes it (8); RK2 reads and writes a stage (8), then reads the stage and phi
  // and writes phi (12).
  static double bytesPerCell(Integrator integrator) {
    return integrator == Integrator::Euler ? 8.0 : 20.0;
  }
};

// threads: 0 for OpenMP's choice, 1 for the source's single-thread baseline.
std::unique_ptr<ChEngine> makeCpuEngine(int threads, ChTimings timings);

// The periodic Laplacian of phi at cell (x, y, z): what colours the 3-D view's interfaces (at
// phi = 0 it is the interface's curvature times the slope of phi across it). Shared by the engines.
template <int D>
WS_HD float laplacianAt(const float* phi, const Shape& s, int x, int y, int z) {
  const auto at = [&](int dx, int dy, int dz) {
    return phi[s.index(wrapIndex(x + dx, s.nx), wrapIndex(y + dy, s.ny), wrapIndex(z + dz, s.nz))];
  };
  const float c = at(0, 0, 0);
  if constexpr (D == 2)
    return neighbourSum(at(-1, 0, 0), at(1, 0, 0), at(0, -1, 0), at(0, 1, 0)) - 4 * c;
  else
    return neighbourSum(at(-1, 0, 0), at(1, 0, 0), at(0, -1, 0), at(0, 1, 0), at(0, 0, -1),
                        at(0, 0, 1)) -
           6 * c;
}

// The field's value at a pixel of the view (NaN outside the slice): shared by the engines.
WS_HD float samplePixel(const float* phi, const Shape& s, const Slice& slice, const FieldRequest& r,
                        int px, int py) {
  const double wx = r.originX + (px + 0.5) * r.worldPerPixel;
  const double wy = r.originY + (py + 0.5) * r.worldPerPixel;
  const int w = slice.axis == 0 ? s.ny : s.nx, h = slice.axis == 2 ? s.ny : s.nz;
  if (wx < 0 || wy < 0 || wx >= w || wy >= h) return NAN;
  const int i = int(wx), j = int(wy);
  const int x = slice.axis == 0 ? slice.index : i;
  const int y = slice.axis == 0 ? i : slice.axis == 1 ? slice.index : j;
  const int z = slice.axis == 2 ? slice.index : j;
  return phi[s.index(x, y, z)];
}

}  // namespace ws::ch
