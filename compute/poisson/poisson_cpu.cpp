// The CPU engine: every ordering with OpenMP over rows of nodes (the oracle of the CUDA kernels),
// and the sequential Gauss-Seidel the colourings stand in for.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "compute/core/memory.h"
#include "compute/core/parallel.h"
#include "compute/poisson/poisson_engine.h"

namespace ws::poisson {

namespace {

// One grid of the hierarchy: the finest is the problem's, each coarser one has half its cells
// and holds the error equation's right-hand side (the restricted residual) and solution.
template <typename T>
struct Level {
  Grid grid;
  std::vector<T> u, f;
  std::vector<T> k, stencils;  // with stored stencils: the cells' coefficients, a stencil a node
};

// The rows of nodes inside a grid: (n - 1) in 2-D, (n - 1)^2 in 3-D; row r lies at y = 1 + r %
// (n - 1), z = 1 + r / (n - 1) (z = 0 in 2-D).
inline long long rowsOf(const Grid& g) {
  return g.dims == 3 ? (long long)(g.n - 1) * (g.n - 1) : g.n - 1;
}

// T: float or double, what u and f are held in.
template <typename T>
class CpuEngine final : public PoissonEngine {
 public:
  CpuEngine(int threads, PoissonTimings timings) : threads_(threads), timings_(timings) {}

  void reshape(const Grid& grid) override {
    // With the two arrays the module loads from.
    requireHostMemory(
        engineBytes(grid, kPrecision, {}) + 2.0 * double(grid.nodes()) * sizeof(double),
        "a grid of " + std::to_string(grid.n) + " cells a side");
    std::vector<Level<T>> levels;
    for (const Grid& g : hierarchy(grid))
      levels.push_back({g, std::vector<T>(g.nodes(), T(0)), std::vector<T>(g.nodes(), T(0))});
    levels_ = std::move(levels);
    next_.assign(grid.nodes(), T(0));
    variable_ = false;
    built_.reset();
  }
  const Grid& grid() const override { return levels_[0].grid; }

  void load(std::span<const double> u, std::span<const double> f) override {
    Level<T>& top = levels_[0];
    top.u.assign(u.begin(), u.end());
    top.f.assign(f.begin(), f.end());
    next_ = top.u;  // Jacobi's other array keeps the same boundary
  }
  std::vector<double> solution() override { return {levels_[0].u.begin(), levels_[0].u.end()}; }
  std::vector<double> rightHandSide() override {
    return {levels_[0].f.begin(), levels_[0].f.end()};
  }
  std::vector<NodeValue> setRightHandSide(std::span<const NodeValue> nodes) override {
    std::vector<NodeValue> before;
    before.reserve(nodes.size());
    for (const NodeValue& v : nodes) {
      before.push_back({v.node, levels_[0].f[v.node]});
      levels_[0].f[v.node] = T(v.value);
    }
    return before;
  }

  void loadCoefficient(std::span<const double> k, const Sweep& s) override {
    const bool variable = !k.empty();
    if (variable && k.size() != grid().cells())
      throw std::invalid_argument("a coefficient for every cell of the grid");
    if (variable || s.stored) allocateStencils(s);
    variable_ = variable;
    if (!levels_[0].k.empty()) {
      if (variable)
        levels_[0].k.assign(k.begin(), k.end());
      else
        std::fill(levels_[0].k.begin(), levels_[0].k.end(), T(1));
    }
    built_.reset();
    prepare(s);
  }
  std::vector<double> coefficient() override {
    if (!variable_) return {};
    return {levels_[0].k.begin(), levels_[0].k.end()};
  }
  std::vector<NodeValue> setCoefficient(std::span<const NodeValue> cells, const Sweep& s) override {
    if (!variable_) loadCoefficient(std::vector<double>(grid().cells(), 1.0), s);
    std::vector<NodeValue> before;
    before.reserve(cells.size());
    for (const NodeValue& v : cells) {
      before.push_back({v.node, levels_[0].k[v.node]});
      levels_[0].k[v.node] = T(v.value);
    }
    built_.reset();
    prepare(s);
    return before;
  }
  void prepare(const Sweep& s) override {
    if (!s.stored || built_ == s.stencil) return;
    allocateStencils(s);
    withStencil(grid().dims, s.stencil, [&]<int D, Stencil S>() {
      for (std::size_t l = 0; l < levels_.size(); ++l) {
        Level<T>& level = levels_[l];
        const Grid& g = level.grid;
        if (l > 0)  // the coarser cells' coefficients: the means of the finer ones'
          for (int cz = 0; cz < (D == 3 ? g.n : 1); ++cz)
            for (int cy = 0; cy < g.n; ++cy)
              for (int cx = 0; cx < g.n; ++cx)
                level.k[g.cell(cx, cy, cz)] =
                    coarseCoefficient(levels_[l - 1].k.data(), levels_[l - 1].grid, cx, cy, cz);
        forEachRow(g, [&](int y, int z, long long) {
          for (int x = 1; x < g.n; ++x)
            buildStencil<D, S>(g, level.k.data(), x, y, z, &level.stencils[g.index(x, y, z)],
                               g.nodes());
        });
      }
      return 0;
    });
    built_ = s.stencil;
  }

