#include "compute/lbm/lbm_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <optional>

#include "compute/core/errors.h"
#include "compute/lbm/lbm_mesh_obstacle.h"

namespace ws::lbm {

namespace {

constexpr double kMagicTrt = 3.0 / 16.0;  // puts bounce-back walls exactly half-way (Ginzburg)

// Whether (x, y) lies in the cylinder (its circle included): a cell is a cylinder's where its
// centre is, and a curved link's wall is where the link enters the circle.
bool holds(const Cylinder& c, double x, double y) {
  const double dx = x - c.x, dy = y - c.y;
  return dx * dx + dy * dy <= 0.25 * c.diameter * c.diameter;
}

}  // namespace

Scene parseScene(const std::string& name) {
  if (name == "cavity") return Scene::Cavity;
  if (name == "cylinder") return Scene::Cylinder;
  if (name == "channel") return Scene::Channel;
  if (name == "taylor-green") return Scene::TaylorGreen;
  throw InputError("unknown LBM scene '" + name + "'");
}

void cylinderGeometry(const Grid& g, double& cx, double& cy, double& radius) {
  // A sixteenth of the height, but in a channel more than twice as high as long at most an eighth
  // of its length: a radius of fluid stays between the inlet and the cylinder (which, touching the
  // inlet, made the flow diverge).
  radius = std::max(2.0, std::round(std::min(g.ny / 16.0, g.nx / 8.0)));
  cx = std::min(g.nx / 4.0, 2.5 * g.ny / 4.0);
  cy = 0.5 * g.ny + 0.05 * radius + 0.5;  // slightly off the axis, so the wake starts shedding
}

std::vector<Cylinder> sceneCylinders(const FlowSpec& spec) {
  if (!spec.cylinders.empty() || spec.obstacleMesh || spec.obstacleImage) return spec.cylinders;
  double cx, cy, r;
  cylinderGeometry(spec.grid, cx, cy, r);
  return {{cx, cy, 2 * r}};
}

bool inMask(const io::Mask& mask, const Grid& g, int x, int y) {
  const int px = int((x + 0.5) * mask.width / g.nx), py = int((y + 0.5) * mask.height / g.ny);
  return mask.at(px, mask.height - 1 - py);
}

int maskHeight(const io::Mask& mask, const Grid& g) {
  int low = g.ny, high = -1;
  for (int y = 1; y + 1 < g.ny; ++y)
    for (int x = 1; x + 1 < g.nx; ++x)
      if (inMask(mask, g, x, y)) {
        low = std::min(low, y), high = std::max(high, y);
        break;
      }
  return high < 0 ? 0 : high - low + 1;
}

bool parabolicInflow(const FlowSpec& spec) {
  return spec.parabolicInflow && spec.sides == Sides::Walls;
}

std::vector<double> readCellNumbers(const std::string& text, const std::vector<std::string>& fields,
                                    const std::string& which) {
  std::string names;
  for (const std::string& field : fields) names += (names.empty() ? "" : ",") + field;
  const char* const counts[] = {"no", "one", "two", "three", "four", "five", "six"};
  const auto count = [&](std::size_t n) { return n < std::size(counts) ? counts[n] : "several"; };
  std::vector<double> values;
  const char* at = text.c_str();
  for (std::size_t k = 0; k < fields.size(); ++k) {
    char* next = nullptr;
    const double v = std::strtod(at, &next);
    if (next == at || !std::isfinite(v) || v < 0 || v > kMaxCoordinate)
      throw InputError(which + "expected " + names + ", " + count(fields.size()) +
                       " numbers of cells from 0 to " + std::to_string(int(kMaxCoordinate)));
    values.push_back(v);
    at = next;
    while (*at == ' ') ++at;
    if (k + 1 < fields.size() && *at == '\0')
      throw InputError(which + "expected " + names + ": " + count(fields.size()) + " numbers, " +
                       count(k + 1) + " given");
    if (k + 1 < fields.size() && *at++ != ',')
      throw InputError(which + "expected " + names + ", separated by commas");
  }
  if (*at != '\0') throw InputError(which + "expected " + names + " and nothing after them");
  return values;
}

std::vector<Cylinder> parseCylinders(const std::string& text) {
  std::vector<Cylinder> cylinders;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string which = "cylinder " + std::to_string(cylinders.size() + 1) + ": ";
    const std::vector<double> v =
        readCellNumbers(text.substr(start, end - start), {"x", "y", "d"}, which);
    if (v[2] < 1) throw InputError(which + "a diameter of at least 1 cell");
    cylinders.push_back({v[0], v[1], v[2]});
    if (cylinders.size() > kMaxCylinders)
      throw InputError("at most " + std::to_string(kMaxCylinders) + " cylinders");
    start = end + 1;
  }
  return cylinders;
}

