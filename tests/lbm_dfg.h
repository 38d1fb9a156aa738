#pragma once
// The DFG benchmark's case 2D-1 (Schaefer and Turek 1996: steady flow past a cylinder in a
// channel at Re 20) run by the LBM module, for the CPU and GPU tests.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "compute/lbm/lbm_module.h"

namespace ws::lbm::test {

// The published results: the ranges the benchmark's best entries fell in, and the values computed
// since to many digits (John and Matthies 2001; Nabh 1998 for La).
struct Range {
  double low, high, reference;
  bool holds(double v) const { return v >= low && v <= high; }
};
constexpr Range kDfgCd{5.57, 5.59, 5.57953523384};
constexpr Range kDfgCl{0.0104, 0.0110, 0.010618948146};
constexpr Range kDfgLa{0.0842, 0.0852, 0.0847};
constexpr Range kDfgDp{0.1172, 0.1176, 0.11752016697};

// Drag and lift coefficients, recirculation length and pressure drop in the benchmark's units
// (mean inflow 0.2, diameter 0.1, density 1).
struct Dfg {
  double cd = NAN, cl = NAN, la = NAN, dp = NAN;
  double clNow = NAN;  // the lift at the last step, which sound waves still swing
  unsigned long long steps = 0;
};

// Case 2D-1 with a cylinder of `diameter` cells (a multiple of 10): the channel (2.2 x 0.41, the
// cylinder's centre at (0.2, 0.2), diameter 0.1) in cells, with the walls half-way between rows 0
// and 1 and rows ny - 2 and ny - 1 and the inflow at the centre of column 0; Re 20 on the mean
// inflow speed. The speed falls as the lattice is refined (diffusive scaling: tau stays 0.6), so
// that the compressibility error falls at second order with the rest. Runs until the drag
// coefficient has twice in a row changed by under 2e-4 over 100 D steps (the flow settles over a
// time that grows with D; sound waves between inlet and outlet keep the drag swinging by about
// that much, and the lift by about 1% at 20 cells across, for a long time after).
inline Dfg runDfg1(Backend backend, int diameter, const std::string& walls,
                   const std::string& variant = "aa-soa-fp32") {
  const double d = diameter;
  auto m = std::make_unique<LbmModule>(backend);
  m->select(backend, variant);
  m->setParams({{"scene", std::string("cylinder")},
                {"width", std::int64_t(22 * diameter + 1)},
                {"height", std::int64_t(41 * diameter / 10 + 2)},
                {"cylinders", std::to_string(2 * d + 0.5) + "," + std::to_string(2 * d + 1) + "," +
                                  std::to_string(d)},
                {"velocity", 1.0 / d},
                {"reference_velocity", std::string("mean")},
                {"reynolds", 20.0},
                {"curved_walls", walls},
                {"tracers", std::int64_t(0)}});
  m->reset();
  const auto metric = [&](const std::string& name) {
    for (const Metric& x : m->metrics())
      if (x.name == name) return x.value;
    return double(NAN);
  };
  double cd = NAN, previous = NAN;
  for (int chunk = 0, settled = 0; chunk < 2000 && settled < 2; ++chunk) {
    previous = cd;
    m->step(100 * diameter);
    cd = metric("Cd");
    settled = std::abs(cd - previous) < 2e-4 ? settled + 1 : 0;
  }
  Dfg r;
  r.cd = cd;
  r.cl = metric("Cl mean");  // over the channel's longest sound period (LbmModule::metrics)
  r.clNow = metric("Cl");
  r.la = metric("La/L") * 0.1;
  r.dp = metric("dp/(rho U^2)") * 0.2 * 0.2;
  r.steps = m->stepCount();
  std::printf(
      "DFG 2D-1, D %d, %s, %s: Cd %.5f Cl %.6f (mean; last step %.6f) La %.5f dp %.5f after %llu "
      "steps\n",
      diameter, walls.c_str(), m->configuration().c_str(), r.cd, r.cl, r.clNow, r.la, r.dp,
      r.steps);
  std::fflush(stdout);  // a long run's figures are kept even if a later one is cut short
  return r;
}

// What halving the cells' size does to case 2D-1 with interpolated bounce-back (coarse: D cells
// across, fine: 2D, D >= 10):
// - the error of the drag coefficient falls at second order (observed: 2.1 from D 10 to 20), and
//   of the lift's nearly so (1.8); allowed down to 1.7 and 1.4;
// - so the values extrapolated to zero cell size (Richardson: fine + (fine - coarse) / 3) fall in
//   the published ranges, as does the recirculation length's;
// - the pressure drop, read from the cells beside the wall, is within 1.5% (-0.9% at D 20: the
//   density next to a curved wall carries the interpolation's error, which is not yet steady at
//   these sizes; see docs/modules/lbm.md for finer lattices).
inline void expectDfgConvergence(const Dfg& coarse, const Dfg& fine) {
  const auto order = [](double coarseValue, double fineValue, const Range& r) {
    return std::log2(std::abs(coarseValue - r.reference) / std::abs(fineValue - r.reference));
  };
  const auto extrapolated = [](double coarseValue, double fineValue) {
    return fineValue + (fineValue - coarseValue) / 3;
  };
  EXPECT_GE(order(coarse.cd, fine.cd, kDfgCd), 1.7);
  EXPECT_GE(order(coarse.cl, fine.cl, kDfgCl), 1.4);
  EXPECT_TRUE(kDfgCd.holds(extrapolated(coarse.cd, fine.cd))) << extrapolated(coarse.cd, fine.cd);
  EXPECT_TRUE(kDfgCl.holds(extrapolated(coarse.cl, fine.cl))) << extrapolated(coarse.cl, fine.cl);
  EXPECT_TRUE(kDfgLa.holds(extrapolated(coarse.la, fine.la))) << extrapolated(coarse.la, fine.la);
  EXPECT_NEAR(fine.dp, kDfgDp.reference, 0.015 * kDfgDp.reference);
}

}  // namespace ws::lbm::test
