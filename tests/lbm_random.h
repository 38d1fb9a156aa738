#pragma once
// For the LBM tests: random lattices for comparing engines (scattered walls, moving walls,
// free-slip walls, inlets and both outlets, and populations perturbed around equilibrium, all from
// one seed), random smooth flows for the streamlines, comparisons of states and of monitor records,
// and a module on the CPU.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compute/lbm/lbm_engine.h"
#include "compute/lbm/lbm_module.h"
#include "compute/lbm/lbm_obstacles.h"
#include "compute/lbm/lbm_scene.h"

namespace ws::lbm::test {

struct RandomLattice {
  LatticeKind lattice;
  Grid grid;
  std::vector<std::uint8_t> flags;
  std::vector<float> state;
  StepParams params;
};

// A random smooth flow for the streamlines (moments of every cell, x fastest): a uniform stream
// and three Fourier modes of random wave vector k and amplitude k x a (so without divergence, like
// a slow LBM flow), with walls in three random balls (NaN density).
inline std::vector<PlaneSample> randomMoments(const Grid& g, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  struct Mode {
    float k[3], a[3], phase;
  };
  Mode modes[3];
  for (Mode& m : modes) {
    for (int i = 0; i < 3; ++i) m.k[i] = (unit(rng) - 0.5f) * 0.8f, m.a[i] = unit(rng) - 0.5f;
    m.phase = unit(rng) * 6.2831853f;
  }
  float balls[3][4];
  for (auto& b : balls)
    b[0] = unit(rng) * g.nx, b[1] = unit(rng) * g.ny, b[2] = unit(rng) * g.nz,
    b[3] = 1.5f + 3 * unit(rng);
  std::vector<PlaneSample> moments(g.cells());
  for (int z = 0; z < g.nz; ++z)
    for (int y = 0; y < g.ny; ++y)
      for (int x = 0; x < g.nx; ++x) {
        PlaneSample& c = moments[(std::size_t(z) * g.ny + y) * g.nx + x];
        c = {1.0f, {0.02f, 0, 0}};
        const float at[3] = {x + 0.5f, y + 0.5f, z + 0.5f};
        for (const Mode& m : modes) {
          const float s = std::cos(m.k[0] * at[0] + m.k[1] * at[1] + m.k[2] * at[2] + m.phase);
          for (int i = 0; i < 3; ++i)
            c.u[i] += 0.25f *
                      (m.k[(i + 1) % 3] * m.a[(i + 2) % 3] - m.k[(i + 2) % 3] * m.a[(i + 1) % 3]) *
                      s;
        }
        for (const auto& b : balls)
          if (std::hypot(at[0] - b[0], at[1] - b[1], at[2] - b[2]) < b[3]) c.rho = NAN;
      }
  return moments;
}

inline RandomLattice randomLattice(LatticeKind lattice, Grid grid, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  RandomLattice r{lattice, grid, std::vector<std::uint8_t>(grid.cells(), kFluid), {}, {}};
  for (auto& flag : r.flags) {
    const float p = unit(rng);
    flag = p < 0.08f    ? kWall
           : p < 0.10f  ? kMovingWall
           : p < 0.11f  ? kInlet
           : p < 0.12f  ? kOutlet
           : p < 0.135f ? kOpenOutlet
                        : kFluid;
  }
  // Free-slip walls reflect off flat runs along x (slipLinks): runs of 2 to 6 cells.
  std::uniform_int_distribution<int> along(0, grid.nx - 1), across(0, grid.ny - 1),
      deep(0, grid.nz - 1), length(2, 6);
  for (std::size_t k = 0; k < grid.cells() / 150; ++k) {
    const int x = along(rng), y = across(rng), z = deep(rng), run = length(rng);
    for (int d = 0; d < run; ++d)
      r.flags[(std::size_t(z) * grid.ny + y) * grid.nx + (x + d) % grid.nx] = kSlipWall;
  }
  markNearWalls(grid, r.flags, 0, grid.cells());
  const int q = latticeQ(lattice);
  r.state.assign(grid.cells() * q, 0.0f);
  for (std::size_t n = 0; n < grid.cells(); ++n) {
    if (isSolid(r.flags[n])) continue;
    for (int i = 0; i < q; ++i) r.state[i * grid.cells() + n] = 0.004f * (unit(rng) - 0.5f);
  }
  // Relaxation times from 0.6 to 0.9. Down to 0.52, about one D2Q9 lattice in 75 blew up within
  // 64 steps (populations past 2, beyond FP16 storage, or to 1e32); from 0.6 none of 300 went
  // past 0.85.
  r.params.omegaPlus = 1.0f / (0.6f + 0.3f * unit(rng));
  r.params.omegaMinus = 1.0f / (0.6f + 0.3f * unit(rng));
  r.params.wallVelocity[0] = 0.05f;
  r.params.wallVelocity[1] = -0.02f;
  r.params.inletVelocity[0] = 0.04f;
  r.params.force[1] = 1e-5f;
  return r;
}

inline void load(LbmEngine& engine, const RandomLattice& r, std::uint64_t steps) {
  engine.reshape(r.grid);
  engine.setFlags(r.flags, 0, r.flags.size());
  engine.setParams(r.params);
  engine.importState(r.state, steps);
}

// A monitor of a random lattice: the force on each of its bodies and the flow at 7 random cells.
inline Monitor randomMonitor(const RandomLattice& r, std::uint64_t seed) {
  const Obstacles found = findObstacles(r.lattice, r.grid, r.flags);
  Monitor monitor{found.links, found.linkStart, {}};
  std::mt19937 rng{std::uint32_t(seed)};
  for (int k = 0; k < 7; ++k) monitor.probes.push_back(std::uint32_t(rng() % r.grid.cells()));
  return monitor;
}

// Curved walls on a random lattice: about half the links to stationary walls whose upstream
// neighbour is not solid get a random wall distance q in (0, 1) (lbm_cell.h), in the monitor's
// links too. Returns those links, for BoundaryLinks (randomBoundaries).
inline std::vector<ForceLink> curveRandomLinks(const RandomLattice& r, Monitor& monitor,
                                               std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const auto curvable = [&]<typename Lat>(const ForceLink& link) {
    const Neighbourhood nb(r.grid, link.cell);
    const int i = int(link.direction);
    return (r.flags[nb.at(Lat::cx(i), Lat::cy(i), Lat::cz(i))] & kTypeMask) == kWall &&
           !isSolid(r.flags[nb.at(-Lat::cx(i), -Lat::cy(i), -Lat::cz(i))]);
  };
  std::vector<ForceLink> curved;
  for (ForceLink& link : monitor.links) {
    const bool can = r.lattice == LatticeKind::D2Q9 ? curvable.operator()<D2Q9>(link)
                                                    : curvable.operator()<D3Q19>(link);
    if (!can || unit(rng) < 0.5f) continue;
    link.q = 0.02f + 0.96f * unit(rng);
    curved.push_back(link);
  }
  return curved;
}

// Every boundary move a random lattice can have: curved links (curveRandomLinks), free-slip
// reflections off its scattered free-slip cells and copies into its open outlets.
inline BoundaryLinks randomBoundaries(const RandomLattice& r, Monitor& monitor,
                                      std::uint64_t seed) {
  return {curveRandomLinks(r, monitor, seed), slipLinks(r.lattice, r.grid, r.flags),
          openOutlets(r.grid, r.flags)};
}

// The canonical state (lbm_engine.h) of every fluid cell at equilibrium with a scene's initial
// flow, built on the host: what LbmEngine::initialize must leave.
inline std::vector<float> initialState(LatticeKind lattice, const Grid& g,
                                       const std::vector<std::uint8_t>& flags,
                                       const InitialFlow& flow) {
  const int q = latticeQ(lattice);
  std::vector<float> state(g.cells() * q, 0.0f);
  for (std::size_t n = 0; n < g.cells(); ++n) {
    if (isSolid(flags[n])) continue;
    float rho, u[3], s[19];
    initialMoments(flow, int(n % g.nx), int(n / g.nx % g.ny), rho, u);
    if (lattice == LatticeKind::D2Q9)
      equilibrium<D2Q9>(rho, u, s);
    else
      equilibrium<D3Q19>(rho, u, s);
    for (int i = 0; i < q; ++i) state[i * g.cells() + n] = s[i];
  }
  return state;
}

// The largest magnitude of a state's values.
inline float largestMagnitude(const std::vector<float>& a) {
  float largest = 0.0f;
  for (const float v : a) largest = std::max(largest, std::abs(v));
  return largest;
}

// The largest difference between two states; infinite when their sizes differ or either holds a
// value that is not finite (such a state has diverged and proves nothing).
inline float maxDifference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return INFINITY;
  float worst = 0.0f;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!std::isfinite(a[k]) || !std::isfinite(b[k])) return INFINITY;
    worst = std::max(worst, std::abs(a[k] - b[k]));
  }
  return worst;
}

