#pragma once
// What the DFG benchmark (Schaefer and Turek 1996) measures about a cylinder besides its forces,
// from the flow in a plane normal to the cylinder: the pressure drop across it along its axis, and
// the length of the recirculation behind it.
#include <optional>
#include <vector>

#include "compute/lbm/lbm_scene.h"
#include "compute/lbm/lbm_view.h"

namespace ws::lbm {

struct Wake {
  // p(front) - p(back) in lattice units (p = (rho - 1) / 3), at the points where the line through
  // the centre along x meets the circle, each extrapolated linearly from the two nearest fluid
  // cells on that line (the values on it are interpolated between the rows either side).
  double pressureDrop = 0;
  // From the cylinder's back to where the flow on that line turns forward again, in cells (the
  // crossing interpolated linearly); 0 where it never flows backward, none where the line runs out
  // of fluid before it turns.
  std::optional<double> recirculation;
};

// The rows of a plane z = const that the wake is measured on: the one or two either side of the
// cylinder's axis (cell (i, j) has its centre at (i + 1/2, j + 1/2)); none where that is off the
// lattice.
struct RowSpan {
  int first = 0, count = 0;
};
RowSpan wakeRows(const Grid& g, const Cylinder& cylinder);

// From the moments of those rows (LbmEngine::planeRows); none where the axis line has no fluid
// either side of the cylinder.
std::optional<Wake> measureWake(const Grid& g, const std::vector<PlaneSample>& rows,
                                const Cylinder& cylinder);

}  // namespace ws::lbm