  void sweep(int count, const Sweep& s) override {
    prepare(s);
    const CpuStopwatch watch;
    withStencil(grid().dims, s.stencil, [&]<int D, Stencil S>() {
      for (int k = 0; k < count; ++k) {
        if (s.method == Method::Multigrid)
          vcycle<D, S>(0, s);
        else
          sweepLevel<D, S>(levels_[0], s);
      }
      return 0;
    });
    const double updates = double(grid().unknowns()) * count;
    Sweep oneWay = s;  // the CPU's (the kernels are the GPU's)
    oneWay.kernel = Kernel::ThreadANode;
    timings_.sweep->record(watch.elapsedMs(), updates,
                           updates * bytesPerUpdate(oneWay, grid().dims, kPrecision));
  }

  Norms norms(const Sweep& s) override {
    prepare(s);
    const Level<T>& top = levels_[0];
    const Grid& g = top.grid;
    const Operator<T> op = operatorOf(top, s);
    // Row by row into fixed places, then added in order: the same sums on any thread count.
    std::vector<double> residuals(std::size_t(rowsOf(g))), errors(residuals.size()),
        largest(residuals.size());
    withStencil(g.dims, s.stencil, [&]<int D, Stencil S>() {
      forEachRow(g, [&](int y, int z, long long row) {
        double r2 = 0, e2 = 0, most = 0;
        for (int x = 1; x < g.n; ++x) {
          const T u = top.u[g.index(x, y, z)];
          const T r = nodeQuantity<D, S>(Quantity::Residual, top.u.data(), top.f.data(), nullptr,
                                         op, g, 2, x, y, z);
          const double e = u - sineSolution(g, x, y, z);
          r2 += double(r) * r;
          e2 += e * e;
          most = std::max(most, double(std::fabs(u)));
        }
        residuals[row] = r2, errors[row] = e2, largest[row] = most;
      });
      return 0;
    });
    Norms norms;
    for (std::size_t row = 0; row < residuals.size(); ++row) {
      norms.residual += residuals[row];
      norms.error += errors[row];
      norms.largest = std::max(norms.largest, largest[row]);
    }
    const double unknowns = double(g.unknowns());
    norms.residual = std::sqrt(norms.residual / unknowns);
    norms.error = std::sqrt(norms.error / unknowns);
    return norms;
  }

  void render(Quantity quantity, const Sweep& s, int slice, const FieldRequest& request,
              FieldImage& image) override {
    prepare(s);
    const CpuStopwatch watch;
    const Level<T>& top = levels_[0];
    const Grid& g = top.grid;
    const Operator<T> op = operatorOf(top, s);
    const T* k = variable_ ? top.k.data() : nullptr;
    withStencil(g.dims, s.stencil, [&]<int D, Stencil S>() {
#pragma omp parallel for schedule(static) num_threads(threadCount())
      for (int py = 0; py < image.height; ++py)
        for (int px = 0; px < image.width; ++px)
          image.pixels[std::size_t(py) * image.width + px] = pixelValue<D, S>(
              quantity, top.u.data(), top.f.data(), k, op, g, s.colours, slice, request, px, py);
      return 0;
    });
    const double pixels = double(image.width) * image.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }

