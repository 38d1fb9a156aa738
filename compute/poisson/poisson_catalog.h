#pragma once
// The Poisson module's catalog: each solver once (its name, title, lesson and the figure its source
// measured) with the sweep it runs; and the parameters as the engines use them, read once when
// they change (PoissonConfig).
#include <string>

#include "compute/core/catalog.h"
#include "compute/core/params.h"
#include "compute/poisson/poisson_engine.h"

namespace ws::poisson {

enum class Problem {
  Sine,     // the source's test: f = D pi^2 prod sin(pi x), so u = prod sin(pi x) exactly
  Sources,  // a source and a sink
  Drawn,    // f = 0 until the user draws it
};

// How a variant colours its Gauss-Seidel sweeps.
enum class Colouring {
  None,    // Jacobi, the unordered and the sequential sweeps
  Multi,   // 4 colours in 2-D, 8 in 3-D: any 3^D stencil
  Fewest,  // red-black where it is a colouring (the compact stencils), else Multi
};

struct Solver {
  Method method = Method::Coloured;
  Colouring colouring = Colouring::Fewest;
};

// The cells' coefficient k of -div(k grad u) after a reset (the brush changes it any time).
enum class Coefficient {
  Uniform,    // k = 1: the Poisson equation
  Inclusion,  // k = contrast in a disc (ball) of radius 0.2 at the centre
  Layers,     // k = contrast below y = 0.5
};

struct PoissonConfig {
  Grid grid;
  Sweep sweep;  // its method and colours from the variant (withSolver)
  Precision precision = Precision::Float;
  Problem problem = Problem::Sine;
  float strength = 0;  // what the brush paints f to (and the sources' peak)
  Coefficient coefficient = Coefficient::Uniform;
  double contrast = 1;         // k in the inclusion or layer, and what the coefficient brush paints
  bool storeStencils = false;  // the "stencils" setting (stored anyway where k varies)
  int slice = 0;               // the 3-D view's z
  int brush = 0;
};
PoissonConfig readPoissonConfig(const ParamSet& params);

// The colours a solver's sweeps take on this stencil, or 0 where the colouring is not one:
// red-black on a full stencil, whose diagonal neighbours share a colour.
int coloursOf(Colouring colouring, Stencil stencil, int dims);

using PoissonCatalog = VariantCatalog<Solver>;
const PoissonCatalog& poissonVariants(Backend backend);

}  // namespace ws::poisson
