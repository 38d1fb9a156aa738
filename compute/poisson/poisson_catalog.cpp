#include "compute/poisson/poisson_catalog.h"

#include <algorithm>

namespace ws::poisson {

namespace {

// Strobl 2008 (seed 002), Tables 3 and 6: 8-colour Gauss-Seidel on the 27-point stencil, single
// precision, against one core of a 3.0 GHz Opteron 2222.
constexpr const char* kSource =
    "Strobl 2008, 8-colour Gauss-Seidel, constant 27-point stencil at 256^3: 8800 Ultra 33.14x "
    "one 3.0 GHz Opteron 2222 core (8600 GT 6.58x), 39.15 GB/s";

// The lessons, one per solver, the same on both backends.
const char* const kJacobi =
    "Every unknown from its neighbours' old values, into a second array: perfectly parallel and "
    "deterministic, but news travels one node a sweep, so the smooth part of the error shrinks "
    "by only cos(pi h) a sweep (0.9997 on a 128 grid): thousands of sweeps for little.";
const char* const kRedBlack =
    "Gauss-Seidel uses each new value at once, which makes it sequential. Colour the nodes like a "
    "chessboard and no node's 5-point (7-point) stencil reaches its own colour: all red nodes "
    "update at once, then all black ones: Gauss-Seidel exactly, in the order all red then all "
    "black, with twice Jacobi's progress a sweep (cos^2(pi h)), in two passes. The full stencils' "
    "diagonal "
    "neighbours share a square's colour: on them this sweep takes their 4 (8) colours.";
const char* const kMulti =
    "The full stencils (9 points in 2-D, 27 in 3-D, the bilinear and trilinear elements) reach "
    "the diagonals: a node differs from every neighbour only when each coordinate's parity "
    "counts apart, 4 colours in 2-D and 8 in 3-D (the source's orderings). Each colour is a "
    "pass over the grid, so more colours cost more memory traffic for the same sweep.";
const char* const kSor =
    "Successive over-relaxation: the coloured Gauss-Seidel update pushed past itself by omega. "
    "For the model problem the best omega, 2 / (1 + sin(pi h)), turns cos^2(pi h) into about "
    "1 - 2 pi h a sweep: hundreds of sweeps instead of tens of thousands, from one number.";
const char* const kUnordered =
    "What happens without a colouring: every node updated in place at once, reading its "
    "neighbours whenever their threads got to them, sometimes old, sometimes new. It often still "
    "converges, but what it computes depends on thread timing: run it twice and compare. A race "
    "made visible; the colourings exist to remove it.";
const char* const kMultigrid =
    "A few coloured Gauss-Seidel sweeps remove the error's ripples but hardly touch its smooth "
    "part; on a grid of half the cells that smooth part is rippled again. A V-cycle smooths, "
    "hands the residual down (full weighting), solves for the correction there the same way, "
    "and brings it back up (linear interpolation): the error falls by a fixed factor a cycle "
    "whatever the grid, so the work to solve is proportional to the unknowns. Needs a size that "
    "halves down to 2 (a power of two).";
const char* const kLexicographic =
    "Gauss-Seidel as written, node after node with x fastest, each using the newest values: one "
    "thread, no parallelism to find. The colourings converge as fast per sweep and run on every "
    "core.";

}  // namespace

const PoissonCatalog& poissonVariants(Backend backend) {
  static const PoissonCatalog cuda = {
      {{"red-black", "red-black Gauss-Seidel", kRedBlack, {}, "", true},
       {Method::Coloured, Colouring::Fewest}},
      {{"multicolour", "4- and 8-colour Gauss-Seidel", kMulti, {}, kSource},
       {Method::Coloured, Colouring::Multi}},
      {{"jacobi", "Jacobi", kJacobi, {}}, {Method::Jacobi, Colouring::None}},
      {{"sor", "SOR (over-relaxed, coloured)", kSor, {"omega"}},
       {Method::Coloured, Colouring::Fewest}},
      {{"unordered", "no colouring (a race)", kUnordered, {}},
       {Method::Unordered, Colouring::None}},
      {{"multigrid", "multigrid V-cycle", kMultigrid, {"pre_sweeps", "post_sweeps"}},
       {Method::Multigrid, Colouring::Fewest}},
  };
  static const PoissonCatalog cpu = [] {
    PoissonCatalog c = cuda;
    c[1].variant.historical = "";
    c.push_back({{"lexicographic", "sequential Gauss-Seidel (one thread)", kLexicographic, {}},
                 {Method::Lexicographic, Colouring::None}});
    return c;
  }();
  return backend == Backend::Cuda ? cuda : cpu;
}

int coloursOf(Colouring colouring, Stencil stencil, int dims) {
  switch (colouring) {
    case Colouring::None:
      return 1;
    case Colouring::Multi:
      return dims == 2 ? 4 : 8;
    case Colouring::Fewest:
      return coloursFor(stencil, dims);
  }
  return 0;
}

PoissonConfig readPoissonConfig(const ParamSet& p) {
  PoissonConfig c;
  c.grid = {int(p.getInt("size")), p.getText("dimensions") == "3-D" ? 3 : 2};
  c.sweep.stencil = p.getText("stencil") == "finite-element" ? Stencil::Full : Stencil::Compact;
  c.sweep.pre = int(p.getInt("pre_sweeps"));
  c.sweep.post = int(p.getInt("post_sweeps"));
  const std::string& kernel = p.getText("kernel");
  c.sweep.kernel = kernel == "shared-memory slices"       ? Kernel::SharedSlices
                   : kernel == "register columns"         ? Kernel::Columns
                   : kernel == "both colours in one pass" ? Kernel::FusedSweep
                                                          : Kernel::ThreadANode;
  c.sweep.zBlock = int(p.getInt("z_block"));
  c.sweep.backAndForth = p.getText("pass_order") == "back and forth";
  c.precision = p.getText("precision") == "double" ? Precision::Double : Precision::Float;
  const std::string& problem = p.getText("problem");
  c.problem = problem == "sources" ? Problem::Sources
              : problem == "drawn" ? Problem::Drawn
                                   : Problem::Sine;
  c.strength = float(p.getFloat("strength"));
  const std::string& coefficient = p.getText("coefficient");
  c.coefficient = coefficient == "inclusion" ? Coefficient::Inclusion
                  : coefficient == "layers"  ? Coefficient::Layers
                                             : Coefficient::Uniform;
  c.contrast = p.getFloat("contrast");
  c.storeStencils = p.getText("stencils") == "stored at every node";
  c.slice =
      c.grid.dims == 3 ? std::clamp(int(p.getFloat("slice") * c.grid.n + 0.5), 0, c.grid.n) : 0;
  c.brush = int(p.getInt("brush"));
  return c;
}

namespace {

// The values a colour's pass moves an unknown. The colours alternate along x, so a pass touches
// whole cache lines, but with 4 or 8 colours only on every other row (and plane): f (and a stored
// stencil) is read and u written on those rows alone (2 / colours of them), u read on every row
// the stencil reaches from them (all, but for the 7-point stencil's 3 of 4 in 3-D).
double passValues(const Sweep& s, int dims) {
  const double own = s.colours <= 2 ? 1.0 : 2.0 / s.colours;
  const double reached = s.colours <= 2 || s.stencil == Stencil::Full || dims == 2 ? 1.0 : 0.75;
  const double stencil = s.stored ? storedValues(s.stencil, dims) : 0;
  return reached + (2 + stencil) * own;
}

}  // namespace

double bytesPerUpdate(const Sweep& s, int dims, Precision precision) {
  const double value = valueBytes(precision);
  const double stencil = s.stored ? storedValues(s.stencil, dims) : 0;
  switch (s.method) {
    case Method::Jacobi:
    case Method::Unordered:
    case Method::Lexicographic:
      return (3 + stencil) * value;  // u and f (and the stencil) read, u written
    case Method::Coloured:
      if (sweepsInOnePass(s, dims)) return (3 + stencil) * value;
      return s.colours * passValues(s, dims) * value;
    case Method::Multigrid:
      break;
  }
  // A level: its smoothing; the residual (u, f and the stencil read) restricted into the coarser f
  // (written, a 2^D-th); the coarser u cleared and read back (2^D-ths) and the correction added
  // (u read and written). Each coarser level 2^D times smaller.
  const double coarse = 1.0 / (1 << dims);
  const double smoothing = (s.pre + s.post) * s.colours * passValues(s, dims);
  const double level = (smoothing + 2 + stencil + coarse + 2 * coarse + 2) * value;
  return level / (1 - coarse);
}

}  // namespace ws::poisson