  std::string configuration(const Sweep&) const override {
    return threadsText(threads_) + (kPrecision == Precision::Double ? ", double" : ", float");
  }

 private:
  static constexpr Precision kPrecision =
      sizeof(T) == sizeof(double) ? Precision::Double : Precision::Float;

  int threadCount() const {
    return teamSize(threads_);
  }

  // The operator a level's sweeps apply: its stored stencils where the sweep stores them.
  static Operator<T> operatorOf(const Level<T>& level, const Sweep& s) {
    if (!s.stored) return {};
    return {level.stencils.data(), level.grid.nodes()};
  }

  // Each level's coefficients (1 where none were loaded) and room for its stencils.
  void allocateStencils(const Sweep& s) {
    if (!levels_[0].k.empty() &&
        levels_[0].stencils.size() ==
            std::size_t(storedValues(s.stencil, grid().dims)) * grid().nodes())
      return;
    Sweep stored = s;
    stored.stored = true;
    requireHostMemory(engineBytes(grid(), kPrecision, stored) - engineBytes(grid(), kPrecision, {}),
                      "the stencils of a grid of " + std::to_string(grid().n) + " cells a side");
    for (Level<T>& level : levels_) {
      if (level.k.empty()) level.k.assign(level.grid.cells(), T(1));
      level.stencils.assign(storedValues(s.stencil, level.grid.dims) * level.grid.nodes(), T(0));
    }
    built_.reset();
  }

  // f(y, z, row) for every row of unknowns, the rows shared among the threads.
  template <typename F>
  void forEachRow(const Grid& g, const F& f) const {
    const long long rows = rowsOf(g);
#pragma omp parallel for schedule(static) num_threads(threadCount()) if (worthATeam(g.unknowns()))
    for (long long row = 0; row < rows; ++row)
      f(1 + int(row % (g.n - 1)), g.dims == 3 ? 1 + int(row / (g.n - 1)) : 0, row);
  }

  // One sweep of a non-multigrid method over a level.
  template <int D, Stencil S>
  void sweepLevel(Level<T>& level, const Sweep& s) {
    if (s.stored)
      sweepLevel<D, S, true>(level, s);
    else
      sweepLevel<D, S, false>(level, s);
  }
  template <int D, Stencil S, bool kStored>
  void sweepLevel(Level<T>& level, const Sweep& s) {
    const Grid& g = level.grid;
    const Operator<T> op = operatorOf(level, s);
    const T h2 = T(g.spacing() * g.spacing()), omega = T(s.omega);
    const std::ptrdiff_t side = g.side();
    T* u = level.u.data();
    const T* f = level.f.data();
    // Node i's update from the array `from`.
    const auto update = [&](const T* from, std::size_t i) {
      const auto at = [&](int dx, int dy, int dz) {
        return from[std::ptrdiff_t(i) + dx + side * (dy + side * dz)];
      };
      T centre;
      const T neighbours = neighbourSum<D, S, kStored>(at, op, i, centre);
      return relaxed(from[i], neighbours, h2 * f[i], centre, omega);
    };
    switch (s.method) {
      case Method::Jacobi:
        forEachRow(g, [&](int y, int z, long long) {
          for (int x = 1; x < g.n; ++x) next_[g.index(x, y, z)] = update(u, g.index(x, y, z));
        });
        std::swap(level.u, next_);
        return;
      case Method::Coloured:
      case Method::Multigrid:
        for (int c = 0; c < s.colours; ++c)
          forEachRow(g, [&](int y, int z, long long) {
            const int first = colourOf(s.colours, 1, y, z) == c   ? 1
                              : colourOf(s.colours, 2, y, z) == c ? 2
                                                                  : g.n;
            for (int x = first; x < g.n; x += 2) u[g.index(x, y, z)] = update(u, g.index(x, y, z));
          });
        return;
      case Method::Unordered:
        // In place from every thread at once: a node reads its neighbours whenever the thread
        // updating them got there. Relaxed atomics make the race defined without ordering it.
        forEachRow(g, [&](int y, int z, long long) {
          for (int x = 1; x < g.n; ++x) {
            const std::size_t i = g.index(x, y, z);
            const auto at = [&](int dx, int dy, int dz) {
              return std::atomic_ref<T>(u[std::ptrdiff_t(i) + dx + side * (dy + side * dz)])
                  .load(std::memory_order_relaxed);
            };
            T centre;
            const T neighbours = neighbourSum<D, S, kStored>(at, op, i, centre);
            const T value = relaxed(at(0, 0, 0), neighbours, h2 * f[i], centre, omega);
            std::atomic_ref<T>(u[i]).store(value, std::memory_order_relaxed);
          }
        });
        return;
      case Method::Lexicographic:
        for (long long row = 0; row < rowsOf(g); ++row) {
          const int y = 1 + int(row % (g.n - 1)), z = D == 3 ? 1 + int(row / (g.n - 1)) : 0;
          for (int x = 1; x < g.n; ++x) u[g.index(x, y, z)] = update(u, g.index(x, y, z));
        }
        return;
    }
  }

