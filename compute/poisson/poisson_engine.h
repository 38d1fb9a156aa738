#pragma once
// One implementation of the Poisson solver's state and sweeps: the CPU engine (poisson_cpu.cpp,
// OpenMP) and the CUDA engine (poisson_cuda.cu). The module drives whichever is selected.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "compute/core/timing.h"
#include "compute/poisson/poisson_stencil.h"
#include "compute/views/field.h"

namespace ws::poisson {

enum class Method {
  Jacobi,         // every node from the old values (a second array), weighted by omega
  Coloured,       // Gauss-Seidel colour by colour, each colour's nodes in parallel (and SOR)
  Unordered,      // in place, all nodes in parallel: what a node reads depends on timing
  Lexicographic,  // Gauss-Seidel node after node, x fastest: one thread (the CPU's baseline)
  Multigrid,      // a V-cycle, Coloured as its smoother
};

// How the CUDA engine's coloured passes reach u (the source's techniques; the CPU has one way).
enum class Kernel {
  ThreadANode,   // a thread a node, every neighbour read from global memory through the caches
  SharedSlices,  // a block stages its slice of u, with a halo, in shared memory; in 3-D it
                 // marches up zBlock planes keeping three (z-blocking, 2.5-D)
  Columns,       // 3-D red-black on the 7-point stencil: a thread marches up zBlock planes keeping
                 // its pair of nodes' values below, at and above in registers (else ThreadANode)
  FusedSweep,    // 3-D red-black on the 7-point stencil: both colours in one pass, from u into a
                 // second array (else ThreadANode; multigrid's coarser levels too)
};

// What one sweep does. A multigrid sweep is one V-cycle: `pre` and `post` smoothing sweeps on
// each level around the coarser level's correction.
struct Sweep {
  Method method = Method::Coloured;
  Stencil stencil = Stencil::Compact;
  int colours = 2;   // Coloured and the multigrid smoother
  double omega = 1;  // the relaxation factor
  int pre = 2, post = 2;
  Kernel kernel = Kernel::ThreadANode;
  int zBlock = 32;  // SharedSlices, Columns and FusedSweep in 3-D: the planes a block marches up
  // ThreadANode's coloured passes: every other pass's blocks take the grid from its end, where the
  // pass before ended, so that what they read first is still in the L2 cache; false: every pass
  // from the start.
  bool backAndForth = true;
  // The stencils stored at every node and read from memory (the source's variable stencils),
  // built from the cells' coefficients k; false: the constant stencil (k = 1 everywhere).
  bool stored = false;
};

// Whether the CUDA engine takes a sweep's colours in one pass (Kernel::FusedSweep where it applies:
// 3-D red-black on the 7-point stencil; in a V-cycle only the finest level's smoothing, which the
// bytes counted leave as two passes).
inline bool sweepsInOnePass(const Sweep& s, int dims) {
  return s.kernel == Kernel::FusedSweep && s.method == Method::Coloured && dims == 3 &&
         s.colours == 2 && s.stencil == Stencil::Compact;
}

// The grids of a V-cycle, finest first: n halved while it stays even, down to 2 cells a side (one
// unknown, which one smoothing sweep solves).
inline std::vector<Grid> hierarchy(Grid g) {
  std::vector<Grid> grids = {g};
  while (g.n % 2 == 0 && g.n > 2) {
    g.n /= 2;
    grids.push_back(g);
  }
  return grids;
}
inline bool multigridFits(int n) {
  return hierarchy({n, 2}).back().n == 2;
}
// What an engine holds u and f in: float, as the source, or double, whose rounding leaves the
// residual room to fall by 10^6 and more on large grids (see the module's notes on float's floor).
enum class Precision { Float, Double };
inline double valueBytes(Precision precision) {
  return precision == Precision::Double ? 8 : 4;
}

// The values a stored stencil takes at a node: 5 or 7 compact, 9 or 27 full.
inline int storedValues(Stencil stencil, int dims) {
  return stencil == Stencil::Compact ? 1 + 2 * dims : (dims == 2 ? 9 : 27);
}

// The bytes an engine holds for a grid: u and f on every level, and Jacobi's second u; with
// stored stencils also each level's coefficients and a stencil a node.
inline double engineBytes(const Grid& grid, Precision precision, const Sweep& sweep) {
  double values = double(grid.nodes());
  for (const Grid& g : hierarchy(grid)) {
    values += 2.0 * double(g.nodes());
    if (sweep.stored)
      values += double(g.cells()) + storedValues(sweep.stencil, g.dims) * double(g.nodes());
  }
  return values * valueBytes(precision);
}

// What a field view shows.
enum class Quantity {
  Solution,  // u
  Error,     // u minus the exact solution of the sine problem
  Residual,  // f - (S u) / h^2
  RightHandSide,
  Colour,       // the node's colour class
  None,         // nothing (NaN): an error view with no exact solution to compare
  Coefficient,  // log10 k on the cell whose lower corner the node is (0 where k = 1 everywhere)
};

// Root-mean-square norms over the unknowns.
struct Norms {
  double residual = 0;
  double error = 0;    // against sineSolution (meaningful for the sine problem only)
  double largest = 0;  // max |u|
};

// A node set to a value of f (an edit), or what it held before.
struct NodeValue {
  std::size_t node = 0;
  double value = 0;
};

struct PoissonTimings {
  TimingScope* sweep;
  TimingScope* view;
};

class PoissonEngine {
 public:
  virtual ~PoissonEngine() = default;

