// The CPU engine: the stencil of ch_stencil.h over the grid, planes of rows shared among OpenMP
// threads (or one thread: the source's baseline). The oracle every CUDA kernel is tested against.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "compute/cahn-hilliard/ch_engine.h"
#include "compute/core/errors.h"
#include "compute/core/memory.h"
#include "compute/core/parallel.h"

namespace ws::ch {

namespace {

// The values around cell (x, y, z) of a periodic grid.
struct Around {
  const float* phi;
  const Shape& s;
  int x, y, z;
  float operator()(int dx, int dy, int dz) const {
    return phi[s.index(wrapIndex(x + dx, s.nx), wrapIndex(y + dy, s.ny), wrapIndex(z + dz, s.nz))];
  }
};

class CpuEngine final : public ChEngine {
 public:
  CpuEngine(int threads, ChTimings timings) : threads_(threads), timings_(timings) {}

  void reshape(const Shape& shape) override {
    const double bytes = 2.0 * double(shape.cells()) * sizeof(float);
    requireHostMemory(bytes, "a " + shapeText(shape) + " grid");
    std::vector<float> phi, stage;
    try {
      phi.assign(shape.cells(), 0.0f);
      stage.assign(shape.cells(), 0.0f);
    } catch (const std::bad_alloc&) {
      throw OutOfMemoryError("out of host memory for the grid");
    }
    phi_ = std::move(phi);
    stage_ = std::move(stage);
    shape_ = shape;
  }
  const Shape& shape() const override { return shape_; }

  void load(std::span<const float> phi) override {
    std::copy(phi.begin(), phi.end(), phi_.begin());
  }
  std::vector<float> save() override { return phi_; }
  std::vector<CellValue> setCells(std::span<const CellValue> cells) override {
    std::vector<CellValue> before;
    before.reserve(cells.size());
    for (const CellValue& c : cells) {
      before.push_back({c.cell, phi_[c.cell]});
      phi_[c.cell] = c.value;
    }
    return before;
  }

  void step(int steps, const Coefficients& k, Integrator integrator) override {
    if (steps <= 0) return;
    const CpuStopwatch watch;
    for (int i = 0; i < steps; ++i) {
      if (integrator == Integrator::Euler) {
        pass(Pass::Euler, phi_.data(), nullptr, stage_.data(), k);
        std::swap(phi_, stage_);
      } else {
        pass(Pass::Half, phi_.data(), nullptr, stage_.data(), k);
        pass(Pass::Final, stage_.data(), phi_.data(), phi_.data(), k);
      }
    }
    const double cells = double(shape_.cells()) * steps;
    timings_.step->record(watch.elapsedMs(), cells, cells * bytesPerCell(integrator));
  }

  Totals totals(const Coefficients& k) override { return shape_.nz > 1 ? sum<3>(k) : sum<2>(k); }

  void render(const Slice& slice, const FieldRequest& r, FieldImage& image) override {
    const CpuStopwatch watch;
#pragma omp parallel for num_threads(threadCount())
    for (int py = 0; py < r.height; ++py)
      for (int px = 0; px < r.width; ++px)
        image.pixels[std::size_t(py) * r.width + px] =
            samplePixel(phi_.data(), shape_, slice, r, px, py);
    const double pixels = double(r.width) * r.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }

  Volume volume() override {
    laplacian_.resize(phi_.size());
    const Shape& s = shape_;
    forEachRow([&](int y, int z, long long) {
      for (int x = 0; x < s.nx; ++x)
        laplacian_[s.index(x, y, z)] = s.nz > 1 ? laplacianAt<3>(phi_.data(), s, x, y, z)
                                                : laplacianAt<2>(phi_.data(), s, x, y, z);
    });
    return {phi_.data(), laplacian_.data()};
  }

  std::string configuration() const override {
    return threadsText(threads_);
  }

 private:
  int threadCount() const {
    return teamSize(threads_);
  }

  // f(y, z, row) for every row of cells along x, the rows shared among the threads.
  template <typename F>
  void forEachRow(const F& f) const {
    const long long rows = (long long)shape_.ny * shape_.nz;
#pragma omp parallel for schedule(static) \
    num_threads(threadCount()) if (worthATeam(std::size_t(rows) * shape_.nx))
    for (long long row = 0; row < rows; ++row) f(int(row % shape_.ny), int(row / shape_.ny), row);
  }

  // One pass: out = base + h f(in) at every cell (base = in unless given: RK2's final pass,
  // which may write over base, since each cell reads its own base value only).
  void pass(Pass kind, const float* in, const float* base, float* out, const Coefficients& k) {
    if (shape_.nz > 1)
      passOf<3>(kind, in, base, out, k);
    else
      passOf<2>(kind, in, base, out, k);
  }

  template <int D>
  void passOf(Pass kind, const float* in, const float* base, float* out, const Coefficients& k) {
    const float h = passStep(kind, k);
    const Shape& s = shape_;
    forEachRow([&](int y, int z, long long) {
      for (int x = 0; x < s.nx; ++x) {
        const std::size_t n = s.index(x, y, z);
        const float rate = rateAt<D>(Around{in, s, x, y, z}, k);
        out[n] = (base ? base[n] : in[n]) + h * rate;
      }
    });
  }

  // Row by row, then the rows' sums in order: the same totals on any number of threads (the A/B
  // view compares them bit for bit).
  template <int D>
  Totals sum(const Coefficients& k) const {
    const Shape& s = shape_;
    std::vector<Totals> byRow(std::size_t(s.ny) * s.nz);
    forEachRow([&](int y, int z, long long row) {
      Totals& t = byRow[std::size_t(row)];
      for (int x = 0; x < s.nx; ++x) {
        const Around at{phi_.data(), s, x, y, z};
        t.mass += at(0, 0, 0);
        t.energy += cellEnergy<D>(at, k);
        t.crossings += cellCrossings<D>(at);
      }
    });
    Totals all;
    for (const Totals& t : byRow) {
      all.mass += t.mass;
      all.energy += t.energy;
      all.crossings += t.crossings;
    }
    return all;
  }

  int threads_;
  ChTimings timings_;
  Shape shape_;
  std::vector<float> phi_, stage_;
  std::vector<float> laplacian_;  // the 3-D view's, made when asked
};

}  // namespace

std::unique_ptr<ChEngine> makeCpuEngine(int threads, ChTimings timings) {
  return std::make_unique<CpuEngine>(threads, timings);
}

}  // namespace ws::ch
