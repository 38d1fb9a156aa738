#pragma once
// The flows the module sets up: geometry (the flag field), the initial state and the lattice
// parameters that a velocity and a Reynolds number (or a viscosity) mean for each.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/io/image_io.h"
#include "compute/io/mesh_io.h"
#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

enum class Scene { Cavity, Cylinder, Channel, TaylorGreen };

Scene parseScene(const std::string& name);  // "cavity", "cylinder", "channel", "taylor-green"

// A cylinder of the cylinder scene, in cells from the lattice's lower-left corner (cell (i, j)
// spans [i, i + 1] x [j, j + 1]); in 3-D it spans the depth.
struct Cylinder {
  double x = 0, y = 0, diameter = 0;
};

// The top and bottom of the cylinder scene: bounce-back walls (rows 0 and ny - 1), free-slip
// walls there, or periodic.
enum class Sides { Walls, FreeSlip, Periodic };

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
  // The cylinder scene's geometry: its cylinders (none: one placed by cylinderGeometry), its top
  // and bottom, and its inflow (the parabola needs walls; between other sides it is uniform).
  std::vector<Cylinder> cylinders;
  // An obstacle from a mesh (3-D), in lattice coordinates (lbm_mesh_obstacle.h: placeMesh), its
  // largest side `obstacleSize` cells; with it, the scene has no cylinder but those given.
  std::shared_ptr<const io::TriangleMesh> obstacleMesh;
  double obstacleSize = 0;
  // Obstacles from a picture stretched over the lattice (its top row at the top), a cell a wall
  // where the pixel at its centre is dark (io::Mask); in 3-D through the depth. With it too the
  // scene has no cylinder but those given.
  std::shared_ptr<const io::Mask> obstacleImage;
  Sides sides = Sides::Walls;
  bool parabolicInflow = true;
  bool openOutflow = false;  // an extrapolated outlet (kOpenOutlet) rather than kOutlet
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
// spanning it: cylinders, a picture's obstacles), L^2 for a mesh obstacle without cylinders (a
// body of its own size).
double forceCoefficient(const FlowSpec& spec, const Flow& flow, double force);

// Cell types of the scene, with the near-wall bits set.
std::vector<std::uint8_t> sceneFlags(const FlowSpec& spec);
// Sets or clears kNearWall for the cells [first, last) from their neighbours' types.
void markNearWalls(const Grid& g, std::vector<std::uint8_t>& flags, std::size_t first,
                   std::size_t last);

// The scene's starting flow, which the engine sets up where its lattice is (LbmEngine::initialize).
InitialFlow initialFlow(const FlowSpec& spec);

// Whether cell (x, y) of the lattice lies on a dark pixel of the picture.
bool inMask(const io::Mask& mask, const Grid& g, int x, int y);
// The rows the picture's obstacles span within the lattice, inlet, outlet and sides left out:
// their height across the flow (0 where there are none).
int maskHeight(const io::Mask& mask, const Grid& g);

// The centre and radius of the cylinder placed where the cylinder scene gives none: a radius of
// the height / 16 (at most the length / 8), its centre a quarter of the length from the inlet (at
// most 10 sixteenths of the height), slightly off the axis.
void cylinderGeometry(const Grid& g, double& cx, double& cy, double& radius);
// The cylinder scene's cylinders: those given, else (without a mesh or picture obstacle) the one
// cylinderGeometry places.
std::vector<Cylinder> sceneCylinders(const FlowSpec& spec);
// Whether the inflow is the parabola (between walls) rather than uniform.
bool parabolicInflow(const FlowSpec& spec);

// The links to the cylinder scene's cylinders whose wall is not half-way (curved walls,
// lbm_cell.h): from a fluid, inlet or outlet cell n to a wall neighbour along c_i whose centre is
// in a cylinder, with q where the segment between the two centres enters the circle. Links whose
// upstream neighbour n - c_i is solid are left out (they stay plain bounce-back), as are those of
// drawn walls. In the order of cells, then directions.
std::vector<ForceLink> curvedLinks(const FlowSpec& spec, const std::vector<std::uint8_t>& flags);

// Reads the whole of `text` as `fields.size()` numbers of cells from 0 to kMaxCoordinate separated
// by commas ("x,y,d"). Throws InputError saying what was expected, after `which` ("cylinder 2: ").
std::vector<double> readCellNumbers(const std::string& text, const std::vector<std::string>& fields,
                                    const std::string& which = "");
constexpr double kMaxCoordinate = 32768;

// Parses "x,y,d; x,y,d" (cells; see Cylinder): up to kMaxCylinders, each inside a lattice of up
// to 32768 cells a side, with a diameter of at least 1 cell. Throws InputError saying what is
// wrong; "" gives none.
std::vector<Cylinder> parseCylinders(const std::string& text);
constexpr std::size_t kMaxCylinders = 64;

}  // namespace ws::lbm