  // u = f = 0 on a new grid. Throws OutOfMemoryError before touching the current one when it won't
  // fit.
  virtual void reshape(const Grid& grid) = 0;
  virtual const Grid& grid() const = 0;

  // grid().nodes() values each, boundary nodes included (u's are the boundary condition, kept).
  // Held in the engine's precision: a double engine gives back what it was given.
  virtual void load(std::span<const double> u, std::span<const double> f) = 0;
  virtual std::vector<double> solution() = 0;
  virtual std::vector<double> rightHandSide() = 0;
  // Sets f at each node (named at most once) and returns what it held, in the same order.
  virtual std::vector<NodeValue> setRightHandSide(std::span<const NodeValue> nodes) = 0;

  // The cells' coefficients k (grid().cells() values, each positive), or empty for k = 1
  // everywhere; every level's stencils are built from them when a sweep stores its stencils.
  // Throws OutOfMemoryError, changing nothing, where the stencils won't fit.
  virtual void loadCoefficient(std::span<const double> k, const Sweep& sweep) = 0;
  virtual std::vector<double> coefficient() = 0;  // empty while k = 1 everywhere
  // Sets k at each cell (named at most once; `node` is the cell's index) and returns what it
  // held; the stencils are built again.
  virtual std::vector<NodeValue> setCoefficient(std::span<const NodeValue> cells,
                                                const Sweep& sweep) = 0;
  // Makes ready what `sweep` needs (the stored stencils): the module calls it when a setting
  // changes, so that a grid too large is refused there (OutOfMemoryError, nothing changed).
  virtual void prepare(const Sweep& sweep) = 0;

  virtual void sweep(int count, const Sweep& sweep) = 0;
  virtual Norms norms(const Sweep& sweep) = 0;
  // The field at slice z = `slice` (0 in 2-D).
  virtual void render(Quantity quantity, const Sweep& sweep, int slice, const FieldRequest& request,
                      FieldImage& image) = 0;

