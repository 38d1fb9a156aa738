#pragma once
// The flows the module sets up: geometry (the flag field), the initial state and the lattice
// parameters that a velocity and a Reynolds number (or a viscosity) mean for each.
#include <cstdint>
#include <string>
#include <vector>

#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

enum class Scene { Cavity, Cylinder, Channel, TaylorGreen };

Scene parseScene(const std::string& name);  // "cavity", "cylinder", "channel", "taylor-green"

// What the user sets, and what it means in lattice units.
struct FlowSpec {
  Scene scene = Scene::Cylinder;
  LatticeKind lattice = LatticeKind::D2Q9;
  Grid grid;
  double velocity = 0.1;  // lid, inlet, centreline or vortex amplitude, in cells per step
  // What the Reynolds number, the force coefficients and the Strouhal number are based on: the
  // mean speed of the inflow (or channel) rather than `velocity`, its maximum; a length in cells
  // rather than the scene's (0).
  bool meanVelocity = false;
  double referenceLength = 0;
  bool fromReynolds = true;
  double reynolds = 150, viscosity = 0.02;
  bool trt = true;
};

struct Flow {
  double length = 1;         // characteristic length in cells
  std::string lengthName;    // "cylinder diameter"
  double velocity = 0;       // the reference velocity in cells per step
  std::string velocityName;  // "mean inflow speed"
  double viscosity = 0, reynolds = 0, tau = 0, mach = 0;
  StepParams params;
};

// Derives the lattice parameters; throws InputError when tau would be at or below 1/2.
Flow describeFlow(const FlowSpec& spec);

// A force's coefficient, 2 F / (rho U^2 A), for the flow's reference velocity U and length L, with
// rho = 1 and A = L in 2-D (per cell of depth) or L times the lattice's depth in 3-D (a body
// spanning it).
double forceCoefficient(const FlowSpec& spec, const Flow& flow, double force);

// Cell types of the scene, with the near-wall bits set.
std::vector<std::uint8_t> sceneFlags(const FlowSpec& spec);
// Sets or clears kNearWall for the cells [first, last) from their neighbours' types.
void markNearWalls(const Grid& g, std::vector<std::uint8_t>& flags, std::size_t first,
                   std::size_t last);

// The initial state (post-collision populations, shifted, q-major): equilibrium at the scene's
// starting density and velocity.
std::vector<float> sceneState(const FlowSpec& spec, const std::vector<std::uint8_t>& flags);

// The centre and radius of the cylinder in the cylinder scene (for tests and probes).
void cylinderGeometry(const Grid& g, double& cx, double& cy, double& radius);

}  // namespace ws::lbm
