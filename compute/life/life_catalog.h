#pragma once
// Life's catalog: each kernel variant once (its name, title, lesson and the figure its source
// measured) with the factory of its engine; and the parameters as the engines use them, read
// once when they change (LifeConfig).
#include <cstdint>
#include <memory>
#include <string>

#include "compute/core/catalog.h"
#include "compute/core/params.h"
#include "compute/life/life_cuda.h"
#include "compute/life/life_engine.h"
#include "compute/life/life_rule.h"

namespace ws::life {

struct LifeConfig {
  int width = 0, height = 0;
  LifeRule rule;
  Boundary boundary = Boundary::Torus;
  std::uint64_t seed = 0;
  double density = 0;
  std::string pattern;  // empty: a random soup
  bool ageView = false;
  CudaLifeConfig cuda;  // the kernels' shapes and lessons (the variant sets the kernel)
};
// Throws InputError where the parameters do not make one (a rule the declaration let through).
LifeConfig readLifeConfig(const ParamSet& params);

using MakeLifeEngine = std::unique_ptr<LifeEngine> (*)(const LifeConfig&, LifeTimings);
using LifeCatalog = VariantCatalog<MakeLifeEngine>;
const LifeCatalog& lifeVariants(Backend backend);

}  // namespace ws::life
