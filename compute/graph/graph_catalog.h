#pragma once
// The graph module's catalog: its parameters and its kernel variants, each declared once, and the
// generators it offers.
#include <string>
#include <vector>

#include "compute/core/catalog.h"
#include "compute/core/module.h"
#include "compute/graph/centrality.h"

namespace ws::graph {

void declareGraphParams(ParamSet& p, bool gpu);
std::vector<KernelVariant> graphVariants(Backend backend);
// The CUDA variants: each a thread mapping of the centrality's sweeps.
const VariantCatalog<Parallelism>& graphMappings();
// Whether `name` is one of the generators (planted, barabasi-albert...) rather than a file.
bool isGenerator(const std::string& name);

}  // namespace ws::graph
