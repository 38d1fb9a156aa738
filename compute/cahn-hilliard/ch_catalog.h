#pragma once
// Cahn-Hilliard's catalog: each kernel variant once (its name, title, lesson and the figure its
// source measured) with the factory of its engine; and the parameters as the engines use them,
// read once when they change (ChConfig).
#include <cstdint>
#include <memory>
#include <string>

#include "compute/cahn-hilliard/ch_cuda.h"
#include "compute/cahn-hilliard/ch_engine.h"
#include "compute/core/catalog.h"
#include "compute/core/params.h"

namespace ws::ch {

struct ChConfig {
  Shape shape;
  Coefficients k;
  Integrator integrator = Integrator::RK2;
  double mean = 0, noise = 0;  // the initial state: mean + uniform noise in [-noise, noise]
  std::uint64_t seed = 0;
  Slice slice;  // the 3-D view's (index from the slice position)
  int brush = 0;
  CudaChConfig cuda;  // the variant sets its kernel
};
ChConfig readChConfig(const ParamSet& params);

using MakeChEngine = std::unique_ptr<ChEngine> (*)(const ChConfig&, ChTimings);
using ChCatalog = VariantCatalog<MakeChEngine>;
const ChCatalog& chVariants(Backend backend);

}  // namespace ws::ch