  virtual void pollTimings() {}
  virtual void drainTimings() {}
  virtual void synchronize() {}
  // How the engine runs this sweep: threads, blocks, precision.
  virtual std::string configuration(const Sweep& sweep) const = 0;
};

// threads: 0 for OpenMP's choice, 1 for one thread.
std::unique_ptr<PoissonEngine> makeCpuEngine(int threads, Precision precision,
                                             PoissonTimings timings);

// The bytes an unknown's update moves at least through memory in a sweep of this kind, each pass
// streaming u and f and writing u (12 bytes): Jacobi and the unordered sweep one pass, a colouring
// one pass a colour (the colours interleave within every cache line), a V-cycle its smoothing on
// every level (a quarter, an eighth of the last) and its residual, restriction and correction.
// A stored stencil adds its values on the rows a pass touches (all for red-black, 2 / colours of
// them for 4 and 8 colours): twice the stencil a coloured sweep, once a Jacobi one. Both colours in
// one pass (sweepsInOnePass; the CPU has one way, ThreadANode) move what Jacobi does.
double bytesPerUpdate(const Sweep& sweep, int dims, Precision precision);

// The field's value at a pixel (NaN outside the grid) from `at(x, y)` on the slice: shared by the
// engines. The view's world is the grid's nodes, one unit apart, node (0, 0) at (0.5, 0.5).
template <typename At>
WS_HD float samplePixel(const Grid& g, const FieldRequest& r, int px, int py, const At& at) {
  const double wx = r.originX + (px + 0.5) * r.worldPerPixel;
  const double wy = r.originY + (py + 0.5) * r.worldPerPixel;
  if (wx < 0 || wy < 0 || wx >= g.side() || wy >= g.side()) return NAN;
  return at(int(wx), int(wy));
}

// Calls f.template operator()<D, S>() for the grid's dimensions and the stencil.
template <typename F>
decltype(auto) withStencil(int dims, Stencil stencil, const F& f) {
  if (dims == 3)
    return stencil == Stencil::Compact ? f.template operator()<3, Stencil::Compact>()
                                       : f.template operator()<3, Stencil::Full>();
  return stencil == Stencil::Compact ? f.template operator()<2, Stencil::Compact>()
                                     : f.template operator()<2, Stencil::Full>();
}

// What `quantity` is at node (x, y, z) of a grid holding u and f (and k, null where uniform)
// under the operator `op`: shared by the engines.
template <int D, Stencil S, typename T>
WS_HD T nodeQuantity(Quantity quantity, const T* u, const T* f, const std::type_identity_t<T>* k,
                     const Operator<T>& op, const Grid& g, int colours, int x, int y, int z) {
  const std::size_t i = g.index(x, y, z);
  switch (quantity) {
    case Quantity::Solution:
      return u[i];
    case Quantity::Error:
      return T(u[i] - sineSolution(g, x, y, z));
    case Quantity::RightHandSide:
      return f[i];
    case Quantity::Colour:
      return T(colourOf(colours, x, y, z));
    case Quantity::None:
      return T(NAN);
    case Quantity::Coefficient: {
      if (!k) return 0;
      const auto clamped = [&](int c) { return c < 0 ? 0 : c >= g.n ? g.n - 1 : c; };
      return T(log10(double(k[g.cell(clamped(x), clamped(y), D == 3 ? clamped(z) : 0)])));
    }
    case Quantity::Residual:
      break;
  }
  const int n = g.n;
  if (x == 0 || y == 0 || x == n || y == n || (D == 3 && (z == 0 || z == n))) return 0;
  const std::ptrdiff_t s = g.side();
  const auto at = [&](int dx, int dy, int dz) {
    return u[std::ptrdiff_t(i) + dx + s * (dy + s * dz)];
  };
  T centre;
  const T neighbours = neighbourSum<D, S>(at, op, i, centre);
  return residual(u[i], neighbours, f[i], centre, T(n) * T(n));
}

// The colour view draws the classes of a corner of the grid, kDiagramCells cells a side, over the
// whole world: the pattern the grid repeats, readable at any size.
inline constexpr int kDiagramCells = 8;

// What the field view shows at a pixel: shared by the engines.
template <int D, Stencil S, typename T>
WS_HD float pixelValue(Quantity quantity, const T* u, const T* f, const T* k, const Operator<T>& op,
                       const Grid& g, int colours, int slice, FieldRequest r, int px, int py) {
  if (quantity == Quantity::Colour) {
    const Grid corner{kDiagramCells, g.dims};
    const double scale = double(corner.side()) / g.side();
    r.originX *= scale, r.originY *= scale, r.worldPerPixel *= scale;
    return samplePixel(corner, r, px, py,
                       [&](int x, int y) { return float(colourOf(colours, x, y, slice)); });
  }
  return samplePixel(g, r, px, py, [&](int x, int y) {
    return float(nodeQuantity<D, S>(quantity, u, f, k, op, g, colours, x, y, slice));
  });
}

}  // namespace ws::poisson
