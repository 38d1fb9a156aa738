#include "compute/cahn-hilliard/ch_module.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "compute/cahn-hilliard/ch_cuda.h"
#include "compute/core/errors.h"
#include "compute/core/format.h"
#include "compute/core/line.h"
#include "compute/core/saved_state.h"

namespace ws::ch {

namespace {

constexpr int kMaxSide = 1 << 16, kMaxDepth = 2048;

// A uniform value in [-1, 1) for cell n of the noise with this seed (splitmix64), the same on
// every machine and thread count.
double noiseAt(std::uint64_t seed, std::uint64_t n) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + n + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

}  // namespace

ChModule::ChModule(Backend backend) : Module(backend) {
  const bool gpu = backend == Backend::Cuda;
  ParamSet& p = declare();
  p.declare(ParamSpec::choice("dimensions", "dimensions", "2-D", {"2-D", "3-D"},
                              "a square (2-D) or a box (3-D) of cells, periodic on every side"));
  ParamSpec width =
      ParamSpec::integer("width", "width", gpu ? 1024 : 256, 4, kMaxSide, "cells along x");
  width.logScale = true;
  p.declare(width);
  ParamSpec height =
      ParamSpec::integer("height", "height", gpu ? 1024 : 256, 4, kMaxSide, "cells along y");
  height.logScale = true;
  p.declare(height);
  ParamSpec depth =
      ParamSpec::integer("depth", "depth (3-D)", gpu ? 128 : 48, 4, kMaxDepth, "cells along z");
  depth.logScale = true;
  p.declare(depth);
  p.declare(ParamSpec::choice(
      "integrator", "integrator", "RK2", {"RK2", "Euler"},
      "RK2: the source's two kernels a step (the midpoint rule); Euler: one, first order"));
  ParamSpec dt = ParamSpec::real("dt", "time step", 0.01, 1e-5, 0.1,
                                 "the time step; refused past the explicit stability limit");
  dt.logScale = true;
  p.declare(dt);
  ParamSpec mobility =
      ParamSpec::real("mobility", "mobility m", 1, 0.01, 10, "m: how fast concentration diffuses");
  mobility.logScale = true;
  p.declare(mobility);
  p.declare(ParamSpec::real("b", "b (well depth)", 1, 0.01, 10,
                            "b: -b phi in mu; with u the wells sit at phi = +-sqrt(b/u)"));
  p.declare(ParamSpec::real("u", "u (well walls)", 1, 0.01, 10, "u: +u phi^3 in mu"));
  p.declare(ParamSpec::real("K", "K (interface energy)", 1, 0.01, 10,
                            "K: the gradient energy; interfaces are about sqrt(2K/b) wide"));
  p.declare(ParamSpec::real("mean", "mean concentration", 0, -0.95, 0.95,
                            "the mixture (reset): 0 is 50/50 (labyrinths), -0.5 is 25/75 "
                            "(droplets of the minority phase)"));
  p.declare(ParamSpec::real("noise", "noise", 0.1, 0, 1,
                            "the initial fluctuations (reset): uniform in +-noise"));
  p.declare(ParamSpec::integer("seed", "seed", 1, 0, 2147483647, "the noise's seed (reset)"));
  p.declare(ParamSpec::choice("display", "3-D view", "slice", {"slice", "isosurface"},
                              "3-D: one slice of the grid (where draw and erase work), or the "
                              "interfaces phi = 0 in the box"));
  p.declare(ParamSpec::choice("slice_axis", "slice normal", "z", {"x", "y", "z"},
                              "3-D: the axis normal to the slice shown"));
  p.declare(ParamSpec::real("slice", "slice position", 0.5, 0, 1,
                            "3-D: where the slice lies along its axis (0 to 1)"));
  p.declare(ParamSpec::integer("brush", "brush radius", 4, 0, 256,
                               "cells around the pointer that draw and erase set"));
  p.declare(ParamSpec::choice("thread_shape", "thread shape", "rectangles",
                              {"rectangles", "strips"},
                              "A and C: blocks of 16x16 threads, or strips of 256x1 (the source's "
                              "comparison)"));
  p.declare(ParamSpec::boolean("constant_memory", "coefficients in __constant__", false,
                               "the kernels read m, b, u, K and dt from __constant__ memory "
                               "instead of their arguments"));
  p.declare(ParamSpec::choice(
      "pass_order", "pass order", "back and forth", {"back and forth", "one way"},
      "2-D fast path, widths a multiple of 4: back and forth runs every other pass's blocks "
      "from the grid's end, where the pass before ended, so that the first values it reads are "
      "still in the L2 cache (50 MiB on an H100, 60 on an H200; a 4096^2 field is 64 MiB); one "
      "way starts every pass at the grid's start, which the L2 has long since let go"));
  p.declare(ParamSpec::choice(
      "pass_sync", "pass sync", "neighbours", {"neighbours", "kernel launch"},
      "3-D fast path: how a pass waits for the one before. neighbours: the blocks stay on the GPU "
      "for up to 32 steps (one cooperative launch), each starting a pass as soon as the "
      "26 blocks around it have finished the one before, marching the other way, where the "
      "planes just written are still in the L2 cache; kernel launch: the source's grid-wide "
      "synchronization, a launch a pass, whose blocks all wait for the last block of the pass "
      "before and then start their marches at once"));

  cpuTimings_ = {&addTiming("step (CPU)", "cell updates/s", false),
                 &addTiming("view (CPU)", "pixels/s", false)};
  gpuTimings_ = {&addTiming("step (CUDA)", "cell updates/s", true),
                 &addTiming("view (CUDA)", "pixels/s", true)};
  cpuSurfaceTiming_ = &addTiming("isosurface (CPU)", "cubes/s", false);
  gpuSurfaceTiming_ = &addTiming("isosurface (CUDA)", "cubes/s", true);
  config_ = readChConfig(params());
  buildEngine();
  engine_->reshape(config_.shape);
  reset();
}

void ChModule::setSize(const std::string& text) {
  const auto caret = text.find('^');
  if (caret != std::string::npos && text.substr(caret) != "^3")
    throw InputError("a size is N, WxH, WxHxD or N^3");
  std::vector<std::string> parts = sizeSides(text.substr(0, caret));
  if (caret != std::string::npos) parts = {parts[0], parts[0], parts[0]};
  if (parts.size() == 1) parts.push_back(parts[0]);
  if (parts.size() > 3) throw InputError("a size is N, WxH, WxHxD or N^3");
  std::vector<std::pair<std::string, ParamValue>> values = {
      {"dimensions", std::string(parts.size() == 3 ? "3-D" : "2-D")},
      {"width", params().parse("width", parts[0])},
      {"height", params().parse("height", parts[1])}};
  if (parts.size() == 3) values.emplace_back("depth", params().parse("depth", parts[2]));
  setParams(values);
}

std::vector<KernelVariant> ChModule::variants(Backend backend) const {
  return describe(chVariants(backend));
}

void ChModule::buildEngine() {
  const MakeChEngine make = entryNamed(chVariants(backend()), variant()).how;
  engine_ = make(config_, backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_);
  isosurface_ = backend() == Backend::Cuda ? geometry::makeCudaIsosurface(*gpuSurfaceTiming_)
                                           : geometry::makeCpuIsosurface(*cpuSurfaceTiming_);
}

void ChModule::pollTimings() {
  engine_->pollTimings();
  isosurface_->pollTimings();
}

void ChModule::drainTimings() {
  engine_->drainTimings();
  isosurface_->drainTimings();
}

bool ChModule::showsSurface() const {
  return engine_->shape().nz > 1 && params().getText("display") == "isosurface";
}

std::optional<SurfaceScene> ChModule::surfaceScene() const {
  if (!showsSurface()) return std::nullopt;
  const Shape& s = engine_->shape();
  SurfaceScene scene = boxScene(float(s.nx), float(s.ny), float(s.nz));
  scene.revision = boxRevision_;  // no fixed surface: nothing to fetch again
  scene.value = {"laplacian", "lap phi on the interfaces (their curvature)", -0.1f, 0.1f,
                 "coolwarm"};
  return scene;
}

std::size_t ChModule::surfaceTriangles() {
  const Shape& s = engine_->shape();
  const ChEngine::Volume volume = engine_->volume();
  geometry::ScalarGrid grid;
  grid.level = volume.phi;
  grid.colour = volume.laplacian;
  grid.nx = s.nx, grid.ny = s.ny, grid.nz = s.nz;
  grid.origin[0] = grid.origin[1] = grid.origin[2] = 0.5f;  // cell centres
  surfaceTriangles_ = isosurface_->count(grid, 0.0f);
  return std::min(surfaceTriangles_, kMaxSurfaceTriangles);
}

void ChModule::renderSurface(SurfaceImage& image) {
  isosurface_->write(image.vertices, image.triangles, image.onDevice);
}

void ChModule::reset() {
  const Shape& s = engine_->shape();
  std::vector<float> phi(s.cells());
  const long long cells = (long long)phi.size();
#pragma omp parallel for schedule(static)
  for (long long n = 0; n < cells; ++n)
    phi[n] = float(config_.mean + config_.noise * noiseAt(config_.seed, std::uint64_t(n)));
  engine_->load(phi);
  time_ = 0;
  restart();
  startRecord();
  clearTimings();
}

void ChModule::startRecord() {
  lastTotals_ = engine_->totals(config_.k);
  initialMass_ = lastTotals_.mass;
  coarsening_.clear();
  sizeCurve_.clear();
  // The first recorded time at or after now: 10^(mark/10), from t = 1 on.
  nextMark_ = time_ < 1 ? 0 : int(std::ceil(10 * std::log10(time_) - 1e-9));
}

void ChModule::advance(int count) {
  // One engine call a step() (the timings count one sample each); the domain size is recorded
  // at the end of the call that passes each recorded time, at the time it ended.
  engine_->step(count, config_.k, config_.integrator);
  time_ += count * double(config_.k.dt);
  if (time_ >= std::pow(10.0, nextMark_ / 10.0) * (1 - 1e-12)) recordDomainSize();
}

void ChModule::recordDomainSize() {
  if (const double size = domainSize(engine_->totals(config_.k), engine_->shape()); size > 0) {
    coarsening_.emplace_back(std::log10(time_), std::log10(size));
    sizeCurve_.push_back(float(std::log10(size)));
  }
  nextMark_ = int(std::floor(10 * std::log10(time_) + 1e-9)) + 1;
}

std::optional<double> ChModule::coarseningExponent() const {
  // A least-squares line through the points of the last decade of time.
  if (coarsening_.size() < 6) return std::nullopt;
  const double last = coarsening_.back().first;
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : coarsening_) {
    if (x < last - 1 - 1e-9) continue;
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  if (n < 6) return std::nullopt;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

std::vector<Curve> ChModule::curves() const {
  return {{"log10 domain size", "recorded time (ten a decade of t)", sizeCurve_}};
}

std::vector<Metric> ChModule::metrics() {
  lastTotals_ = engine_->totals(config_.k);
  const double cells = double(engine_->shape().cells());
  std::vector<Metric> m = {{"mean phi", lastTotals_.mass / cells},
                           {"free energy per cell", lastTotals_.energy / cells}};
  if (const double size = domainSize(lastTotals_, engine_->shape()); size > 0)
    m.push_back({"domain size", size});
  m.push_back({"time", time_, false});
  if (const auto exponent = coarseningExponent())
    m.push_back({"coarsening exponent", *exponent, false});
  return m;
}

std::string ChModule::notes() const {
  const Shape& s = engine_->shape();
  std::string notes =
      "t = " + formatted(time_, "%.4g") + " after " + std::to_string(stepCount()) +
      " steps; stable up to dt = " + formatted(stableTimeStep(dimensionsOf(s), config_.k), "%.4g") +
      "\n";
  notes += "mass drift " +
           formatted((lastTotals_.mass - initialMass_) / double(s.cells()), "%.2e") +
           " per cell since the start or the last stroke\n";
  if (showsSurface()) {
    notes += "interfaces phi = 0: " + std::to_string(surfaceTriangles_) + " triangles\n";
    if (surfaceTriangles_ > kMaxSurfaceTriangles)
      notes += "warning: the view draws the first " + std::to_string(kMaxSurfaceTriangles) +
               " (a slab of the box); a smaller grid or later times show it whole\n";
  }
  if (const auto exponent = coarseningExponent())
    notes += "coarsening: domain size ~ t^" + formatted(*exponent, "%.3f") +
             " over the last decade (theory, Lifshitz-Slyozov: 1/3)\n";
  else
    notes +=
        "coarsening: the domain size is recorded at t = 1, 1.26, 1.58 ... (ten a decade); "
        "the exponent is fitted once a decade has points\n";
  return notes;
}

bool ChModule::applies(const std::string& key) const {
  const bool is3d = params().getText("dimensions") == "3-D";
  if (key == "depth" || key == "display") return is3d;
  if (key == "slice_axis" || key == "slice") return is3d && params().getText("display") == "slice";
  if (key == "thread_shape")
    return backend() == Backend::Cuda && (variant() == "global" || variant() == "texture");
  if (key == "constant_memory") return backend() == Backend::Cuda;
  if (key == "pass_order") return backend() == Backend::Cuda && variant() == "shuffle" && !is3d;
  if (key == "pass_sync") return backend() == Backend::Cuda && variant() == "shuffle" && is3d;
  return !key.empty();
}

WorldBox ChModule::world() const {
  const Shape& s = engine_->shape();
  return {0, 0, double(sliceWidth(s, config_.slice)), double(sliceHeight(s, config_.slice))};
}

std::string ChModule::sizeText() const {
  return shapeText(engine_->shape());
}

std::vector<FieldView> ChModule::fieldViews() const {
  const float well = std::sqrt(float(config_.k.b / config_.k.u));
  return {{"phi", "concentration phi", -well, well, "coolwarm"}};
}

void ChModule::renderField(const FieldRequest& request, FieldImage& image) {
  engine_->render(config_.slice, request, image);
}

namespace {

// What a stroke changed: the cells it set, as they were and as it left them, on a grid of this
// shape.
struct ChChange final : EditChange {
  Shape shape;
  std::vector<CellValue> before, after;
  std::size_t bytes() const override { return (before.size() + after.size()) * sizeof(CellValue); }
};

}  // namespace

std::unique_ptr<EditChange> ChModule::edit(const PointerEdit& e) {
  if (e.tool != "draw" && e.tool != "erase") throw InputError("unknown tool '" + e.tool + "'");
  if (e.hasRay) return nullptr;  // 3-D scenes are drawn on their slice
  const Shape& s = engine_->shape();
  const Slice& slice = config_.slice;
  const int w = sliceWidth(s, slice), h = sliceHeight(s, slice), r = config_.brush;
  const float value = e.tool == "draw" ? 1.0f : -1.0f;
  std::vector<std::size_t> cells;
  for (auto [i0, j0] : lineCells(e.fromX, e.fromY, e.x, e.y, w, h))
    for (int dj = -r; dj <= r; ++dj)
      for (int di = -r; di <= r; ++di) {
        const int i = i0 + di, j = j0 + dj;
        if (di * di + dj * dj > r * r || i < 0 || j < 0 || i >= w || j >= h) continue;
        const int x = slice.axis == 0 ? slice.index : i;
        const int y = slice.axis == 0 ? i : slice.axis == 1 ? slice.index : j;
        const int z = slice.axis == 2 ? slice.index : j;
        cells.push_back(s.index(x, y, z));
      }
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  std::vector<CellValue> set;
  set.reserve(cells.size());
  for (std::size_t n : cells) set.push_back({n, value});
  auto change = std::make_unique<ChChange>();
  change->shape = s;
  change->before = setCells(set);
  if (change->before.empty()) return nullptr;
  initialMass_ = engine_->totals(config_.k).mass;  // the stroke's mass is the user's
  for (const CellValue& c : change->before) change->after.push_back({c.cell, value});
  return change;
}

std::vector<CellValue> ChModule::setCells(std::vector<CellValue> cells) {
  std::vector<CellValue> before = engine_->setCells(cells);
  std::vector<CellValue> changed;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (before[i].value != cells[i].value) changed.push_back(before[i]);
  return changed;
}

void ChModule::revert(const EditChange& edit, bool redo) {
  const auto& change = dynamic_cast<const ChChange&>(edit);
  const Shape& s = engine_->shape();
  if (!sameShape(change.shape, s)) return;
  engine_->setCells(redo ? change.after : change.before);
  initialMass_ = engine_->totals(config_.k).mass;
}

void ChModule::runAction(const std::string& action) {
  if (action != "new noise") throw InputError("unknown action '" + action + "'");
  // A new start each time, reproducibly: the seed moves on.
  setParams({{"seed", (params().getInt("seed") + 1) % 2147483647}});
}

void ChModule::loadField(const std::vector<float>& phi) {
  if (phi.size() != engine_->shape().cells()) throw InputError("field size mismatch");
  engine_->load(phi);
  startRecord();
}

StateBlob ChModule::saveState() {
  const Shape& s = engine_->shape();
  StateBlob state;
  state.meta = {{"width", s.nx},        {"height", s.ny}, {"depth", s.nz},
                {"steps", stepCount()}, {"time", time_},  {"initial_mass", initialMass_}};
  const std::vector<float> phi = engine_->save();
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(phi.data());
  state.data.assign(bytes, bytes + phi.size() * sizeof(float));
  state.floatsFrom = 0;
  return state;
}

void ChModule::restoreState(const StateBlob& state) {
  const SavedState saved(state, "Cahn-Hilliard");
  Shape s;
  s.nx = int(saved.count("width", kMaxSide));
  s.ny = int(saved.count("height", kMaxSide));
  s.nz = int(saved.count("depth", kMaxDepth));
  if (s.nx < 4 || s.ny < 4 || s.nz < 1 || (s.nz > 1 && s.nz < 4))
    saved.refuse("its grid is smaller than 4 cells along a side");
  const std::uint64_t steps = saved.steps();
  const double time = saved.number("time", 0, 1e300, 0);
  const double mass = saved.number("initial_mass", -1e300, 1e300, 0);
  saved.requireBytes(s.cells() * sizeof(float),
                     "the concentrations of a " + shapeText(s) + " grid");
  const std::vector<float> phi = saved.floats(0, s.cells(), 1e6f);
  if (!sameShape(s, engine_->shape())) engine_->reshape(s);
  engine_->load(phi);
  setStepCount(steps);
  time_ = time;
  startRecord();
  initialMass_ = mass;
}

void ChModule::applyParams(const std::vector<std::string>& changed) {
  const ChConfig next = readChConfig(params());
  const int dimensions = dimensionsOf(next.shape);
  const double limit = stableTimeStep(dimensions, next.k);
  if (next.k.dt > limit)
    throw InputError("time step " + formatted(next.k.dt, "%.4g") + " is past the stability limit " +
                     formatted(limit, "%.4g") + " of this m, b and K in " +
                     std::to_string(dimensions) +
                     "-D: the finest ripples would grow without bound");
  const ChConfig previous = config_;
  config_ = next;
  try {
    applyConfig(changed);
  } catch (...) {
    config_ = previous;
    throw;
  }
}

void ChModule::applyConfig(const std::vector<std::string>& changed) {
  if (anyOf(changed, {"thread_shape", "constant_memory", "pass_order", "pass_sync"}) &&
      backend() == Backend::Cuda) {
    applySelection(backend(), saveState());  // the same kernel, built anew
    clearTimings();
  }
  if (anyOf(changed, {"dimensions", "width", "height", "depth"})) {
    if (!sameShape(engine_->shape(), config_.shape)) {
      const StateBlob before = saveState();
      try {
        engine_->reshape(config_.shape);
        reset();
      } catch (...) {
        restoreState(before);  // reshapes back where the new shape took
        throw;
      }
      return;  // reset() applied everything else
    }
  }
  if (anyOf(changed, {"mean", "noise", "seed"})) reset();
}

void ChModule::applySelection(Backend, const StateBlob& state) {
  buildEngine();
  engine_->reshape(config_.shape);
  restoreState(state);
}

std::optional<OpModel> ChModule::opsPerWorkUnit() const {
  // Counted in ch_stencil.h, per cell and pass (an FMA one operation): mu is the neighbour sum
  // (3 adds in 2-D, 5 in 3-D) and 4 more; the rate the same sum and 2; the update 1. A-D and the
  // CPU compute mu at the cell and each neighbour (5 or 7 times); the tiles once, the shuffles
  // once (1.5 times in 3-D, for the rows either side of a warp's). RK2 is two passes.
  const bool is3d = engine_->shape().nz > 1;
  const double mu = is3d ? 9 : 7, rate = is3d ? 7 : 5;
  const bool cuda = backend() == Backend::Cuda;
  const double times = cuda && variant() == "tiled"     ? 1
                       : cuda && variant() == "shuffle" ? (is3d ? 1.5 : 1)
                                                        : (is3d ? 7 : 5);
  const double pass = times * mu + rate + 1;
  return OpModel{pass * (config_.integrator == Integrator::RK2 ? 2 : 1), OpKind::Fp32};
}

std::vector<std::string> ChModule::sweepSizes() const {
  if (engine_->shape().nz > 1) return {"32^3", "64^3", "96^3", "128^3", "192^3", "256^3", "322^3"};
  return {"256", "512", "1024", "2048", "4096", "5792", "8192"};
}

}  // namespace ws::ch