// Checks records of a monitor (lbm_engine.h) against expected ones: a body's force within
// 2 x perPopulation per link (each link moves 2 f c), a probe's moments within 19 x perPopulation;
// NaN (a probe in a wall) where expected.
inline void expectRecordsNear(const std::vector<double>& got, const std::vector<double>& expected,
                              const Monitor& monitor, double perPopulation,
                              const std::string& context) {
  ASSERT_EQ(got.size(), expected.size()) << context;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const std::size_t body = k % monitor.stride() / 3;
    const double tolerance =
        body < std::size_t(monitor.obstacles())
            ? 2 * perPopulation * (monitor.linkStart[body + 1] - monitor.linkStart[body])
            : 19 * perPopulation;
    if (std::isnan(expected[k]))
      EXPECT_TRUE(std::isnan(got[k])) << context << ": a probe in a wall, value " << k;
    else
      EXPECT_NEAR(got[k], expected[k], tolerance) << context << ", record value " << k;
  }
}

// A module on the CPU with these parameters and storage variant, reset.
inline std::unique_ptr<LbmModule> cpuModule(
    const std::vector<std::pair<std::string, ParamValue>>& values,
    const std::string& variant = "aa-soa-fp32") {
  auto module = std::make_unique<LbmModule>(Backend::Cpu);
  module->select(Backend::Cpu, variant);
  module->setParams(values);
  module->reset();
  return module;
}

}  // namespace ws::lbm::test