Flow describeFlow(const FlowSpec& spec) {
  Flow flow;
  const Grid& g = spec.grid;
  switch (spec.scene) {
    case Scene::Cavity:
      flow.length = g.nx - 2;
      flow.lengthName = "cavity width";
      break;
    case Scene::Cylinder:
      if (const std::vector<Cylinder> cylinders = sceneCylinders(spec); !cylinders.empty()) {
        flow.length = cylinders.front().diameter;
        flow.lengthName = "cylinder diameter";
      } else if (spec.obstacleMesh) {
        flow.length = spec.obstacleSize;
        flow.lengthName = "obstacle size";
      } else {
        flow.length = std::max(1, maskHeight(*spec.obstacleImage, g));
        flow.lengthName = "obstacle height";
      }
      break;
    case Scene::Channel:
      flow.length = g.ny - 2;
      flow.lengthName = "channel width";
      break;
    case Scene::TaylorGreen:
      flow.length = g.nx / (2 * std::numbers::pi);
      flow.lengthName = "width / 2 pi";
      break;
  }
  if (spec.referenceLength > 0) {
    flow.length = spec.referenceLength;
    flow.lengthName = "chosen length";
  }
  // The mean of a parabolic profile (the inflow, the channel's Poiseuille flow) is 2/3 of its
  // maximum; a lid or a vortex amplitude has no other.
  const bool parabola =
      (spec.scene == Scene::Cylinder && parabolicInflow(spec)) || spec.scene == Scene::Channel;
  const bool mean = spec.meanVelocity && parabola;
  flow.velocity = mean ? spec.velocity * 2 / 3 : spec.velocity;
  const bool uniform = spec.scene == Scene::Cylinder && !parabolicInflow(spec);
  flow.velocityName = mean                            ? "mean inflow speed"
                      : uniform                       ? "inflow speed"
                      : spec.scene == Scene::Cylinder ? "maximum inflow speed"
                      : spec.scene == Scene::Channel  ? "centreline speed"
                      : spec.scene == Scene::Cavity   ? "lid speed"
                                                      : "vortex amplitude";
  const double u = flow.velocity;
  if (spec.fromReynolds) {
    flow.reynolds = spec.reynolds;
    flow.viscosity = u * flow.length / spec.reynolds;
  } else {
    flow.viscosity = spec.viscosity;
    flow.reynolds = u * flow.length / spec.viscosity;
  }
  flow.tau = 3 * flow.viscosity + 0.5;
  flow.mach = spec.velocity * std::sqrt(3.0);
  if (!(flow.tau > 0.5 + 1e-6))
    throw InputError("tau = " + std::to_string(flow.tau) +
                     " is at or below 1/2 (zero or negative viscosity): lower the Reynolds "
                     "number, raise the velocity's length scale or the viscosity");
  StepParams& p = flow.params;
  const double top = spec.velocity;  // the maximum
  p.omegaPlus = float(1 / flow.tau);
  p.omegaMinus = spec.trt ? float(1 / (0.5 + kMagicTrt / (flow.tau - 0.5))) : p.omegaPlus;
  if (spec.scene == Scene::Cavity) p.wallVelocity[0] = float(top);
  if (spec.scene == Scene::Cylinder) {
    p.inletVelocity[0] = float(top);
    p.parabolicInlet = parabolicInflow(spec);
  }
  if (spec.scene == Scene::Channel) {
    const double h = g.ny - 2;
    p.force[0] = float(8 * flow.viscosity * top / (h * h));  // centreline speed `top` when steady
  }
  return flow;
}

double forceCoefficient(const FlowSpec& spec, const Flow& flow, double force) {
  const bool meshBody =
      spec.scene == Scene::Cylinder && spec.obstacleMesh && spec.cylinders.empty();
  const double area = flow.length * (meshBody ? flow.length : spec.grid.nz > 1 ? spec.grid.nz : 1);
  return 2 * force / (flow.velocity * flow.velocity * area);
}

void markNearWalls(const Grid& g, std::vector<std::uint8_t>& flags, std::size_t first,
                   std::size_t last) {
  const int dz = g.nz > 1 ? 1 : 0;
#pragma omp parallel for schedule(static)
  for (std::size_t n = first; n < last; ++n) {
    flags[n] &= std::uint8_t(~kNearWall);
    if (isSolid(flags[n])) continue;
    const Neighbourhood nb(g, n);
    bool near = false;
    for (int z = -dz; z <= dz; ++z)
      for (int y = -1; y <= 1; ++y)
        for (int x = -1; x <= 1; ++x) near = near || isSolid(flags[nb.at(x, y, z)]);
    if (near) flags[n] |= kNearWall;
  }
}

