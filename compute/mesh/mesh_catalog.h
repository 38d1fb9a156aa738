#pragma once
// The mesh module's catalog: its parameters and its methods (each one variant with the optimizer
// it runs), declared once, and the procedural shapes it offers.
#include <string>
#include <vector>

#include "compute/core/catalog.h"
#include "compute/core/module.h"
#include "compute/mesh/optimize.h"

namespace ws::mesh {

// What the colour shows, as the "colour_by" parameter names it.
inline constexpr const char* kColourBy[] = {"smallest angle", "colour class", "distance moved",
                                            "off the surface"};

void declareMeshParams(ParamSet& p, bool gpu);
VariantCatalog<Method> meshMethods(Backend backend);
// Whether `name` is a procedural shape (sphere, torus, part, plane) rather than a file.
bool isShape(const std::string& name);

}  // namespace ws::mesh