  // One V-cycle from level l down.
  template <int D, Stencil S>
  void vcycle(std::size_t l, const Sweep& s) {
    Level<T>& fine = levels_[l];
    if (l + 1 == levels_.size()) {
      sweepLevel<D, S>(fine, s);  // one unknown (or the finest grid cannot halve)
      return;
    }
    for (int k = 0; k < s.pre; ++k) sweepLevel<D, S>(fine, s);
    Level<T>& coarse = levels_[l + 1];
    restrictResidual<D, S>(fine, coarse, s);
    std::fill(coarse.u.begin(), coarse.u.end(), T(0));
    vcycle<D, S>(l + 1, s);
    prolongAndCorrect<D>(coarse, fine);
    for (int k = 0; k < s.post; ++k) sweepLevel<D, S>(fine, s);
  }

  // coarse.f = the full-weighted residual of the fine level at each coarse unknown.
  template <int D, Stencil S>
  void restrictResidual(const Level<T>& fine, Level<T>& coarse, const Sweep& s) {
    const Grid& fg = fine.grid;
    const Operator<T> op = operatorOf(fine, s);
    forEachRow(coarse.grid, [&](int y, int z, long long) {
      for (int x = 1; x < coarse.grid.n; ++x) {
        T sum = 0;
        for (int dz = (D == 3 ? -1 : 0); dz <= (D == 3 ? 1 : 0); ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              sum += restrictionWeight<T>(D, dx, dy, dz) *
                     nodeQuantity<D, S>(Quantity::Residual, fine.u.data(), fine.f.data(), nullptr,
                                        op, fg, 2, 2 * x + dx, 2 * y + dy, 2 * z + dz);
        coarse.f[coarse.grid.index(x, y, z)] = sum;
      }
    });
  }

  // fine.u += the coarse correction interpolated (bi/trilinearly) to every fine unknown.
  template <int D>
  void prolongAndCorrect(const Level<T>& coarse, Level<T>& fine) {
    const Grid &cg = coarse.grid, &fg = fine.grid;
    forEachRow(fg, [&](int y, int z, long long) {
      for (int x = 1; x < fg.n; ++x)
        fine.u[fg.index(x, y, z)] += interpolated(coarse.u.data(), cg, x, y, z);
    });
  }

  const int threads_;
  const PoissonTimings timings_;
  std::vector<Level<T>> levels_;
  std::vector<T> next_;           // Jacobi's new values
  bool variable_ = false;         // k was loaded (else 1 everywhere)
  std::optional<Stencil> built_;  // the stencil the stored ones were built for, while current
};

}  // namespace

std::unique_ptr<PoissonEngine> makeCpuEngine(int threads, Precision precision,
                                             PoissonTimings timings) {
  if (precision == Precision::Double) return std::make_unique<CpuEngine<double>>(threads, timings);
  return std::make_unique<CpuEngine<float>>(threads, timings);
}

}  // namespace ws::poisson
