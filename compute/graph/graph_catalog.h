#pragma once
// The graph module's catalog: its parameters and its kernel variants, each declared once, and the
// generators it offers.
#include <string>
#include <vector>

#include "compute/core/module.h"

namespace ws::graph {

void declareGraphParams(ParamSet& p, bool gpu);
std::vector<KernelVariant> graphVariants(Backend backend);
// Whether `name` is one of the generators (planted, barabasi-albert...) rather than a file.
bool isGenerator(const std::string& name);

}  // namespace ws::graph
