#include "compute/lbm/lbm_module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "compute/core/errors.h"
#include "compute/core/line.h"
#include "compute/core/memory.h"
#include "compute/core/output_file.h"
#include "compute/core/ranks.h"
#include "compute/core/saved_state.h"
#include "compute/lbm/lbm_catalog.h"
#include "compute/lbm/lbm_cuda.h"
#include "compute/lbm/lbm_export.h"
#include "compute/lbm/lbm_mesh_obstacle.h"
#include "compute/lbm/lbm_mpi.h"

namespace ws::lbm {

namespace {

constexpr std::int64_t kMaxSide = 32768, kMaxDepth = 1024, kMaxTracers = 4000000,
                       kMaxStreamlines = 16384;
// The streamlines' points in all, at most: 128 MB of segments.
constexpr std::size_t kMaxStreamPoints = std::size_t(1) << 22;
constexpr std::size_t kMaxProbes = 64;
constexpr std::size_t kMaxVtiFrames = 100000;
constexpr double kVtiReserveBytes = 2e9;
constexpr std::uint32_t kTracerSeed = 1;
constexpr double kSnapshotBytes = 256.0 * 1024 * 1024;
constexpr double kSnapshotSeconds = 5.0;  // a 75 MB copy costs a frame or two

// Has `write` fill `count` floats of a view's buffer at `out`, staged through host memory where
// the buffer is the device's (a GL buffer mapped for CUDA) but the writer runs on the host (the
// tracers, isosurfaces and streamlines of a lattice split over ranks, whose fields are gathered on
// the host).
template <typename Write>
void writeFromHost(float* out, std::size_t count, bool outOnDevice, Write write) {
  if (!outOnDevice) return write(out);
  std::vector<float> staged(count);
  write(staged.data());
  copyToView(out, staged.data(), count * sizeof(float), true);
}

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A file's path and when it was last written: what the obstacle caches are keyed by, so that a
// file is read again once it changes (a path that cannot be read keys as itself).
std::string fileVersion(const std::string& path) {
  std::error_code error;
  const auto written = std::filesystem::last_write_time(path, error);
  return error ? path : path + "@" + std::to_string(written.time_since_epoch().count());
}

// The file at `path` through `cache` (its fileVersion and what `read` made of it): read again
// only when it is another file or was written since.
template <typename T, typename Read>
std::shared_ptr<const T> readThrough(std::pair<std::string, std::shared_ptr<const T>>& cache,
                                     const std::string& path, Read read) {
  if (std::string version = fileVersion(path); cache.first != version)
    cache = {std::move(version), std::make_shared<const T>(read(path))};
  return cache.second;
}

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// The probe parameter: "x0,y0,x1,y1", four numbers of cells (readCellNumbers); "" for none.
// Throws InputError saying what is wrong.
std::optional<std::array<double, 4>> parseProbe(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const std::vector<double> v = readCellNumbers(text, {"x0", "y0", "x1", "y1"});
  return std::array<double, 4>{v[0], v[1], v[2], v[3]};
}

// The probes parameter: points "x,y" (2-D) or "x,y,z" separated by semicolons, in cells (y up);
// "" for none. Throws InputError saying what is wrong.
std::vector<std::array<int, 3>> parseProbes(const std::string& text) {
  std::vector<std::array<int, 3>> points;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string item = text.substr(start, end - start);
    std::array<int, 3> point{0, 0, -1};  // z -1: not given
    const char* at = item.c_str();
    int k = 0;
    for (; k < 3; ++k) {
      while (*at == ' ') ++at;
      char* next = nullptr;
      const long v = std::strtol(at, &next, 10);
      if (next == at || v < 0 || v >= kMaxSide)
        throw InputError("probe " + std::to_string(points.size() + 1) +
                         ": expected whole numbers of cells from 0 to " +
                         std::to_string(kMaxSide - 1) + ", x,y or x,y,z");
      point[k] = int(v);
      at = next;
      while (*at == ' ') ++at;
      if (*at != ',') break;
      ++at;
    }
    if (k == 0 || k > 2 || *at != '\0')
      throw InputError("probe " + std::to_string(points.size() + 1) +
                       ": expected x,y or x,y,z, probes separated by semicolons");
    points.push_back(point);
    if (points.size() > kMaxProbes)
      throw InputError("at most " + std::to_string(kMaxProbes) + " probes");
    start = end + 1;
  }
  return points;
}

// A probe point held to the lattice; without z, half-way through the depth.
std::array<int, 3> probeCell(const Grid& g, const std::array<int, 3>& p) {
  return {std::min(p[0], g.nx - 1), std::min(p[1], g.ny - 1),
          p[2] < 0 ? g.nz / 2 : std::min(p[2], g.nz - 1)};
}

// A text parameter's check from its parser: what the parser says is wrong, or "".
template <typename Parse>
auto checkedBy(Parse parse) {
  return [parse](const std::string& text) {
    try {
      parse(text);
      return std::string();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
  };
}

// A lattice's size until the user picks one: a 2-D lattice wide enough for a vortex street, a
// 3-D one of about 4 million cells on a GPU and 220,000 on the CPU (a few steps a second on a
// few cores, not one every half second).
std::array<std::int64_t, 3> defaultSize(bool is3d, bool gpu) {
  if (is3d)
    return gpu ? std::array<std::int64_t, 3>{256, 128, 128}
               : std::array<std::int64_t, 3>{96, 48, 48};
  return gpu ? std::array<std::int64_t, 3>{2048, 1024, 128}
             : std::array<std::int64_t, 3>{512, 256, 48};
}

// A Reynolds number until the user picks one: 150 in 2-D, for a vortex street; in 3-D low enough
// that the default lattice's cylinder (its height / 8 across: 16 cells on a GPU, 6 on the CPU)
// keeps tau at 0.56 at the default speed, 0.1, where 150 would put it at 0.53 and 0.51, below
// what the velocity inlet bears (LbmModule::notes warns under 0.54).
double defaultReynolds(bool is3d, bool gpu) {
  if (!is3d) return 150;
  return gpu ? 80 : 30;
}

std::string probeText(const std::array<double, 4>& ends) {
  char text[96];
  std::snprintf(text, sizeof text, "%g,%g,%g,%g", ends[0], ends[1], ends[2], ends[3]);
  return text;
}

}  // namespace

LbmModule::LbmModule(Backend backend) : Module(backend) {
  const bool gpu = backend == Backend::Cuda;
  ParamSet& p = declare();
  p.declare(ParamSpec::choice("lattice", "lattice", "d2q9", {"d2q9", "d3q19"},
                              "D2Q9 for 2-D flows, D3Q19 for 3-D (the source's lattice)"));
  p.declare(ParamSpec::choice(
      "scene", "scene", "cylinder", {"cylinder", "cavity", "channel", "taylor-green"},
      "cylinder: channel flow past a cylinder (vortex street); cavity: lid-driven cavity; "
      "channel: Poiseuille flow driven by a body force; taylor-green: decaying vortices"));
  p.declare(ParamSpec::text(
      "cylinders", "cylinders", "",
      "the cylinder scene's cylinders, x,y,d in cells from the lattice's lower-left corner "
      "(centre and diameter; in 3-D each spans the depth), separated by semicolons; empty: one "
      "of height / 8 a little off the axis, a quarter of the way along",
      checkedBy(parseCylinders)));
  p.declare(ParamSpec::text(
      "obstacle_mesh", "obstacle mesh", "",
      "3-D, the cylinder scene: an obstacle from a mesh, a shipped one's name (gear, star, "
      "rough-sphere...) or the path of an .obj, .ply or .off file, voxelized onto the lattice "
      "(cells whose centres are inside); with it, the scene has no cylinder but those given. "
      "Empty: none",
      [](const std::string& text) {
        return text.empty() ? std::string() : io::checkMeshName(text, {}, "mesh");
      }));
  p.declare(ParamSpec::text(
      "obstacle_image", "obstacle picture", "",
      "the cylinder scene: obstacles from a picture, a shipped one's name (airfoil...) or the "
      "path of a .png, .bmp, .tga, .jpg, .pgm or .ppm file, stretched over the lattice: a cell "
      "is a wall where the pixel at its centre is dark (in 3-D, through the depth); with it, the "
      "scene has no cylinder but those given. Empty: none",
      [](const std::string& text) {
        return text.empty() ? std::string() : io::checkMaskName(text);
      }));
  p.declare(ParamSpec::text(
      "obstacle_place", "obstacle place", "",
      "where the obstacle mesh goes: x,y,z,size in cells, its centre and the length its largest "
      "side spans; empty: a quarter of the way along, centred, a third of the height",
      checkedBy(parseMeshPlacement)));
  p.declare(ParamSpec::choice(
      "sides", "top and bottom", "walls", {"walls", "free-slip", "periodic"},
      "the cylinder scene's top and bottom: bounce-back walls (no slip), free-slip walls (they "
      "hold the flow in but not back: what reaches them is mirrored, as at a far field or a "
      "symmetry plane), or periodic (the flow leaving at the top comes in at the bottom)"));
  p.declare(ParamSpec::choice("inflow", "inflow", "parabolic", {"parabolic", "uniform"},
                              "the cylinder scene's inflow: the parabola of a channel between "
                              "walls (velocity is its maximum), or uniform (always between "
                              "free-slip or periodic sides)"));
  p.declare(ParamSpec::choice(
      "outflow", "outflow", "pressure", {"pressure", "extrapolated"},
      "the cylinder scene's right end, both at density 1 (a fixed pressure): in equilibrium at "
      "the speed the flow brings along x (which drops the shear), or extrapolated from the "
      "column before it, its velocity and non-equilibrium part (Guo, Zheng and Shi 2002: the "
      "wake leaves with its shape)"));
  const std::array<std::int64_t, 3> size = defaultSize(false, gpu);
  ParamSpec width = ParamSpec::integer("width", "width", double(size[0]), 8, double(kMaxSide),
                                       "lattice cells along x (picking the other lattice at this "
                                       "lattice's default size takes that one's)");
  width.logScale = true;
  p.declare(width);
  ParamSpec height = ParamSpec::integer("height", "height", double(size[1]), 8, double(kMaxSide),
                                        "lattice cells along y");
  height.logScale = true;
  p.declare(height);
  ParamSpec depth = ParamSpec::integer("depth", "depth (3-D)", double(size[2]), 4,
                                       double(kMaxDepth), "lattice cells along z (D3Q19 only)");
  depth.logScale = true;
  p.declare(depth);
  p.declare(ParamSpec::real("velocity", "velocity", 0.1, 0.001, 0.3,
                            "lid, inlet or centreline speed in cells per step (Mach = speed x "
                            "sqrt 3; keep it under 0.3 x 0.577)"));
  p.declare(ParamSpec::choice("viscosity_from", "set by", "reynolds", {"reynolds", "viscosity"},
                              "derive the viscosity from the Reynolds number, or set it"));
  ParamSpec re = ParamSpec::real("reynolds", "Reynolds number", 150, 0.01, 1e6,
                                 "reference velocity x reference length / viscosity");
  re.logScale = true;
  p.declare(re);
  ParamSpec nu = ParamSpec::real("viscosity", "viscosity", 0.02, 0, 10,
                                 "kinematic viscosity in lattice units (tau = 3 nu + 1/2)");
  nu.logScale = true;
  p.declare(nu);
  p.declare(ParamSpec::choice(
      "reference_velocity", "reference velocity", "max", {"max", "mean"},
      "the speed the Reynolds number, the force coefficients and the Strouhal number are based "
      "on: the inflow's maximum (its centreline; the lid; the vortex amplitude), or its mean (2/3 "
      "of the maximum for the parabolic inflow and the channel, as in Schaefer and Turek's "
      "benchmark)"));
  p.declare(ParamSpec::real(
      "reference_length", "reference length", 0, 0, double(kMaxSide),
      "the length in cells the Reynolds number, the coefficients and the Strouhal number are "
      "based on; 0: the scene's (cylinder diameter, the obstacle's size or height, cavity or "
      "channel width). Coefficients are "
      "2F / (rho U^2 A) with A this length (2-D) or it times the depth (3-D)"));
  p.declare(ParamSpec::choice(
      "curved_walls", "cylinder walls", "interpolated", {"interpolated", "bounce-back"},
      "how the cylinders' round walls meet the lattice: interpolated bounce-back (Bouzidi, "
      "Firdaouss and Lallemand) at each link's distance to the circle, second order; or plain "
      "bounce-back, a staircase of walls half-way between cells, first order (compare the "
      "drag). Drawn walls are always plain"));
  p.declare(ParamSpec::choice("collision", "collision", "trt", {"trt", "bgk"},
                              "TRT (two relaxation times, magic 3/16: stable and walls exactly "
                              "half-way) or BGK (single relaxation time)"));
  p.declare(ParamSpec::choice("view", "view", "speed", {"speed", "vorticity", "density"},
                              "velocity magnitude, vorticity normal to the view, or density"));
  p.declare(ParamSpec::choice(
      "display", "3-D view", "slice", {"slice", "isosurface"},
      "3-D: one slice of the lattice (with the tracers, the tools and the probes), or an "
      "isosurface through the whole flow, coloured by speed, with the obstacles; drag to turn it"));
  p.declare(ParamSpec::choice(
      "iso_quantity", "isosurface of", "speed", {"speed", "vorticity", "q-criterion", "none"},
      "what the isosurface follows: the speed, the vorticity's magnitude, or the Q-criterion "
      "(rotation minus strain, (|Omega|^2 - |S|^2) / 2: positive in vortex cores); or none, "
      "to see the streamlines and obstacles alone"));
  p.declare(ParamSpec::real("iso_level", "isosurface level", 0.3, 0, 1,
                            "where the isosurface lies, as a fraction of its quantity's largest "
                            "value in the flow now (inside is above it)"));
  p.declare(ParamSpec::integer(
      "streamlines", "streamlines", gpu ? 256 : 64, 0, double(kMaxStreamlines),
      "3-D view: lines along the flow at this instant, coloured by speed and hidden behind the "
      "isosurface (0: none)"));
  p.declare(ParamSpec::real("stream_length", "streamline length", 1, 0.05, 4,
                            "how far a streamline runs at most, in lengths of the lattice's "
                            "longest side (it stops at walls, the lattice's sides and still "
                            "water)"));
  p.declare(ParamSpec::choice(
      "stream_seeds", "streamlines from", "throughout", {"throughout", "inlet"},
      "where the streamlines start: spread evenly through the flow, each running up- and "
      "downstream from there, or spread over the inlet, running downstream"));
  p.declare(ParamSpec::choice("slice_axis", "slice normal", "z", {"x", "y", "z"},
                              "3-D: the axis normal to the slice shown"));
  p.declare(ParamSpec::real("slice", "slice position", 0.5, 0, 1,
                            "3-D: where the slice lies along its axis (0 to 1)"));
  p.declare(
      ParamSpec::integer("brush", "brush radius", 2, 0, 64, "radius in cells of the obstacle pen"));
  p.declare(ParamSpec::text(
      "probe", "probe line", "",
      "the probe line's ends in cells of the plane shown, x0,y0,x1,y1 (y up), as the probe tool "
      "draws it; 'export probe CSV' writes the flow along it; empty: the vertical centreline "
      "(not drawn)",
      checkedBy(parseProbe)));
  p.declare(ParamSpec::choice(
      "forces", "forces on", "bodies", {"bodies", "all", "none"},
      "which bodies' forces are measured after every step, by momentum exchange on the "
      "links between fluid and wall: the obstacles in the flow (the walls where there are none), "
      "all bodies with the walls, or none. The measuring costs a small kernel a step over those "
      "links (walls of a large 3-D lattice have many)"));
  p.declare(ParamSpec::text(
      "probes", "probe points", "",
      "points where the density and velocity are recorded every step, x,y or x,y,z in cells (y "
      "up; without z, half-way through a 3-D lattice's depth), separated by semicolons; the "
      "probe point tool adds one where you click",
      checkedBy(parseProbes)));
  p.declare(ParamSpec::integer(
      "vti_every", "VTI series every", 0, 0, 1e9,
      "write the whole flow as VTK image data every this many steps, into a folder of its own "
      "in the output folder with a .pvd index that ParaView opens as a time series (0: off). "
      "It stops, saying why, before the disk has under 2 GB left"));
  p.declare(ParamSpec::integer("tracers", "tracer particles", gpu ? 12000 : 3000, 0,
                               double(kMaxTracers),
                               "points carried by the flow in the plane shown (0: none)"));
  ParamSpec life = ParamSpec::real("tracer_life", "tracer lifetime", 3000, 10, 1e6,
                                   "mean steps a tracer lives before it reappears elsewhere");
  life.logScale = true;
  p.declare(life);
  p.declare(ParamSpec::choice(
      "split_axis", "split along", "auto", {"auto", "x", "y", "z"},
      "under mpirun: the axis along which the lattice is cut into a slab a process (auto: z in "
      "3-D, y in 2-D; along x, the contiguous axis, the halos are scattered cells)"));
  p.declare(ParamSpec::text(
      "split_grid", "grid of ranks", "",
      "under mpirun: the lattice cut into a box a process, parts along x, y (and z), e.g. 2x2 or "
      "2x1x2, as many as the processes (empty: slabs along the axis above); each box's halo goes "
      "to the ranks beside its faces and edges",
      [](const std::string& text) -> std::string {
        if (text.empty()) return "";
        try {
          parseRankGrid(text);
          return "";
        } catch (const InputError& e) {
          return e.what();
        }
      }));
  p.declare(ParamSpec::boolean(
      "split_overlap", "exchange while the inside steps", true,
      "under mpirun: each rank's border (a slab's border layers, a box's faces) steps first and "
      "its halo travels while the rest steps (Riesinger 2017); off, the halo travels after the "
      "whole step"));
  p.declare(ParamSpec::boolean(
      "split_peer", "halo from GPU to GPU", true,
      "under mpirun on the GPUs of one host: each slab's halo is written straight into its "
      "neighbour's GPU memory (CUDA IPC, over NVLink where the GPUs have it); off, or where the "
      "GPUs cannot share memory, it is staged through pinned host memory and sent by MPI"));
  p.declare(ParamSpec::choice("block", "threads per block", "128",
                              {"64", "128", "256", "512", "1024"},
                              "CUDA threads per block of the stream-collide kernel"));

  cpuTimings_ = {&addTiming("stream-collide (CPU)", "lattice updates/s", false),
                 &addTiming("view (CPU)", "pixels/s", false)};
  gpuTimings_ = {&addTiming("stream-collide (CUDA)", "lattice updates/s", true),
                 &addTiming("view (CUDA)", "pixels/s", true)};
  cpuTracerTiming_ = &addTiming("tracers (CPU)", "tracers/s", false);
  gpuTracerTiming_ = &addTiming("tracers (CUDA)", "tracers/s", true);
  cpuSurfaceTiming_ = &addTiming("isosurface (CPU)", "cubes/s", false);
  gpuSurfaceTiming_ = &addTiming("isosurface (CUDA)", "cubes/s", true);
  cpuStreamTiming_ = &addTiming("streamlines (CPU)", "points/s", false);
  gpuStreamTiming_ = &addTiming("streamlines (CUDA)", "points/s", true);
  spec_ = specFromParams();
  flow_ = describeFlow(spec_);
  buildEngine();
  reset();
}

FlowSpec LbmModule::specFromParams() const {
  FlowSpec s;
  s.scene = parseScene(params().getText("scene"));
  s.lattice = params().getText("lattice") == "d3q19" ? LatticeKind::D3Q19 : LatticeKind::D2Q9;
  s.grid.nx = int(params().getInt("width"));
  s.grid.ny = int(params().getInt("height"));
  s.grid.nz = s.lattice == LatticeKind::D3Q19 ? int(params().getInt("depth")) : 1;
  s.velocity = params().getFloat("velocity");
  s.fromReynolds = params().getText("viscosity_from") == "reynolds";
  s.reynolds = params().getFloat("reynolds");
  s.viscosity = params().getFloat("viscosity");
  s.trt = params().getText("collision") == "trt";
  s.cylinders = parseCylinders(params().getText("cylinders"));
  const std::string& mesh = params().getText("obstacle_mesh");
  if (s.lattice == LatticeKind::D3Q19 && !mesh.empty()) {
    const auto whole = readThrough(meshCache_, io::meshPathOf(mesh), io::loadMesh);
    const MeshPlacement at = parseMeshPlacement(params().getText("obstacle_place"))
                                 .value_or(defaultMeshPlacement(s.grid));
    s.obstacleMesh = std::make_shared<const io::TriangleMesh>(placeMesh(*whole, at));
    s.obstacleSize = at.size;
  }
  if (const std::string& image = params().getText("obstacle_image"); !image.empty()) {
    s.obstacleImage = readThrough(imageCache_, io::maskPathOf(image), io::loadMask);
  }
  const std::string& sides = params().getText("sides");
  s.sides = sides == "periodic"    ? Sides::Periodic
            : sides == "free-slip" ? Sides::FreeSlip
                                   : Sides::Walls;
  s.openOutflow = params().getText("outflow") == "extrapolated";
  s.parabolicInflow = params().getText("inflow") == "parabolic";
  s.meanVelocity = params().getText("reference_velocity") == "mean";
  s.referenceLength = params().getFloat("reference_length");
  if (double(s.grid.nx) * s.grid.ny * s.grid.nz > double(kMaxCells))
    throw InputError("a " + std::to_string(s.grid.nx) + "x" + std::to_string(s.grid.ny) + "x" +
                     std::to_string(s.grid.nz) + " lattice has more than 2^31 cells");
  return s;
}

bool LbmModule::applies(const std::string& key) const {
  const ParamSet& p = params();
  const bool is3d = p.getText("lattice") == "d3q19";
  if (key == "depth" || key == "display") return is3d;
  const bool slice = !is3d || p.getText("display") == "slice";
  if (key == "slice_axis" || key == "slice") return is3d && slice;
  if (key == "view") return slice;
  const bool surface = is3d && p.getText("display") == "isosurface";
  if (key == "iso_quantity" || key == "streamlines") return surface;
  if (key == "iso_level") return surface && p.getText("iso_quantity") != "none";
  if (key == "stream_length") return surface && p.getInt("streamlines") > 0;
  if (key == "stream_seeds")
    return surface && p.getInt("streamlines") > 0 && p.getText("scene") == "cylinder";
  if (key == "reynolds" || key == "viscosity") return p.getText("viscosity_from") == key;
  if (key == "block") return backend() == Backend::Cuda;
  if (key == "split_axis") return ranks::count() > 1 && params().getText("split_grid").empty();
  if (key == "split_grid" || key == "split_overlap") return ranks::count() > 1;
  if (key == "split_peer") return ranks::count() > 1 && backend() == Backend::Cuda;
  if (key == "cylinders" || key == "sides" || key == "curved_walls" || key == "outflow")
    return p.getText("scene") == "cylinder";
  if (key == "obstacle_mesh") return is3d && p.getText("scene") == "cylinder";
  if (key == "obstacle_image") return p.getText("scene") == "cylinder";
  if (key == "obstacle_place")
    return is3d && p.getText("scene") == "cylinder" && !p.getText("obstacle_mesh").empty();
  if (key == "inflow") return p.getText("scene") == "cylinder" && p.getText("sides") == "walls";
  return true;
}

std::vector<std::pair<std::string, ParamValue>> LbmModule::alongWith(
    const std::vector<std::string>& changed, const ParamSet& before) const {
  if (!anyOf(changed, {"lattice"})) return {};
  const bool was3d = before.getText("lattice") == "d3q19";
  const bool gpu = backend() == Backend::Cuda;
  std::vector<std::pair<std::string, ParamValue>> along;
  const std::array<std::int64_t, 3> was = defaultSize(was3d, gpu);
  if (!anyOf(changed, {"width", "height", "depth"}) && !sizeChosen_ &&
      before.getInt("width") == was[0] && before.getInt("height") == was[1] &&
      (!was3d || before.getInt("depth") == was[2])) {
    const std::array<std::int64_t, 3> now = defaultSize(!was3d, gpu);
    along = {{"width", now[0]}, {"height", now[1]}, {"depth", now[2]}};
  }
  // A Reynolds number named in the same call stays as named (Module::setParams).
  if (before.getFloat("reynolds") == defaultReynolds(was3d, gpu))
    along.emplace_back("reynolds", defaultReynolds(!was3d, gpu));
  return along;
}

void LbmModule::setSize(const std::string& text) {
  const std::vector<std::string> parts = sizeSides(text);
  if (parts.size() > 3) throw InputError("--size '" + text + "': expected N, WxH or WxHxD");
  sizeChosen_ = true;
  const bool is3d = params().getText("lattice") == "d3q19";
  std::vector<std::pair<std::string, ParamValue>> values = {
      {"width", params().parse("width", parts[0])},
      {"height", params().parse("height", parts.size() > 1 ? parts[1] : parts[0])}};
  if (parts.size() == 3 || (parts.size() == 1 && is3d))
    values.emplace_back("depth", params().parse("depth", parts.back()));
  setParams(values);
}

std::vector<KernelVariant> LbmModule::variants(Backend) const {
  return describe(storageCatalog());
}

double LbmModule::bytesPerWorkUnit() const {
  return bytesPerCellUpdate(spec_.lattice, entryNamed(storageCatalog(), variant()).how);
}

std::optional<OpModel> LbmModule::opsPerWorkUnit() const {
  // FP32 operations of a fluid cell's TRT collision without forcing, counted in lbm_cell.h
  // (FP16 storage computes in FP32 too). D2Q9: the moments 30, u^2 and the rest population 12,
  // each of the 4 pairs 25: 142. D3Q19: the moments 58, then 12, and 9 pairs of 26: 304.
  return OpModel{spec_.lattice == LatticeKind::D3Q19 ? 304.0 : 142.0, OpKind::Fp32};
}

std::vector<std::string> LbmModule::sweepSizes() const {
  if (spec_.lattice == LatticeKind::D3Q19) return {"16", "32", "64", "128", "256"};
  return {"64x32", "128x64", "256x128", "512x256", "1024x512", "2048x1024", "4096x2048"};
}

int LbmModule::splitAxis() const {
  const std::string& axis = params().getText("split_axis");
  if (axis == "auto") return spec_.lattice == LatticeKind::D3Q19 ? 2 : 1;
  return axis[0] - 'x';
}

std::array<int, 3> LbmModule::splitGrid() const {
  const std::string& text = params().getText("split_grid");
  if (text.empty()) return {0, 0, 0};
  return parseRankGrid(text);
}

void LbmModule::buildEngine() {
  const Variant v = entryNamed(storageCatalog(), variant()).how;
  const bool cuda = backend() == Backend::Cuda;
  const int block = std::stoi(params().getText("block"));
  if (ranks::count() > 1)
    engine_ = mpi::makeEngine(spec_.lattice, v, cuda ? gpuTimings_ : cpuTimings_,
                              {.axis = splitAxis(),
                               .overlap = params().getBool("split_overlap"),
                               .cudaBlock = cuda ? block : 0,
                               .peer = params().getBool("split_peer"),
                               .grid = splitGrid()});
  else if (cuda)
    engine_ = makeCudaEngine(spec_.lattice, v, block, gpuTimings_);
  else
    engine_ = makeCpuEngine(spec_.lattice, v, cpuTimings_);
  engine_->setParams(flow_.params);
  // What follows the engine's fields runs where they are: on the host for a lattice split over
  // ranks, which gathers them there.
  const bool onDevice = engine_->fieldsOnDevice();
  tracers_ = onDevice ? makeCudaTracers(*gpuTracerTiming_) : makeCpuTracers(*cpuTracerTiming_);
  isosurface_ = onDevice ? geometry::makeCudaIsosurface(*gpuSurfaceTiming_)
                         : geometry::makeCpuIsosurface(*cpuSurfaceTiming_);
  streamlines_ =
      onDevice ? makeCudaStreamlines(*gpuStreamTiming_) : makeCpuStreamlines(*cpuStreamTiming_);
  streamField_ = {};
}

void LbmModule::reset() {
  // An obstacle's file written since it was read is read again (a picture being drawn), checked
  // before anything changes.
  const auto changed = [](const std::string& name, const std::string& path, const auto& cache) {
    return !name.empty() && cache.first != fileVersion(path);
  };
  const std::string& mesh = params().getText("obstacle_mesh");
  const std::string& image = params().getText("obstacle_image");
  if ((spec_.obstacleMesh && changed(mesh, io::meshPathOf(mesh), meshCache_)) ||
      (spec_.obstacleImage && changed(image, io::maskPathOf(image), imageCache_))) {
    FlowSpec spec = specFromParams();
    flow_ = describeFlow(spec);
    spec_ = std::move(spec);
  }
  const Grid& g = spec_.grid;
  // The cell types are built on the host on either backend (the CUDA engine keeps a copy too):
  // checked before the engine's storage is. The starting flow is set up where the lattice is.
  requireHostMemory(double(g.cells()) * 2, "the " + std::to_string(g.nx) + "x" +
                                               std::to_string(g.ny) + "x" + std::to_string(g.nz) +
                                               " lattice's scene");
  const Grid& held = engine_->grid();
  if (held.nx != g.nx || held.ny != g.ny || held.nz != g.nz) engine_->reshape(g);
  flags_ = sceneFlags(spec_);
  engine_->setFlags(flags_, 0, flags_.size());
  engine_->setParams(flow_.params);
  engine_->initialize(initialFlow(spec_));
  restart();
  cellTypesChanged();
  bodies_.clear();
  probeCount_ = 0;
  vtiFolder_.clear();  // a new run's VTI series goes into a folder of its own
  vtiStopped_.clear();
  series_.restart({});
  diverged_ = sawFastFlow_ = false;
  lastGood_.reset();
  lastSnapshotSeconds_ = -1e9;
  seedTracers();
  clearTimings();
}

TracerField LbmModule::tracerField() {
  const Plane pl = plane();
  TracerField field;
  field.moments = engine_->planeMomentsInPlace(pl);
  field.width = pl.width(spec_.grid);
  field.height = pl.height(spec_.grid);
  field.first = pl.firstComponent();
  field.second = pl.secondComponent();
  field.meanLife = float(params().getFloat("tracer_life"));
  return field;
}

void LbmModule::seedTracers() {
  const auto count = std::size_t(params().getInt("tracers"));
  if (count == 0 && tracers_->count() == 0) return;
  tracers_->seed(count, tracerField(), kTracerSeed);
}

void LbmModule::renderPoints(PointImage& points) {
  const int height = plane().height(spec_.grid);
  if (engine_->fieldsOnDevice()) return tracers_->draw(height, points);
  writeFromHost(points.data, 3 * points.count, points.onDevice, [&](float* out) {
    PointImage host{out, points.count, false};
    tracers_->draw(height, host);
  });
}

void LbmModule::pollTimings() {
  engine_->pollTimings();
  tracers_->pollTimings();
  isosurface_->pollTimings();
  streamlines_->pollTimings();
}

void LbmModule::drainTimings() {
  engine_->drainTimings();
  tracers_->drainTimings();
  isosurface_->drainTimings();
  streamlines_->drainTimings();
}

void LbmModule::cellTypesChanged() {
  monitorStale_ = true;
  cellTypesRevision_ = newSurfaceRevision();
}

bool LbmModule::showsVolume() const {
  return spec_.lattice == LatticeKind::D3Q19 && params().getText("display") == "isosurface";
}

std::optional<SurfaceScene> LbmModule::surfaceScene() const {
  if (!showsVolume()) return std::nullopt;
  const Grid& g = spec_.grid;
  SurfaceScene scene = boxScene(float(g.nx), float(g.ny), float(g.nz));
  scene.revision = cellTypesRevision_;
  scene.value = fieldViews()[0];  // the speed
  return scene;
}

void LbmModule::fixedSurface(std::vector<float>& vertices) {
  vertices = obstacleSurface(spec_.grid, flags_);
}

std::size_t LbmModule::surfaceTriangles() {
  const std::string& name = params().getText("iso_quantity");
  const VolumeQuantity quantity = name == "vorticity"     ? VolumeQuantity::Vorticity
                                  : name == "q-criterion" ? VolumeQuantity::QCriterion
                                                          : VolumeQuantity::Speed;
  const VolumeFields fields = engine_->volumeInPlace(quantity);
  streamField_ = {fields.moments, spec_.grid};
  if (name == "none") {
    surfaceLevel_ = 0;
    surfaceTriangles_ = 0;
    return 0;
  }
  const Grid& g = spec_.grid;
  geometry::ScalarGrid grid;
  grid.level = fields.quantity;
  grid.colour = fields.speed;
  grid.nx = g.nx, grid.ny = g.ny, grid.nz = g.nz;
  grid.origin[0] = grid.origin[1] = grid.origin[2] = 0.5f;  // cell centres
  surfaceLevel_ = float(params().getFloat("iso_level")) * fields.largest;
  surfaceTriangles_ = isosurface_->count(grid, surfaceLevel_);
  return std::min(surfaceTriangles_, kMaxSurfaceTriangles);
}

StreamSpec LbmModule::streamSpec() const {
  const Grid& g = spec_.grid;
  StreamSpec s;
  s.lines = int(params().getInt("streamlines"));
  if (s.lines == 0) return s;
  const double longest = std::max({g.nx, g.ny, g.nz});
  const double points = params().getFloat("stream_length") * longest / StreamSpec::kStep + 1;
  s.points = int(std::clamp(points, 2.0, double(kMaxStreamPoints / std::size_t(s.lines))));
  s.fromInlet = spec_.scene == Scene::Cylinder && params().getText("stream_seeds") == "inlet";
  return s;
}

std::size_t LbmModule::surfaceSegments() const {
  return surfaceScene() ? streamSpec().segments() : 0;
}

void LbmModule::renderSurface(SurfaceImage& image) {
  const bool device = engine_->fieldsOnDevice();
  if (params().getText("iso_quantity") != "none") {  // surfaceTriangles() counted them
    const std::size_t floats = image.triangles * 3 * kSurfaceVertexFloats;
    writeFromHost(image.vertices, floats, image.onDevice && !device, [&](float* out) {
      isosurface_->write(out, image.triangles, image.onDevice && device);
    });
  }
  const StreamSpec spec = streamSpec();
  if (streamField_.moments && image.segments == spec.segments() && image.segments > 0) {
    const std::size_t floats = image.segments * 2 * kLineVertexFloats;
    writeFromHost(image.lineVertices, floats, image.linesOnDevice && !device, [&](float* out) {
      streamlines_->trace(streamField_, spec, out, image.linesOnDevice && device);
    });
  }
  streamField_ = {};  // the engine's moments are good until it next changes
}

void LbmModule::advance(int count) {
  if (diverged_)
    throw InputError(
        "The flow diverged; use 'restore last good state' or reset before running "
        "on.");
  keepSnapshot();  // the state it starts from is finite
  if (monitorStale_) updateMonitor();
  // In stretches that end at the VTI series' steps, so that each file holds the flow of its step.
  const auto every = std::uint64_t(params().getInt("vti_every"));
  std::uint32_t status = 0;
  for (std::uint64_t at = stepCount(), end = at + std::uint64_t(count); at < end;) {
    const std::uint64_t stretch = every ? std::min(end - at, every - at % every) : end - at;
    engine_->step(int(stretch));
    at += stretch;
    if (every && at % every == 0) {
      status |= engine_->takeStatus();
      if (!(status & kStatusNonFinite)) writeVtiFrame(at);
    }
  }
  series_.append(stepCount() + 1, engine_->takeRecords());
  status |= engine_->takeStatus();
  if (status & kStatusFast) sawFastFlow_ = true;
  if (status & kStatusNonFinite) {
    diverged_ = true;
    countSteps(std::uint64_t(count));  // they ran, though the run stops here
    throw InputError(
        "The flow diverged by step " + std::to_string(stepCount()) +
        " (density or velocity no longer finite), so the run is paused. Lower the Reynolds "
        "number or the velocity, refine the lattice or use TRT; then 'restore last good state' " +
        (lastGood_
             ? "(step " + std::to_string(lastGood_->meta.at("steps").get<std::uint64_t>()) + ")"
             : std::string("(none kept yet, or the lattice is too large to keep one)")) +
        " or reset.");
  }
  // The tracers move through the slice shown; the 3-D view of the whole lattice shows none (and
  // on a lattice split over ranks each advection would gather the slice for nothing).
  if (tracers_->count() && !showsVolume()) tracers_->advect(tracerField(), float(count));
}

void LbmModule::keepSnapshot() {
  const double bytes = double(spec_.grid.cells()) * (latticeQ(spec_.lattice) * 4 + 1);
  if (bytes > kSnapshotBytes) return;
  const double now = nowSeconds();
  if (now - lastSnapshotSeconds_ < kSnapshotSeconds) return;
  lastGood_ = saveState();
  lastSnapshotSeconds_ = now;
}

std::vector<Metric> LbmModule::metrics() {
  const Totals t = engine_->totals();
  std::vector<Metric> metrics = {{"mass", t.mass}, {"max speed", t.maxSpeed}};
  if (const std::optional<std::size_t> body = mainBody(); body && series_.rows()) {
    const std::size_t last = series_.rows() - 1;
    const double drag = series_.value(last, 3 * *body), lift = series_.value(last, 3 * *body + 1);
    // Not plotted frame by frame: curves() plots the coefficients step by step (a shedding period
    // can be a few frames' steps, which a plot of frames would alias).
    metrics.push_back({"drag", drag, false});
    metrics.push_back({"lift", lift, false});
    metrics.push_back({"Cd", forceCoefficient(spec_, flow_, drag), false});
    metrics.push_back({"Cl", forceCoefficient(spec_, flow_, lift), false});
    // Sound waves standing between the inlet and the outlet swing a settled flow's forces long
    // after it settles (the lift of the DFG benchmark by 16% at 80 cells across). Their longest
    // period is a quarter wave's, 4 nx / c_s steps (a velocity inlet reflects as a closed end, a
    // pressure outlet as an open one): over it they and their overtones average out.
    const auto span = std::uint64_t(std::ceil(4 * spec_.grid.nx * std::sqrt(3.0)));
    for (const auto& [name, column] : {std::pair{"Cd mean", 3 * *body}, {"Cl mean", 3 * *body + 1}})
      if (const std::optional<double> mean = meanOverLast(series_, column, span))
        metrics.push_back({name, forceCoefficient(spec_, flow_, *mean), false});
    if (const std::optional<Period> period = sheddingPeriod())
      metrics.push_back({"St", strouhal(*period), false});
  }
  if (const std::optional<Wake> w = wake()) {
    const double u = flow_.velocity;
    metrics.push_back({"dp/(rho U^2)", w->pressureDrop / (u * u), false});
    if (w->recirculation) metrics.push_back({"La/L", *w->recirculation / flow_.length, false});
  }
  return metrics;
}

std::optional<Wake> LbmModule::wake() {
  const std::vector<Cylinder> cylinders = sceneCylinders(spec_);
  if (spec_.scene != Scene::Cylinder || cylinders.empty()) return std::nullopt;  // a mesh alone
  const Cylinder& cylinder = cylinders.front();
  const RowSpan rows = wakeRows(spec_.grid, cylinder);
  if (!rows.count) return std::nullopt;
  const Plane middle{2, spec_.grid.nz / 2};
  return measureWake(spec_.grid, engine_->planeRows(middle, rows.first, rows.count), cylinder);
}

std::optional<std::size_t> LbmModule::mainBody() const {
  if (bodies_.empty()) return std::nullopt;
  // The first obstacle in the flow; the walls where there is none.
  return bodies_.size() > 1 && bodies_[0] == "walls" ? 1 : 0;
}

std::optional<Period> LbmModule::sheddingPeriod() const {
  const std::optional<std::size_t> body = mainBody();
  if (!body || bodies_[*body] == "walls") return std::nullopt;  // an obstacle's wake only
  // Faster than one period in L / U (a Strouhal number over 1) is no vortex street but a sound
  // wave or the lattice's own step-to-step swing as the flow starts.
  const std::optional<Period> period = findPeriod(series_, 3 * *body + 1);
  if (!period || strouhal(*period) > 1) return std::nullopt;
  return period;
}

double LbmModule::strouhal(const Period& period) const {
  return flow_.length / (period.steps * flow_.velocity);
}

void LbmModule::updateMonitor() {
  const std::vector<ForceLink> curved = params().getText("curved_walls") == "interpolated"
                                            ? curvedLinks(spec_, flags_)
                                            : std::vector<ForceLink>{};
  engine_->setBoundaryLinks(
      {curved, slipLinks(spec_.lattice, spec_.grid, flags_), openOutlets(spec_.grid, flags_)});
  Obstacles found;
  const std::string& which = params().getText("forces");
  if (which != "none") found = findObstacles(spec_.lattice, spec_.grid, flags_);
  if (which == "bodies" && found.names.size() > 1 && found.names[0] == "walls") {
    // Only the obstacles: the walls' links go.
    const std::uint32_t walls = found.linkStart[1];
    found.names.erase(found.names.begin());
    found.links.erase(found.links.begin(), found.links.begin() + walls);
    found.linkStart.erase(found.linkStart.begin());
    for (std::uint32_t& start : found.linkStart) start -= walls;
  }
  // The momentum exchange of a curved link counts its interpolated return.
  const auto before = [](const ForceLink& a, const ForceLink& b) {
    return a.cell != b.cell ? a.cell < b.cell : a.direction < b.direction;
  };
  for (ForceLink& link : found.links)
    if (const auto at = std::lower_bound(curved.begin(), curved.end(), link, before);
        at != curved.end() && !before(link, *at))
      link.q = at->q;
  Monitor monitor;
  monitor.links = std::move(found.links);
  monitor.linkStart = std::move(found.linkStart);
  std::vector<std::string> columns;
  for (const std::string& body : found.names)
    for (const char* axis : {"Fx", "Fy", "Fz"}) columns.push_back(body + " " + axis);
  const Grid& g = spec_.grid;
  int k = 0;
  for (const std::array<int, 3>& point : parseProbes(params().getText("probes"))) {
    const auto [x, y, z] = probeCell(g, point);
    monitor.probes.push_back(std::uint32_t((std::size_t(z) * g.ny + y) * g.nx + x));
    const std::string name = "probe " + std::to_string(++k);
    for (const char* quantity : {"rho", "ux", "uy", "uz"}) columns.push_back(name + " " + quantity);
  }
  engine_->setMonitor(monitor);
  if (columns != series_.columns()) series_.restart(columns);
  bodies_ = std::move(found.names);
  probeCount_ = monitor.probes.size();
  monitorStale_ = false;
}

std::string LbmModule::notes() const {
  std::string text = "Re " + fixed(flow_.reynolds, 1) + " on the " + flow_.velocityName + " " +
                     fixed(flow_.velocity, 4) + " over L = " + fixed(flow_.length, 1) + " cells (" +
                     flow_.lengthName + "), nu " + fixed(flow_.viscosity, 5) + ", tau " +
                     fixed(flow_.tau, 4) + ", Mach " + fixed(flow_.mach, 3) + "\n";
  if (const std::optional<std::size_t> body = mainBody();
      body && bodies_[*body] != "walls" && series_.rows()) {
    const std::string& name = bodies_[*body];
    const std::optional<Period> period = sheddingPeriod();
    text += period ? "St " + fixed(strouhal(*period), 4) + " from the lift on " + name + " over " +
                         std::to_string(period->periods) + " periods of " +
                         fixed(period->steps, 1) + " steps\n"
                   : "St: the lift on " + name + " is not periodic (yet)\n";
  }
  if (const SplitState* split = engine_->split()) text += splitNotes(*split);
  if (!bodies_.empty() && entryNamed(storageCatalog(), variant()).how.half)
    text +=
        "FP16 storage keeps each population to about 3 digits: the forces, the lift most, are "
        "far less exact than with FP32 at low speeds (DFG 2D-1: the lift up to a third off)\n";
  // Below these the bulk (TRT, BGK) or the velocity inlet tends to go unstable.
  const double tauFloor = spec_.scene == Scene::Cylinder ? 0.54 : spec_.trt ? 0.505 : 0.55;
  if (flow_.tau < tauFloor)
    text += "warning: tau " + fixed(flow_.tau, 4) + " is close to 1/2 for " +
            (spec_.trt ? "TRT" : "BGK") +
            ": the run may diverge; lower Re or the velocity, or refine the lattice\n";
  if (flow_.mach > 0.3)
    text += "warning: lattice Mach " + fixed(flow_.mach, 2) +
            " is above 0.3: compressibility errors grow; lower the velocity\n";
  if (sawFastFlow_)
    text += "warning: speeds above 0.3 cells/step appeared: the flow is near its limit\n";
  if (diverged_) text += "warning: the flow diverged; restore the last good state or reset\n";
  if (surfaceScene()) {
    if (params().getText("iso_quantity") == "none")
      text += "no isosurface (isosurface of: none)\n";
    else
      text += "isosurface of " + params().getText("iso_quantity") + " at " +
              fixed(surfaceLevel_, 6) + ": " + std::to_string(surfaceTriangles_) + " triangles\n";
    if (surfaceTriangles_ > kMaxSurfaceTriangles)
      text += "warning: only the first " + std::to_string(kMaxSurfaceTriangles) +
              " triangles of the isosurface are drawn; raise its level\n";
    const StreamSpec stream = streamSpec();
    if (stream.lines > 0)
      text += std::to_string(stream.lines) + " streamlines " +
              (stream.fromInlet ? "from the inlet" : "from seeds throughout the flow") +
              ", up to " + fixed((stream.points - 1) * StreamSpec::kStep, 0) + " cells each\n";
  }
  if (spec_.scene == Scene::Cylinder) {
    int k = 0;
    for (const Cylinder& c : spec_.cylinders) {
      ++k;
      if (c.x > spec_.grid.nx || c.y > spec_.grid.ny)
        text += "warning: cylinder " + std::to_string(k) + "'s centre (" + fixed(c.x, 1) + ", " +
                fixed(c.y, 1) + ") is outside the " + sizeText() + " lattice\n";
    }
  }
  if (!vtiFrames_.empty() && !vtiFolder_.empty())
    text += "VTI series: " + std::to_string(vtiFrames_.size()) + " files in " + vtiFolder_ +
            " (series.pvd)\n";
  if (!vtiStopped_.empty()) text += "warning: the VTI series stopped: " + vtiStopped_ + "\n";
  if (!lastExport_.empty()) text += "wrote " + lastExport_ + "\n";
  return text;
}

Plane LbmModule::plane() const {
  Plane p;
  if (spec_.grid.nz == 1) return p;
  const std::string axis = params().getText("slice_axis");
  p.axis = axis == "x" ? 0 : axis == "y" ? 1 : 2;
  const int extent = p.axis == 0 ? spec_.grid.nx : p.axis == 1 ? spec_.grid.ny : spec_.grid.nz;
  p.index = std::clamp(int(params().getFloat("slice") * extent), 0, extent - 1);
  return p;
}

WorldBox LbmModule::world() const {
  const Plane p = plane();
  return {0, 0, double(p.width(spec_.grid)), double(p.height(spec_.grid))};
}

std::string LbmModule::sizeText() const {
  const Grid& g = spec_.grid;
  std::string text = std::to_string(g.nx) + 'x' + std::to_string(g.ny);
  if (g.nz > 1) (text += 'x') += std::to_string(g.nz);
  return text;
}

std::vector<FieldView> LbmModule::fieldViews() const {
  const float u = float(spec_.velocity);
  const float vorticity = float(u / flow_.length * (spec_.scene == Scene::Cavity ? 20 : 4));
  const float drho = 2 * u * u;
  return {{"speed", "|u| (cells/step)", 0, 1.5f * u, "viridis"},
          {"vorticity", "vorticity (1/step)", -vorticity, vorticity, "coolwarm"},
          {"density", "density", 1 - drho, 1 + drho, "inferno"}};
}

int LbmModule::currentFieldView() const {
  const std::string& view = params().getText("view");
  return view == "vorticity" ? 1 : view == "density" ? 2 : 0;
}

void LbmModule::renderField(const FieldRequest& request, FieldImage& image) {
  engine_->render(LbmView(currentFieldView()), plane(), request, image);
}

std::array<double, 4> LbmModule::probe() const {
  const Plane pl = plane();
  const double w = pl.width(spec_.grid) - 1, h = pl.height(spec_.grid) - 1;
  const auto drawn = parseProbe(params().getText("probe"));
  if (!drawn) return {std::floor(0.5 * w), 0, std::floor(0.5 * w), h};
  std::array<double, 4> ends = *drawn;
  for (int k = 0; k < 4; ++k) ends[k] = std::clamp(ends[k], 0.0, k % 2 ? h : w);
  return ends;
}

std::string LbmModule::splitNotes(const SplitState& split) const {
  // The axes split and the parts along each; a rank's place along them, x fastest.
  std::vector<int> axes;
  int ranks = 1;
  for (int a = 0; a < 3; ++a) {
    const int parts = int(split.first[a].size()) - 1;
    ranks *= parts;
    if (parts > 1) axes.push_back(a);
  }
  std::string text = "the lattice is split over " + std::to_string(ranks) + " ranks";
  const std::string sent = split.overlapped ? "while the rest steps" : "after the step";
  if (axes.size() == 1)
    text += std::string(" along ") + "xyz"[axes[0]] +
            " (MPI processes): a slab each, its border layers stepped first and its halo sent " +
            sent;
  else
    text += " in a grid of " + std::to_string(split.first[0].size() - 1) + "x" +
            std::to_string(split.first[1].size() - 1) + "x" +
            std::to_string(split.first[2].size() - 1) +
            " (MPI processes): a box each, its border stepped first and its halo sent to the "
            "ranks beside its faces and edges " +
            sent;
  if (backend() == Backend::Cuda && split.peer)
    text += ", written from GPU to GPU (CUDA IPC)";
  else if (backend() == Backend::Cuda)
    text +=
        std::string(", staged through pinned host memory (this MPI library is ") +
        (ranks::cudaAware() ? "CUDA-aware, which warpscope does not use yet)" : "not CUDA-aware)");
  if (split.ranks.empty() || split.stepMs <= 0) return text + "\n";
  text += "; a step:\n";
  int slowest = 0;  // the rank with the most work of its own, whom the others wait for
  const auto work = [](const SplitState::Rank& t) { return t.borderMs + t.insideMs + t.packMs; };
  for (int r = 0; r < ranks; ++r) {
    const SplitState::Rank& t = split.ranks[r];
    text += "  rank " + std::to_string(r);
    for (int k = r, a = 0; a < 3; k /= int(split.first[a].size()) - 1, ++a) {
      const int part = k % (int(split.first[a].size()) - 1);
      if (std::find(axes.begin(), axes.end(), a) != axes.end())
        text += std::string(", ") + "xyz"[a] + " " + std::to_string(split.first[a][part]) + "-" +
                std::to_string(split.first[a][part + 1] - 1);
    }
    text += ": border " + fixed(t.borderMs, 2) + " ms, inside " + fixed(t.insideMs, 2) +
            " ms, halo packing " + fixed(t.packMs, 2) + " ms, waiting " + fixed(t.waitMs, 2) +
            " ms (" + fixed(t.haloBytes / 1024, 1) + " KB sent)\n";
    if (work(t) > work(split.ranks[slowest])) slowest = r;
  }
  // Riesinger 2017, eq. 15.1: T = boundary + max(inner, communication). The slowest rank waits
  // for the halo alone (the others are ready before it): after the step, that is the whole
  // communication, and the model says what overlapping it would give; overlapped, it is the part
  // that the inside's update did not hide.
  const SplitState::Rank& t = split.ranks[slowest];
  const double exchange = t.packMs + t.waitMs;
  text += "slowest rank (" + std::to_string(slowest) + "): border " + fixed(t.borderMs, 2) +
          " + inside " + fixed(t.insideMs, 2) + " + halo " + fixed(exchange, 2) + " = " +
          fixed(t.borderMs + t.insideMs + exchange, 2) + " ms; measured " + fixed(split.stepMs, 2) +
          " ms\n";
  const std::string model = fixed(t.borderMs, 2) + " + max(" + fixed(t.insideMs, 2) + ", " +
                            fixed(exchange, 2) +
                            ") = " + fixed(t.borderMs + std::max(t.insideMs, exchange), 2) + " ms";
  if (split.overlapped)
    return text + "eq. 15.1, T = border + max(inside, communication) = " + model +
           " (the communication is hidden where the slowest rank's waiting is near 0)\n";
  return text + "eq. 15.1 with the halo sent while the inside steps: " + model + "\n";
}

std::vector<Mark> LbmModule::marks() const {
  std::vector<Mark> marks;
  const float h = float(plane().height(spec_.grid));
  if (const SplitState* split = engine_->split()) {
    // The slabs' borders where the plane shown crosses them.
    const Plane p = plane();
    const int across = p.axis == 0 ? 1 : 0, up = p.axis == 2 ? 1 : 2;
    const float w = float(p.width(spec_.grid));
    for (std::size_t k = 1; k + 1 < split->first[across].size(); ++k) {
      const float at = float(split->first[across][k]);
      marks.push_back({at, 0, at, h, {0.3f, 0.9f, 1.0f}});
    }
    for (std::size_t k = 1; k + 1 < split->first[up].size(); ++k) {
      const float at = float(split->first[up][k]);
      marks.push_back({0, h - at, w, h - at, {0.3f, 0.9f, 1.0f}});
    }
  }
  if (!params().getText("probe").empty()) {
    // Cell centres in the view's coordinates (its y grows downwards, the plane's rows upwards).
    const auto [a0, b0, a1, b1] = probe();
    marks.push_back({float(a0) + 0.5f,
                     h - float(b0) - 0.5f,
                     float(a1) + 0.5f,
                     h - float(b1) - 0.5f,
                     {1.0f, 0.85f, 0.1f}});
  }
  for (const auto& [a, b] : probePointsInView()) {
    Mark point{a + 0.5f, h - b - 0.5f, a + 0.5f, h - b - 0.5f, {1.0f, 0.35f, 0.85f}};
    point.worldWidth = 1;
    marks.push_back(point);
  }
  return marks;
}

std::vector<Module::ViewLabel> LbmModule::viewLabels() const {
  std::vector<ViewLabel> labels;
  const double h = plane().height(spec_.grid);
  int k = 0;
  for (const auto& [a, b] : probePointsInView())
    labels.push_back({a + 1.5, h - b - 1.5, std::to_string(++k)});
  return labels;
}

std::vector<std::array<float, 2>> LbmModule::probePointsInView() const {
  // The probes in the plane shown, in its coordinates (a, b), from the parameter as it is now.
  std::vector<std::array<float, 2>> points;
  const Grid& g = spec_.grid;
  const Plane pl = plane();
  for (const std::array<int, 3>& point : parseProbes(params().getText("probes"))) {
    const std::array<int, 3> at = probeCell(g, point);
    if (g.nz > 1 && at[pl.axis] != pl.index) continue;
    const int a = pl.axis == 0 ? at[1] : at[0], b = pl.axis == 2 ? at[1] : at[2];
    points.push_back({float(a), float(b)});
  }
  return points;
}

std::vector<Curve> LbmModule::curves() const {
  // The latest rows, at most kShown points of them.
  constexpr std::size_t kLatest = 8192, kShown = 512;
  const std::size_t rows = series_.rows(), from = rows - std::min(rows, kLatest);
  const std::size_t every = std::max<std::size_t>(1, (rows - from + kShown - 1) / kShown);
  const auto column = [&](std::string name, auto&& value) {
    Curve curve{std::move(name), "step", {}};
    for (std::size_t r = from; r < rows; r += every) curve.values.push_back(float(value(r)));
    return curve;
  };
  std::vector<Curve> curves;
  if (const std::optional<std::size_t> body = mainBody()) {
    const std::string& name = bodies_[*body];
    for (int axis = 0; axis < 2; ++axis)
      curves.push_back(column((axis ? "Cl (" : "Cd (") + name + ")", [&](std::size_t r) {
        return forceCoefficient(spec_, flow_, series_.value(r, 3 * *body + axis));
      }));
  }
  const std::size_t probesFrom = 3 * bodies_.size();
  for (std::size_t k = 0; probesFrom + 4 * k + 3 < series_.columns().size(); ++k)
    curves.push_back(column("|u| (probe " + std::to_string(k + 1) + ")", [&](std::size_t r) {
      const std::size_t c = probesFrom + 4 * k;
      return std::hypot(series_.value(r, c + 1), series_.value(r, c + 2), series_.value(r, c + 3));
    }));
  return curves;
}

namespace {

// What an LBM edit changed: cells made walls or fluid, or a parameter (the probe line, the probe
// points).
struct LbmChange final : EditChange {
  std::vector<std::size_t> cells;
  bool solid = true;               // what the edit made of them
  std::string key, before, after;  // a probe edit's parameter and its text
  std::size_t bytes() const override {
    return cells.size() * sizeof(std::size_t) + before.size() + after.size();
  }
};

}  // namespace

std::unique_ptr<EditChange> LbmModule::edit(const PointerEdit& e) {
  const Plane pl = plane();
  const Grid& g = spec_.grid;
  const int w = pl.width(g), h = pl.height(g);
  if (e.tool == "probe") {
    // From where the drag began to the cell under the pointer, held to the plane (the view's y
    // grows downwards, the plane's rows upwards). A still pointer keeps the line.
    const auto cell = [&](double x, double y) {
      return std::array<double, 2>{std::clamp(std::floor(x), 0.0, double(w - 1)),
                                   double(h - 1) - std::clamp(std::floor(y), 0.0, double(h - 1))};
    };
    const bool drawn = !params().getText("probe").empty();
    const std::array<double, 4> current = probe();
    const std::array<double, 2> from =
        e.start || !drawn ? cell(e.fromX, e.fromY) : std::array{current[0], current[1]};
    const std::array<double, 2> to = cell(e.x, e.y);
    return changeParam("probe", probeText({from[0], from[1], to[0], to[1]}));
  }
  if (e.tool == "probe point") {
    if (!e.start) return nullptr;  // a click adds one; a drag does not add more
    const int a = std::clamp(int(std::floor(e.x)), 0, w - 1);
    const int b = h - 1 - std::clamp(int(std::floor(e.y)), 0, h - 1);
    const std::size_t n = pl.cell(g, a, b);
    std::string point = std::to_string(n % g.nx) + "," + std::to_string(n / g.nx % g.ny);
    if (g.nz > 1) point += "," + std::to_string(n / (std::size_t(g.nx) * g.ny));
    const std::string& probes = params().getText("probes");
    return changeParam("probes", probes.empty() ? point : probes + "; " + point);
  }
  if (e.tool != "draw" && e.tool != "erase") throw InputError("unknown tool '" + e.tool + "'");
  const int r = int(params().getInt("brush"));
  std::set<std::size_t> cells;
  // The stroke in the view's coordinates (y up), each cell then flipped into the plane's rows.
  for (auto [a, y] : lineCells(e.fromX, e.fromY, e.x, e.y, w, h, r))
    for (int db = -r, b = h - 1 - y; db <= r; ++db)
      for (int da = -r; da <= r; ++da) {
        const int ca = a + da, cb = b + db;
        if (da * da + db * db > r * r || ca < 0 || cb < 0 || ca >= w || cb >= h) continue;
        cells.insert(pl.cell(g, ca, cb));
      }
  auto change = std::make_unique<LbmChange>();
  change->solid = e.tool == "draw";
  change->cells = setCellTypes({cells.begin(), cells.end()}, change->solid);
  if (change->cells.empty()) return nullptr;
  return change;
}

std::unique_ptr<EditChange> LbmModule::changeParam(const std::string& key,
                                                   const std::string& text) {
  auto change = std::make_unique<LbmChange>();
  change->key = key;
  change->before = params().getText(key);
  setParam(key, text);
  change->after = params().getText(key);
  if (change->after == change->before) return nullptr;
  return change;
}

void LbmModule::revert(const EditChange& edit, bool redo) {
  const auto& change = dynamic_cast<const LbmChange&>(edit);
  if (!change.key.empty()) {
    setParam(change.key, redo ? change.after : change.before);
    return;
  }
  std::vector<std::size_t> cells = change.cells;
  std::erase_if(cells, [&](std::size_t n) { return n >= flags_.size(); });  // another lattice's
  setCellTypes(cells, redo ? change.solid : !change.solid);
}

std::vector<std::size_t> LbmModule::setCellTypes(const std::vector<std::size_t>& cells,
                                                 bool solid) {
  std::vector<std::size_t> changed, nowFluid;
  for (std::size_t n : cells) {
    const int type = flags_[n] & kTypeMask;
    if (solid && type == kFluid) {
      flags_[n] = kWall;
      changed.push_back(n);
    } else if (!solid && type == kWall) {
      flags_[n] = kFluid;
      changed.push_back(n);
      nowFluid.push_back(n);
    }
  }
  if (changed.empty()) return changed;
  cellTypesChanged();
  // Near-wall bits change within one cell of an edit (further through the periodic wrap, which
  // only edits at the domain's edge reach: then redo them all).
  const Grid& g = spec_.grid;
  const std::size_t reach = std::size_t(g.nx) * g.ny + g.nx + 1;
  const std::size_t lo = *std::min_element(changed.begin(), changed.end());
  const std::size_t hi = *std::max_element(changed.begin(), changed.end());
  bool atEdge = false;
  for (std::size_t n : changed) {
    const int x = int(n % g.nx), y = int(n / g.nx % g.ny), z = int(n / (std::size_t(g.nx) * g.ny));
    atEdge = atEdge || x == 0 || y == 0 || x == g.nx - 1 || y == g.ny - 1 ||
             (g.nz > 1 && (z == 0 || z == g.nz - 1));
  }
  const std::size_t first = atEdge || lo < reach ? 0 : lo - reach;
  const std::size_t last = atEdge ? g.cells() : std::min(g.cells(), hi + reach + 1);
  markNearWalls(g, flags_, first, last);
  engine_->setFlags(flags_, first, last - first);
  engine_->restCells(nowFluid);
  return changed;
}

std::vector<std::string> LbmModule::actions() const {
  return {"restore last good state", "export VTI", "export probe CSV", "export series CSV"};
}

void LbmModule::runAction(const std::string& action) {
  const std::string stem =
      "warpscope-lbm-" + params().getText("scene") + "-step" + std::to_string(stepCount());
  if (action == "restore last good state") {
    if (lastGood_) {
      const StateBlob good = *lastGood_;
      restoreState(good);
    } else {
      reset();
    }
    diverged_ = false;
  } else if (action == "export VTI") {
    exportVti(freshOutputPath(stem + ".vti"));
  } else if (action == "export probe CSV") {
    exportProbe(freshOutputPath(stem + "-probe.csv"));
  } else if (action == "export series CSV") {
    exportSeries(freshOutputPath(stem + "-series.csv"));
  } else {
    throw InputError("unknown action '" + action + "'");
  }
}

void LbmModule::writeVtiFrame(std::uint64_t step) {
  if (!vtiStopped_.empty()) return;
  if (vtiFolder_.empty()) {
    vtiFolder_ = freshOutputPath("warpscope-lbm-" + params().getText("scene") + "-vti");
    std::error_code error;
    std::filesystem::create_directory(vtiFolder_, error);
    if (error) {
      vtiStopped_ = "cannot make the folder " + vtiFolder_ + ": " + error.message();
      return;
    }
    vtiFrames_.clear();
  }
  // Never into a full disk: stop, saying why, while a frame and 2 GB more would still fit.
  const double frameBytes = double(spec_.grid.cells()) * (4 + 12 + 1) + 4096;
  std::error_code error;
  const std::filesystem::space_info space = std::filesystem::space(vtiFolder_, error);
  if (!error && double(space.available) < frameBytes + kVtiReserveBytes) {
    vtiStopped_ =
        "the disk holding " + vtiFolder_ + " has " + formatBytes(space.available) + " left";
    return;
  }
  if (vtiFrames_.size() >= kMaxVtiFrames) {
    vtiStopped_ = std::to_string(kMaxVtiFrames) + " files written, the most one series holds";
    return;
  }
  char name[40];
  std::snprintf(name, sizeof name, "step-%09llu.vti", static_cast<unsigned long long>(step));
  writeVti(vtiFolder_ + "/" + name, spec_.lattice, spec_.grid, flags_, flow_.params,
           engine_->exportState());
  vtiFrames_.push_back({step, name});
  // The index ParaView opens: every file with its step as its time.
  std::string pvd =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
      "byte_order=\"LittleEndian\">\n  <Collection>\n";
  for (const auto& [at, file] : vtiFrames_)
    pvd +=
        "    <DataSet timestep=\"" + std::to_string(at) + "\" part=\"0\" file=\"" + file + "\"/>\n";
  pvd += "  </Collection>\n</VTKFile>\n";
  writeWholeFile(vtiFolder_ + "/series.pvd", pvd, "the VTI series' index");
}

void LbmModule::exportVti(const std::string& path) {
  writeVti(path, spec_.lattice, spec_.grid, flags_, flow_.params, engine_->exportState());
  lastExport_ = path;
}

void LbmModule::exportProbe(const std::string& path) {
  const std::array<double, 4> ends = probe();
  const Plane pl = plane();
  writeProbeCsv(path, spec_.grid, pl, engine_->planeMoments(pl), ends.data());
  lastExport_ = path;
}

void LbmModule::exportSeries(const std::string& path) {
  // The series' columns are the bodies' forces, then the probes' moments (updateMonitor).
  const std::size_t bodies = bodies_.size(), probes = probeCount_;
  std::ofstream out(path);
  if (!out) throw InputError("cannot write '" + path + "'");
  const std::string notesNow = notes();  // its first line: Re and what it is based on
  out << "# warpscope LBM series, " << sizeText() << ": " << notesNow.substr(0, notesNow.find('\n'))
      << "\n# forces by momentum exchange in lattice units (per cell of depth in 2-D); "
         "coefficients 2F / (rho U^2 A); p = (rho - 1) / 3; every "
      << series_.spacing() << " steps\nstep";
  for (const std::string& body : bodies_)
    for (const char* column : {"Fx", "Fy", "Fz", "Cd", "Cl"}) out << ',' << body << ' ' << column;
  for (std::size_t k = 1; k <= probes; ++k)
    for (const char* column : {"rho", "ux", "uy", "uz", "p"})
      out << ",probe " << k << ' ' << column;
  out << '\n';
  out.precision(9);
  for (std::size_t r = 0; r < series_.rows(); ++r) {
    out << series_.step(r);
    for (std::size_t k = 0; k < bodies; ++k) {
      const double* f = &series_.value(r, 3 * k);
      out << ',' << f[0] << ',' << f[1] << ',' << f[2] << ','
          << forceCoefficient(spec_, flow_, f[0]) << ',' << forceCoefficient(spec_, flow_, f[1]);
    }
    for (std::size_t k = 0; k < probes; ++k) {
      const double* m = &series_.value(r, 3 * bodies + 4 * k);
      out << ',' << m[0] << ',' << m[1] << ',' << m[2] << ',' << m[3] << ',' << (m[0] - 1) / 3;
    }
    out << '\n';
  }
  if (!out) throw InputError("writing '" + path + "' failed");
  lastExport_ = path;
}

StateBlob LbmModule::saveState() {
  StateBlob state;
  const Grid& g = spec_.grid;
  state.meta = {{"lattice", params().getText("lattice")},
                {"nx", g.nx},
                {"ny", g.ny},
                {"nz", g.nz},
                {"steps", stepCount()}};
  const std::vector<float> populations = engine_->exportState();
  state.data.resize(flags_.size() + populations.size() * sizeof(float));
  std::memcpy(state.data.data(), flags_.data(), flags_.size());
  std::memcpy(state.data.data() + flags_.size(), populations.data(),
              populations.size() * sizeof(float));
  state.floatsFrom = flags_.size();
  return state;
}

void LbmModule::restoreState(const StateBlob& state) {
  const SavedState saved(state, "LBM");
  const Grid& g = spec_.grid;
  const auto lattice = saved.meta().find("lattice");
  if (lattice == saved.meta().end() || *lattice != params().getText("lattice") ||
      saved.count("nx", ~0u) != std::uint64_t(g.nx) ||
      saved.count("ny", ~0u) != std::uint64_t(g.ny) ||
      saved.count("nz", ~0u) != std::uint64_t(g.nz))
    saved.refuse("it is of another lattice or size than the parameters say");
  const std::size_t cells = g.cells(), q = std::size_t(latticeQ(spec_.lattice));
  saved.requireBytes(cells + cells * q * sizeof(float),
                     "a flag and " + std::to_string(q) + " populations a cell");
  for (std::size_t n = 0; n < cells; ++n)
    if ((state.data[n] & ~(kTypeMask | kNearWall)) != 0 ||
        (state.data[n] & kTypeMask) > kLastCellType)
      saved.refuse("cell " + std::to_string(n) + " has no cell type (flag " +
                   std::to_string(state.data[n]) + ")");
  const std::uint64_t steps = saved.steps();
  std::vector<float> populations =
      saved.floats(cells, cells * q, std::numeric_limits<float>::max());
  const Grid& held = engine_->grid();
  if (held.nx != g.nx || held.ny != g.ny || held.nz != g.nz) engine_->reshape(g);
  flags_.assign(state.data.begin(), state.data.begin() + std::ptrdiff_t(cells));
  engine_->setFlags(flags_, 0, cells);
  engine_->setParams(flow_.params);
  engine_->importState(populations, steps);
  setStepCount(steps);
  cellTypesChanged();
  seedTracers();
}

void LbmModule::applyParams(const std::vector<std::string>& changed) {
  // Read where they are used.
  if (std::all_of(changed.begin(), changed.end(), [](const std::string& key) {
        return key == "probe" || key == "display" || key == "iso_quantity" || key == "iso_level";
      }))
    return;
  if (anyOf(changed, {"vti_every"})) {  // a new series, in a folder of its own
    vtiFolder_.clear();
    vtiStopped_.clear();
  }
  if (std::all_of(changed.begin(), changed.end(), [](const std::string& key) {
        return key == "probes" || key == "forces" || key == "vti_every" || key == "curved_walls";
      })) {
    monitorStale_ = true;
    return;
  }
  // Check what the new values mean before changing anything.
  const FlowSpec spec = specFromParams();
  const Flow flow = describeFlow(spec);
  const bool latticeChanged = spec.lattice != spec_.lattice;
  const bool reshaped = spec.grid.nx != spec_.grid.nx || spec.grid.ny != spec_.grid.ny ||
                        spec.grid.nz != spec_.grid.nz;
  if (latticeChanged || reshaped ||
      anyOf(changed, {"scene", "cylinders", "sides", "inflow", "outflow", "obstacle_mesh",
                      "obstacle_image", "obstacle_place"})) {
    // The old engine keeps its state until the new lattice is in place: a size that does not fit
    // fails in reshape(), before anything is released.
    const FlowSpec oldSpec = spec_;
    const Flow oldFlow = flow_;
    std::unique_ptr<LbmEngine> oldEngine;
    try {
      spec_ = spec;
      flow_ = flow;
      if (latticeChanged) {
        oldEngine = std::move(engine_);
        buildEngine();
      }
      reset();
    } catch (...) {
      spec_ = oldSpec;
      flow_ = oldFlow;
      if (oldEngine) engine_ = std::move(oldEngine);
      throw;
    }
    return;
  }
  spec_ = spec;
  flow_ = flow;
  engine_->setParams(flow_.params);
  if ((anyOf(changed, {"block"}) && backend() == Backend::Cuda) ||
      (anyOf(changed, {"split_axis", "split_grid", "split_overlap", "split_peer"}) &&
       ranks::count() > 1)) {
    const StateBlob state = saveState();
    buildEngine();
    restoreState(state);
    clearTimings();
  } else if (anyOf(changed, {"tracers", "slice", "slice_axis"})) {
    seedTracers();
  }
}

void LbmModule::applySelection(Backend, const StateBlob& state) {
  buildEngine();
  restoreState(state);
}

}  // namespace ws::lbm