std::vector<std::uint8_t> sceneFlags(const FlowSpec& spec) {
  const Grid& g = spec.grid;
  std::vector<std::uint8_t> flags(g.cells(), kFluid);
  const std::vector<Cylinder> cylinders =
      spec.scene == Scene::Cylinder ? sceneCylinders(spec) : std::vector<Cylinder>{};
  const std::uint8_t side = spec.sides == Sides::Walls      ? kWall
                            : spec.sides == Sides::FreeSlip ? kSlipWall
                                                            : kFluid;
  // The mesh obstacle's cells, where there is one (none: empty, not a lattice of zeros).
  const std::vector<std::uint8_t> inMesh = spec.scene == Scene::Cylinder && spec.obstacleMesh
                                               ? voxelizeMesh(*spec.obstacleMesh, g)
                                               : std::vector<std::uint8_t>();
  // A cell is in a cylinder where its centre is.
  const auto inCylinder = [&](int x, int y) {
    return std::any_of(cylinders.begin(), cylinders.end(),
                       [&](const Cylinder& c) { return holds(c, x + 0.5, y + 0.5); });
  };
  const bool box3d = g.nz > 1;
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < g.cells(); ++n) {
    const int x = int(n % g.nx), y = int(n / g.nx % g.ny), z = int(n / (std::size_t(g.nx) * g.ny));
    const bool bottom = y == 0, top = y == g.ny - 1;
    std::uint8_t type = kFluid;
    switch (spec.scene) {
      case Scene::Cavity:
        if (top)
          type = kMovingWall;
        else if (bottom || x == 0 || x == g.nx - 1 || (box3d && (z == 0 || z == g.nz - 1)))
          type = kWall;
        break;
      case Scene::Cylinder:
        if (side != kFluid && (bottom || top))
          type = side;
        else if (x == 0)
          type = kInlet;
        else if (x == g.nx - 1)
          type = spec.openOutflow ? kOpenOutlet : kOutlet;
        else if (inCylinder(x, y) || (!inMesh.empty() && inMesh[n]) ||
                 (spec.obstacleImage && inMask(*spec.obstacleImage, g, x, y)))
          type = kWall;
        break;
      case Scene::Channel:
        if (bottom || top) type = kWall;
        break;
      case Scene::TaylorGreen:
        break;
    }
    flags[n] = type;
  }
  markNearWalls(g, flags, 0, g.cells());
  return flags;
}

namespace {

// Where the segment from (x, y) to (x + dx, y + dy) enters a cylinder that holds its end, as a
// fraction of its length in (0, 1]; none where it starts inside a cylinder or ends in none.
std::optional<double> entryAlong(const std::vector<Cylinder>& cylinders, double x, double y,
                                 double dx, double dy) {
  std::optional<double> first;
  for (const Cylinder& c : cylinders) {
    const double px = x - c.x, py = y - c.y, r2 = 0.25 * c.diameter * c.diameter;
    const double a = dx * dx + dy * dy, b = px * dx + py * dy, outside = px * px + py * py - r2;
    if (outside <= 0) return std::nullopt;
    const double disc = b * b - a * outside;
    if (a == 0 || disc < 0 || !holds(c, x + dx, y + dy)) continue;
    const double t = (-b - std::sqrt(disc)) / a;
    if (t > 0 && t <= 1 + 1e-9 && (!first || t < *first)) first = std::min(t, 1.0);
  }
  return first;
}

template <typename Lat>
std::vector<ForceLink> linksToCylinders(const FlowSpec& spec,
                                        const std::vector<std::uint8_t>& flags) {
  std::vector<ForceLink> links;
  if (spec.scene != Scene::Cylinder) return links;
  const std::vector<Cylinder> cylinders = sceneCylinders(spec);
  const Grid& g = spec.grid;
  for (std::size_t n = 0; n < g.cells(); ++n) {
    if (!(flags[n] & kNearWall) || isSolid(flags[n])) continue;
    const Neighbourhood nb(g, n);
    const double x = double(n % g.nx) + 0.5, y = double(n / g.nx % g.ny) + 0.5;
    for (int i = 1; i < Lat::Q; ++i) {
      const std::uint8_t to = flags[nb.at(Lat::cx(i), Lat::cy(i), Lat::cz(i))];
      if ((to & kTypeMask) != kWall || isSolid(flags[nb.at(-Lat::cx(i), -Lat::cy(i), -Lat::cz(i))]))
        continue;
      const std::optional<double> q = entryAlong(cylinders, x, y, Lat::cx(i), Lat::cy(i));
      if (q && std::abs(*q - 0.5) > 1e-6)
        links.push_back({std::uint32_t(n), std::uint32_t(i), float(*q)});
    }
  }
  return links;
}

}  // namespace

std::vector<ForceLink> curvedLinks(const FlowSpec& spec, const std::vector<std::uint8_t>& flags) {
  return spec.lattice == LatticeKind::D2Q9 ? linksToCylinders<D2Q9>(spec, flags)
                                           : linksToCylinders<D3Q19>(spec, flags);
}

InitialFlow initialFlow(const FlowSpec& spec) {
  InitialFlow flow;
  const Grid& g = spec.grid;
  flow.speed = spec.velocity;
  switch (spec.scene) {
    case Scene::Cylinder:
      // The inflow everywhere: its parabola (Schaefer and Turek's benchmark inflow), or uniform.
      flow.kind = InitialFlow::kInflow;
      flow.channel = parabolicInflow(spec) ? g.ny - 2 : 0;
      break;
    case Scene::TaylorGreen:
      flow.kind = InitialFlow::kTaylorGreen;
      flow.kx = 2 * std::numbers::pi / g.nx;
      flow.ky = 2 * std::numbers::pi / g.ny;
      break;
    default:
      break;
  }
  return flow;
}

}  // namespace ws::lbm
