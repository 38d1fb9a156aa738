#pragma once
// Exports of the flow: VTK image data (.vti) for ParaView, and a line probe as CSV.
#include <string>
#include <vector>

#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

// Density, velocity and cell type of every cell, from the canonical state (see importState).
void writeVti(const std::string& path, LatticeKind lattice, const Grid& grid,
              const std::vector<std::uint8_t>& flags, const StepParams& params,
              std::vector<float> state);

// The moments along the line (a0, b0)-(a1, b1) in plane coordinates, one sample per cell length.
void writeProbeCsv(const std::string& path, const Grid& grid, const Plane& plane,
                   const std::vector<PlaneSample>& moments, const double line[4]);

}  // namespace ws::lbm
