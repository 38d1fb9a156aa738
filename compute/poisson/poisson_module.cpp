#include "compute/poisson/poisson_module.h"

#include <algorithm>
#include <cmath>

#include "compute/core/errors.h"
#include "compute/core/format.h"
#include "compute/core/line.h"
#include "compute/core/saved_state.h"
#include "compute/poisson/poisson_cuda.h"

namespace ws::poisson {

namespace {

constexpr int kMaxSide = 16384;
// The coefficients a state may hold (the contrast setting's range, and room to draw past it).
constexpr double kLeastCoefficient = 1e-6, kMostCoefficient = 1e6;
constexpr std::size_t kLongestCurve = 4096;  // points of the residual's record kept

// What an edit setting `set` changed, as it was: the entries of `before` (what the nodes or cells
// held, in the same order) whose new value differs.
std::vector<NodeValue> changedOnly(const std::vector<NodeValue>& before,
                                   const std::vector<NodeValue>& set) {
  std::vector<NodeValue> changed;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (before[i].value != set[i].value) changed.push_back(before[i]);
  return changed;
}

// The sources problem: a source and a sink, Gaussian bumps of peak `strength` and width 0.05.
double sourcesAt(const Grid& g, int x, int y, int z, double strength) {
  const double h = g.spacing(), mid = g.dims == 3 ? z * h - 0.5 : 0;
  const auto bump = [&](double cx, double cy) {
    const double dx = x * h - cx, dy = y * h - cy;
    return std::exp(-(dx * dx + dy * dy + mid * mid) / (0.05 * 0.05));
  };
  return strength * (bump(0.3, 0.35) - bump(0.7, 0.65));
}

}  // namespace

PoissonModule::PoissonModule(Backend backend) : Module(backend) {
  const bool gpu = backend == Backend::Cuda;
  ParamSet& p = declare();
  p.declare(ParamSpec::choice("dimensions", "dimensions", "2-D", {"2-D", "3-D"},
                              "the unit square (2-D) or the unit cube (3-D)"));
  ParamSpec size = ParamSpec::integer("size", "cells a side", gpu ? 512 : 128, 4, kMaxSide,
                                      "n: the grid spacing is 1/n; (n - 1)^D unknowns");
  size.logScale = true;
  p.declare(size);
  p.declare(ParamSpec::choice(
      "stencil", "stencil", "finite-difference", {"finite-difference", "finite-element"},
      "finite-difference: 5 points (2-D) or 7 (3-D); finite-element: the bilinear (trilinear) "
      "element's 9 points (27), the source's"));
  p.declare(ParamSpec::choice(
      "precision", "precision", "float", {"float", "double"},
      "what u and f are held in: float (the source's) or double, twice the bytes, whose rounding "
      "lets the residual fall 10^9 times further"));
  p.declare(ParamSpec::choice("problem", "problem", "sine", {"sine", "sources", "drawn"},
                              "sine: the source's test, whose exact solution is known; sources: "
                              "a source and a sink; drawn: f = 0 until you draw it (reset)"));
  p.declare(ParamSpec::choice(
      "coefficient", "coefficient k", "1 everywhere", {"1 everywhere", "inclusion", "layers"},
      "-div(k grad u) = f with k constant on each cell: 1 everywhere (the Poisson equation), an "
      "inclusion (a disc or ball of radius 0.2 at the centre) or layers (below y = 0.5) of k = "
      "contrast; the coefficient brush draws k any time"));
  ParamSpec contrast = ParamSpec::real("contrast", "contrast (k)", 100, 1e-3, 1e3,
                                       "k in the inclusion or the layer, and what the "
                                       "coefficient brush paints");
  contrast.logScale = true;
  p.declare(contrast);
  p.declare(ParamSpec::choice(
      "stencils", "stencils", "constant", {"constant", "stored at every node"},
      "constant: the stencil's few weights, the same at every node; stored: a stencil a node read "
      "from memory each sweep (the source's variable stencils: 27 values a node for the 27-point "
      "one), needed where k varies, so taken then whatever this says"));
  p.declare(ParamSpec::real("omega", "omega (SOR)", 1.9, 0.05, 1.99,
                            "SOR's relaxation factor; the best for the sine problem is "
                            "2 / (1 + sin(pi / n))"));
  p.declare(ParamSpec::integer("pre_sweeps", "smoothing before", 2, 0, 8,
                               "multigrid: coloured Gauss-Seidel sweeps before the coarse "
                               "correction, on every level"));
  p.declare(ParamSpec::integer("post_sweeps", "smoothing after", 2, 0, 8,
                               "multigrid: sweeps after the coarse correction, on every level"));
  p.declare(ParamSpec::choice(
      "kernel", "CUDA kernel", "a thread a node",
      {"a thread a node", "shared-memory slices", "register columns", "both colours in one pass"},
      "how a coloured pass reads u on the GPU: a thread a node, neighbours through the caches; "
      "the source's, a block's slice with a halo staged in shared memory (in 3-D marching up "
      "z-blocking planes), which today's caches make slower; or, for 3-D red-black on the "
      "7-point stencil, a thread marching up its pair of columns keeping three planes in "
      "registers, or a block sweeping red and then black in its tile as it marches up (half "
      "the memory traffic of two passes, but no faster on an H200: more instructions an update, "
      "the red nodes around the tile computed twice, barriers every plane): compare them in the "
      "overlay"));
  ParamSpec zBlock = ParamSpec::integer(
      "z_block", "z-blocking (planes)", 32, 1, kMaxSide,
      "3-D, shared-memory slices, register columns and both colours in one pass: the planes a "
      "block marches up, keeping three (four); 1 loads three planes for each it updates");
  zBlock.logScale = true;
  p.declare(zBlock);
  p.declare(ParamSpec::choice(
      "pass_order", "pass order", "back and forth", {"back and forth", "one way"},
      "a thread a node: back and forth starts every other coloured pass's blocks at the grid's "
      "end, where the pass before ended, so that the first values it reads are still in the L2 "
      "cache (50 MiB on an H100, 60 on an H200: a third to a half of u and f at 256^3 in float); "
      "one way starts every pass at the first node, which the L2 has long since let go"));
  p.declare(ParamSpec::choice(
      "view", "view", "solution",
      {"solution", "error", "residual", "right-hand side", "colours", "coefficient"},
      "what the field shows: u, u minus the exact solution (sine), f - Au, f, each node's "
      "colour class, or log10 k"));
  p.declare(ParamSpec::real("slice", "slice position (z)", 0.5, 0, 1,
                            "3-D: the plane z shown and drawn on (0 to 1)"));
  p.declare(ParamSpec::integer("brush", "brush radius", 4, 0, 256,
                               "nodes around the pointer that the brush sets"));
  p.declare(ParamSpec::real("strength", "strength", 200, 0, 1e5,
                            "f where the brush paints (+ or -), and the sources' peak"));

  cpuTimings_ = {&addTiming("sweep (CPU)", "unknown updates/s", false),
                 &addTiming("view (CPU)", "pixels/s", false)};
  gpuTimings_ = {&addTiming("sweep (CUDA)", "unknown updates/s", true),
                 &addTiming("view (CUDA)", "pixels/s", true)};
  config_ = readPoissonConfig(params());
  config_.sweep = sweepFor(config_, variant());
  buildEngine();
  engine_->reshape(config_.grid);
  reset();
}

void PoissonModule::setSize(const std::string& text) {
  const auto caret = text.find('^');
  std::vector<std::string> sides = sizeSides(text.substr(0, caret));
  int dims = int(sides.size());
  if (caret != std::string::npos) {
    const std::string power = text.substr(caret);
    if (sides.size() != 1 || (power != "^2" && power != "^3"))
      throw InputError("a size is N, N^2, N^3, NxN or NxNxN");
    dims = power == "^3" ? 3 : 2;
  } else if (dims == 1) {
    dims = 2;
  }
  if (dims > 3) throw InputError("a size is N, N^2, N^3, NxN or NxNxN");
  for (const std::string& side : sides)
    if (side != sides[0])
      throw InputError("the grid covers the unit square (cube): every side has the same cells");
  setParams({{"dimensions", std::string(dims == 3 ? "3-D" : "2-D")},
             {"size", params().parse("size", sides[0])}});
}

std::vector<KernelVariant> PoissonModule::variants(Backend backend) const {
  return describe(poissonVariants(backend));
}

Sweep PoissonModule::sweepFor(const PoissonConfig& config, const std::string& variant) const {
  const Solver solver = entryNamed(poissonVariants(backend()), variant).how;
  Sweep s = config.sweep;
  s.method = solver.method;
  s.colours = coloursOf(solver.colouring, s.stencil, config.grid.dims);
  s.omega = variant == "sor" ? params().getFloat("omega") : 1.0;
  s.stored = storesStencils(config);
  if (s.method == Method::Multigrid && !multigridFits(config.grid.n))
    throw InputError(
        "multigrid halves the grid down to 2 cells a side: " + std::to_string(config.grid.n) +
        " cells a side does not halve that far "
        "(use a power of two, such as " +
        std::to_string(1 << int(std::round(std::log2(config.grid.n)))) + ")");
  if (s.method == Method::Multigrid && s.pre + s.post == 0)
    throw InputError("multigrid needs at least one smoothing sweep");
  return s;
}

void PoissonModule::buildEngine() {
  const PoissonTimings timings = backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_;
  engine_ = backend() == Backend::Cuda ? makeCudaEngine(config_.precision, timings)
                                       : makeCpuEngine(0, config_.precision, timings);
}

void PoissonModule::reset() {
  const Grid& g = engine_->grid();
  std::vector<double> u(g.nodes(), 0.0), f(g.nodes(), 0.0);
  const int zs = g.dims == 3 ? g.side() : 1;
  if (config_.problem != Problem::Drawn)
    for (int z = 0; z < zs; ++z)
      for (int y = 0; y < g.side(); ++y)
        for (int x = 0; x < g.side(); ++x)
          f[g.index(x, y, z)] = config_.problem == Problem::Sine
                                    ? sineRightHandSide(g, x, y, z)
                                    : sourcesAt(g, x, y, z, config_.strength);
  engine_->load(u, f);
  std::vector<double> k;
  if (config_.coefficient != Coefficient::Uniform) {
    k.assign(g.cells(), 1.0);
    const double h = g.spacing();
    for (int z = 0; z < (g.dims == 3 ? g.n : 1); ++z)
      for (int y = 0; y < g.n; ++y)
        for (int x = 0; x < g.n; ++x) {
          // The cell's centre, in the unit square (cube).
          const double cx = (x + 0.5) * h - 0.5, cy = (y + 0.5) * h - 0.5,
                       cz = g.dims == 3 ? (z + 0.5) * h - 0.5 : 0;
          const bool inside = config_.coefficient == Coefficient::Inclusion
                                  ? cx * cx + cy * cy + cz * cz < 0.2 * 0.2
                                  : cy < 0;
          if (inside) k[g.cell(x, y, z)] = config_.contrast;
        }
  }
  loadCoefficient(std::move(k));
  exact_ = config_.problem == Problem::Sine && uniformK_;
  restart();
  startRecord();
  startRace();
  clearTimings();
}

void PoissonModule::startRace() {
  // The race is recorded from its first sweep on: until then the solver's last race stands.
  racing_ = variant();
  raceStart_ = float(std::log10(std::max(last_.residual, 1e-30)));
  raceFresh_ = true;
}

void PoissonModule::newProblem() {
  races_.clear();
  racing_.clear();
  if (stepCount() == 0) startRace();  // still at u = 0 (a setting changed before the first sweep)
}

void PoissonModule::startRecord() {
  start_ = last_ = norms();
  factor_.reset();
  decades_.clear();
  recordFrom_ = stepCount();
  residualCurve_.clear();
}

void PoissonModule::advance(int count) {
  engine_->sweep(count, config_.sweep);
  record(stepCount() + count, count);
}

void PoissonModule::record(std::uint64_t sweepsNow, int sweeps) {
  const Norms previous = last_;
  last_ = norms();
  if (previous.residual > 0 && last_.residual > 0)
    factor_ = std::pow(last_.residual / previous.residual, 1.0 / sweeps);
  // (A residual of zero, as where f = 0 and u = 0, has no decades to fall.)
  while (last_.residual > 0 &&
         last_.residual <= start_.residual * std::pow(10.0, -double(decades_.size() + 1)))
    decades_.push_back(sweepsNow - recordFrom_);
  const float logResidual = float(std::log10(std::max(last_.residual, 1e-30)));
  residualCurve_.push_back(logResidual);
  if (residualCurve_.size() > kLongestCurve) residualCurve_.pop_front();
  if (racing_ == variant()) {
    if (raceFresh_) races_[racing_] = {{{0.0, raceStart_}}, 0.0};
    raceFresh_ = false;
    Race& race = races_[racing_];
    race.points.emplace_back(double(sweepsNow), logResidual);
    if (const double rate = stepTiming().stats().ratePerSecond; rate > 0) race.rate = rate;
    if (race.points.size() > kLongestCurve) {  // every other point of a long race
      std::vector<std::pair<double, float>> kept;
      for (std::size_t i = 0; i < race.points.size(); i += 2) kept.push_back(race.points[i]);
      race.points = std::move(kept);
    }
  }
}

std::vector<SeriesPlot> PoissonModule::seriesPlots() const {
  SeriesPlot bySweeps{"residual per sweep, from u = 0", "log10 sweeps", "log10 residual", {}};
  SeriesPlot byTime{"residual per time: convergence per second", "log10 ms", "log10 residual", {}};
  const double unknowns = double(grid().unknowns());
  for (const auto& [name, race] : races_) {
    SeriesPlot::Series sweeps{name, {}, {}},
        time{race.rate > 0 ? name : name + " (its rate is measured after a few steps)", {}, {}};
    for (const auto& [count, logResidual] : race.points) {
      if (count <= 0) continue;
      sweeps.x.push_back(float(std::log10(count)));
      sweeps.y.push_back(logResidual);
      if (race.rate <= 0) continue;
      time.x.push_back(float(std::log10(count * unknowns / race.rate * 1e3)));
      time.y.push_back(logResidual);
    }
    bySweeps.series.push_back(std::move(sweeps));
    byTime.series.push_back(std::move(time));
  }
  return {bySweeps, byTime};
}

std::vector<Metric> PoissonModule::metrics() {
  std::vector<Metric> m = {{"residual (rms)", last_.residual}};
  if (exact_) m.push_back({"error vs exact (rms)", last_.error});
  if (start_.residual > 0 && last_.residual > 0)
    m.push_back({"residual fallen (log10)", std::log10(start_.residual / last_.residual)});
  if (factor_) m.push_back({"factor a sweep", *factor_, false});
  m.push_back({"sweeps", double(stepCount() - recordFrom_), false});
  if (const auto fall = fallByAMillion()) {
    m.push_back({"sweeps to fall 10^6", fall->sweeps, false});
    if (const double ms = sweepingMs(fall->sweeps); ms > 0)
      m.push_back({"ms to fall 10^6", ms, false});
  }
  return m;
}

std::optional<PoissonModule::Fall> PoissonModule::fallByAMillion() const {
  if (decades_.size() >= 6) return Fall{double(decades_[5]), true};
  if (!factor_ || *factor_ >= 1 || start_.residual <= 0 || last_.residual <= 0 ||
      start_.residual * 1e-6 < roundingFloor())
    return std::nullopt;
  const double fallen = std::log10(start_.residual / last_.residual);
  return Fall{double(stepCount() - recordFrom_) + (6 - fallen) / -std::log10(*factor_), false};
}

double PoissonModule::sweepingMs(double sweeps) const {
  const TimingStats stats = stepTiming().stats();
  if (stats.samples == 0 || stats.ratePerSecond <= 0) return 0;
  return sweeps * double(grid().unknowns()) / stats.ratePerSecond * 1e3;
}

std::vector<Curve> PoissonModule::curves() const {
  return {{"log10 residual", "step (steps per frame sweeps each)", residualCurve_}};
}

std::string PoissonModule::configuration() const {
  return engine_->configuration(config_.sweep) +
         (config_.sweep.stored ? ", stencils stored at every node" : "");
}

std::string PoissonModule::notes() const {
  const Grid& g = grid();
  const double h = g.spacing(), pi = 3.14159265358979323846;
  std::string notes = std::to_string(g.unknowns()) + " unknowns, h = 1/" + std::to_string(g.n);
  if (config_.sweep.colours > 1) notes += ", " + std::to_string(config_.sweep.colours) + " colours";
  notes += "\n";
  if (!uniformK_)
    notes += "-div(k grad u) = f with k varying from cell to cell (set up or drawn)\n";
  if (config_.sweep.stored) {
    Sweep constant = sweepAsRun();
    constant.stored = false;
    const int dims = grid().dims;
    notes += "stencils stored at every node: " +
             std::to_string(storedValues(config_.sweep.stencil, dims)) +
             " values a node read each sweep, " + formatted(bytesPerWorkUnit(), "%.0f") +
             " bytes an update against " +
             formatted(bytesPerUpdate(constant, dims, config_.precision), "%.0f") +
             " with the constant stencil" +
             (uniformK_ ? "" : " (which k = 1 everywhere would allow)") + "\n";
  }
  if (factor_ && *factor_ >= 1)
    notes += "the residual no longer falls (x " + formatted(*factor_, "%.6f") + " a sweep" +
             (last_.residual < 10 * roundingFloor() ? ": it is at the precision's floor)" : ")");
  else if (factor_)
    notes += "the residual falls by " + formatted(*factor_, "%.6f") + " a sweep";
  else
    notes += "the residual's fall a sweep shows after the first step";
  if (exact_ && config_.sweep.stencil == Stencil::Compact)
    notes += " (model problem: Jacobi cos(pi h) = " + formatted(std::cos(pi * h), "%.6f") +
             ", Gauss-Seidel cos^2 = " + formatted(std::pow(std::cos(pi * h), 2), "%.6f") +
             ", SOR at the best omega " + formatted(2 / (1 + std::sin(pi * h)), "%.4f") + ")";
  notes += "\n";
  if (!decades_.empty()) {
    const std::uint64_t sweeps = decades_.back();
    notes += "residual down 10^" + std::to_string(decades_.size()) + " after " +
             std::to_string(sweeps) + " sweeps";
    if (const double ms = sweepingMs(double(sweeps)); ms > 0)
      notes += ": " + formatted(ms, "%.4g") + " ms at the measured sweep rate";
    notes += "\n";
  }
  if (const auto fall = fallByAMillion(); fall && !fall->measured) {
    notes += "down 10^6 after about " + formatted(fall->sweeps, "%.0f") + " sweeps";
    if (const double ms = sweepingMs(fall->sweeps); ms > 0)
      notes +=
          ", " + (ms < 1e3 ? formatted(ms, "%.3g") + " ms" : formatted(ms / 1e3, "%.3g") + " s");
    notes += ", predicted at the last factor a sweep\n";
  } else if (!fall && start_.residual * 1e-6 < roundingFloor()) {
    notes += "a fall of 10^6 is out of reach: it lies below the floor (see below)\n";
  }
  const bool single = config_.precision == Precision::Float;
  notes += std::string(single ? "float" : "double") + "'s floor: rounding u to " +
           (single ? "float" : "double") + " leaves a residual of order " +
           formatted(roundingFloor(), "%.0e") + (single ? " (1e-7" : " (2e-16") +
           " |u| n^2); no solver gets far below it\n";
  notes +=
      "Reset (or restart from zero) races the solver from u = 0: the plots keep each solver's "
      "last race on this problem\n";
  if (exact_)
    notes +=
        "the error against the exact solution stops falling at the discretization's, "
        "O(h^2): refine the grid to lower it\n";
  else
    notes += "f was drawn or is not the sine problem's: no exact solution to compare\n";
  return notes;
}

double PoissonModule::roundingFloor() const {
  // u held in float is off by up to half an ulp (6e-8 of |u|) at each node; the stencil turns such
  // errors into a few times that, and the residual divides it by h^2: about 1e-7 |u| n^2, which
  // is what the sine problem's solvers settle at in float (2e-4 at n = 64). Double: 2e-16.
  const double n = grid().n, ulps = config_.precision == Precision::Float ? 1e-7 : 2e-16;
  return std::max(ulps * last_.largest * n * n, 1e-300);
}

bool PoissonModule::applies(const std::string& key) const {
  if (key == "omega") return variant() == "sor";
  if (key == "pre_sweeps" || key == "post_sweeps") return variant() == "multigrid";
  if (key == "slice") return params().getText("dimensions") == "3-D";
  const Method method = config_.sweep.method;
  const bool coloured =
      backend() == Backend::Cuda && (method == Method::Coloured || method == Method::Multigrid);
  if (key == "kernel") return coloured;
  if (key == "pass_order") return coloured && params().getText("kernel") == "a thread a node";
  if (key == "z_block")
    return coloured && params().getText("kernel") != "a thread a node" &&
           params().getText("dimensions") == "3-D";
  return !key.empty();
}

Sweep PoissonModule::sweepAsRun() const {
  Sweep sweep = config_.sweep;
  if (backend() != Backend::Cuda) sweep.kernel = Kernel::ThreadANode;  // the CPU's one way
  return sweep;
}

double PoissonModule::bytesPerWorkUnit() const {
  return bytesPerUpdate(sweepAsRun(), grid().dims, config_.precision);
}

WorldBox PoissonModule::world() const {
  const double side = grid().side();
  return {0, 0, side, side};
}

std::string PoissonModule::sizeText() const {
  const Grid& g = grid();
  return std::to_string(g.n) + (g.dims == 3 ? "^3" : "^2");
}

std::vector<FieldView> PoissonModule::fieldViews() const {
  const float peak = float(std::max(last_.largest, 1e-6));
  const float error = float(std::max(2 * last_.error, 1e-9));
  const float residual = float(std::max(2 * last_.residual, 1e-12));
  const float f = exact_ ? float(grid().dims * 9.8696) : config_.strength;
  const float colours = float(std::max(config_.sweep.colours, 2) - 1);
  return {
      {"solution", "u", exact_ ? 0.0f : -peak, exact_ ? 1.0f : peak,
       exact_ ? "viridis" : "coolwarm"},
      {"error", exact_ ? "u - exact (2x its rms)" : "u - exact: none, f is not the sine problem's",
       -error, error, "coolwarm"},
      {"residual", "f - Au (2x its rms)", -residual, residual, "coolwarm"},
      {"right-hand side", "f", -f, f, "coolwarm"},
      {"colours", "colour class (the grid's 8-cell corner, magnified)", 0, colours, "viridis"},
      {"coefficient", "log10 k", -3, 3, "coolwarm"}};
}

int PoissonModule::currentFieldView() const {
  const std::string& view = params().getText("view");
  return view == "error"             ? 1
         : view == "residual"        ? 2
         : view == "right-hand side" ? 3
         : view == "colours"         ? 4
         : view == "coefficient"     ? 5
                                     : 0;
}

int PoissonModule::slice() const {
  // The parameters' plane, on the grid the engine holds (a restored state may hold another).
  const Grid& g = grid();
  return g.dims == 3 ? std::clamp(config_.slice, 0, g.n) : 0;
}

void PoissonModule::renderField(const FieldRequest& request, FieldImage& image) {
  static constexpr Quantity kShown[] = {Quantity::Solution, Quantity::Error,
                                        Quantity::Residual, Quantity::RightHandSide,
                                        Quantity::Colour,   Quantity::Coefficient};
  const Quantity quantity = kShown[currentFieldView()];
  engine_->render(quantity == Quantity::Error && !exact_ ? Quantity::None : quantity, config_.sweep,
                  slice(), request, image);
}

namespace {

// What a stroke changed: the values of f it set, as they were and as it left them.
struct PoissonChange final : EditChange {
  Grid grid;
  bool coefficient = false;    // the stroke set k on cells (else f on nodes)
  bool exactBefore = false;    // whether f was the sine problem's before the stroke
  bool uniformBefore = false;  // whether k was 1 everywhere before it
  std::vector<NodeValue> before, after;
  std::size_t bytes() const override { return (before.size() + after.size()) * sizeof(NodeValue); }
};

}  // namespace

std::unique_ptr<EditChange> PoissonModule::edit(const PointerEdit& e) {
  const std::vector<std::string> tools = this->tools();
  if (std::find(tools.begin(), tools.end(), e.tool) == tools.end())
    throw InputError("unknown tool '" + e.tool + "'");
  if (e.hasRay) return nullptr;
  const Grid& g = grid();
  const bool coefficient = e.tool.starts_with("coefficient");
  const double value = e.tool == "positive"      ? config_.strength
                       : e.tool == "negative"    ? -config_.strength
                       : e.tool == "coefficient" ? config_.contrast
                       : coefficient             ? 1.0
                                                 : 0.0;
  // f on the unknowns under the disc; k on the cells (cell x spans nodes x and x + 1, so half a
  // node from the pointer) of the slice's layer.
  const int r = config_.brush, side = coefficient ? g.n : g.side();
  const double shift = coefficient ? 0.5 : 0.0;
  const int first = coefficient ? 0 : 1, last = g.n - 1;
  const int layer = coefficient ? std::min(slice(), g.n - 1) : slice();
  std::vector<std::size_t> places;
  for (auto [x0, y0] :
       lineCells(e.fromX - shift, e.fromY - shift, e.x - shift, e.y - shift, side, side))
    for (int dy = -r; dy <= r; ++dy)
      for (int dx = -r; dx <= r; ++dx) {
        const int x = x0 + dx, y = y0 + dy;
        if (dx * dx + dy * dy > r * r || x < first || y < first || x > last || y > last) continue;
        places.push_back(coefficient ? g.cell(x, y, layer) : g.index(x, y, layer));
      }
  if (!coefficient && g.dims == 3 && (slice() < 1 || slice() >= g.n)) places.clear();  // boundary
  std::sort(places.begin(), places.end());
  places.erase(std::unique(places.begin(), places.end()), places.end());
  std::vector<NodeValue> set;
  set.reserve(places.size());
  for (std::size_t place : places) set.push_back({place, value});
  auto change = std::make_unique<PoissonChange>();
  change->grid = g;
  change->coefficient = coefficient;
  change->exactBefore = exact_;
  change->uniformBefore = uniformK_;
  change->before = coefficient ? setCoefficient(set) : setRightHandSide(set);
  if (change->before.empty()) return nullptr;
  for (const NodeValue& v : change->before) change->after.push_back({v.node, value});
  return change;
}

std::vector<NodeValue> PoissonModule::setRightHandSide(const std::vector<NodeValue>& nodes) {
  std::vector<NodeValue> changed = changedOnly(engine_->setRightHandSide(nodes), nodes);
  if (!changed.empty()) problemEdited();
  return changed;
}

std::vector<NodeValue> PoissonModule::setCoefficient(const std::vector<NodeValue>& cells) {
  const bool wasUniform = uniformK_;
  uniformK_ = false;
  chooseStorage();
  std::vector<NodeValue> before;
  try {
    before = engine_->setCoefficient(cells, config_.sweep);
  } catch (...) {
    uniformK_ = wasUniform;
    chooseStorage();
    throw;
  }
  problemEdited();
  return changedOnly(before, cells);
}

void PoissonModule::problemEdited() {
  exact_ = false;
  startRecord();
  newProblem();
}

void PoissonModule::loadCoefficient(std::vector<double> k) {
  uniformK_ = k.empty();
  chooseStorage();
  engine_->loadCoefficient(k, config_.sweep);
}

void PoissonModule::revert(const EditChange& edit, bool redo) {
  const auto& change = dynamic_cast<const PoissonChange&>(edit);
  const Grid& g = grid();
  if (change.grid.n != g.n || change.grid.dims != g.dims) return;
  if (!change.coefficient) {
    engine_->setRightHandSide(redo ? change.after : change.before);
  } else if (!redo && change.uniformBefore) {
    loadCoefficient({});  // k = 1 everywhere again: the constant stencils where so set
  } else {
    uniformK_ = false;
    chooseStorage();
    engine_->setCoefficient(redo ? change.after : change.before, config_.sweep);
  }
  exact_ = !redo && change.exactBefore;
  startRecord();
  newProblem();
}

void PoissonModule::runAction(const std::string& action) {
  if (action != "restart from zero") throw InputError("unknown action '" + action + "'");
  // u = 0 again with the right-hand side as it is (drawn strokes kept).
  const std::vector<double> f = engine_->rightHandSide();
  engine_->load(std::vector<double>(f.size(), 0.0), f);
  restart();
  startRecord();
  startRace();
}

StateBlob PoissonModule::saveState() {
  const Grid& g = grid();
  StateBlob state;
  const bool single = config_.precision == Precision::Float;
  state.meta = {
      {"size", g.n},     {"dimensions", g.dims},      {"steps", stepCount()},
      {"exact", exact_}, {"coefficient", !uniformK_}, {"precision", single ? "float" : "double"}};
  // u, f and (where it varies) k, in the engine's precision (a double state compares byte by
  // byte).
  std::vector<double> values = engine_->solution();
  const std::vector<double> f = engine_->rightHandSide();
  values.insert(values.end(), f.begin(), f.end());
  if (!uniformK_) {
    const std::vector<double> k = engine_->coefficient();
    values.insert(values.end(), k.begin(), k.end());
  }
  const auto append = [&](const auto& numbers) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(numbers.data());
    state.data.assign(bytes, bytes + numbers.size() * sizeof(numbers[0]));
  };
  if (single) {
    append(std::vector<float>(values.begin(), values.end()));
    state.floatsFrom = 0;
  } else {
    append(values);
  }
  return state;
}

void PoissonModule::restoreState(const StateBlob& state) {
  const SavedState saved(state, "Poisson");
  Grid g;
  g.n = int(saved.count("size", kMaxSide));
  g.dims = int(saved.count("dimensions", 3));
  if (g.n < 4) saved.refuse("its grid has fewer than 4 cells a side");
  if (g.dims < 2) saved.refuse("its grid is neither 2-D nor 3-D");
  const std::uint64_t steps = saved.steps();
  const auto exact = saved.meta().find("exact");
  if (exact == saved.meta().end() || !exact->is_boolean())
    saved.refuse("'exact' is missing or not true or false");
  const auto precision = saved.meta().find("precision");
  if (precision == saved.meta().end() || (*precision != "float" && *precision != "double"))
    saved.refuse("'precision' is missing or neither \"float\" nor \"double\"");
  const bool single = *precision == "float";
  const auto coefficient = saved.meta().find("coefficient");
  const bool varies =
      coefficient != saved.meta().end() && coefficient->is_boolean() && coefficient->get<bool>();
  if (coefficient != saved.meta().end() && !coefficient->is_boolean())
    saved.refuse("'coefficient' is not true or false");
  const std::size_t bytes = single ? sizeof(float) : sizeof(double);
  const std::size_t cells = varies ? g.cells() : 0;
  saved.requireBytes((2 * g.nodes() + cells) * bytes,
                     "u and f" + std::string(varies ? " and k" : "") + " on a grid of " +
                         std::to_string(g.n) + " cells a side");
  const auto read = [&](std::size_t from, std::size_t count, double bound) {
    if (!single) return saved.doubles(from * bytes, count, bound);
    const std::vector<float> values = saved.floats(from * bytes, count, float(bound));
    return std::vector<double>(values.begin(), values.end());
  };
  const std::vector<double> u = read(0, g.nodes(), 1e30), f = read(g.nodes(), g.nodes(), 1e30);
  const std::vector<double> k = read(2 * g.nodes(), cells, kMostCoefficient);
  for (std::size_t c = 0; c < k.size(); ++c)
    if (!(k[c] >= kLeastCoefficient))
      saved.refuse("the coefficient of cell " + std::to_string(c) + " is below " +
                   formatted(kLeastCoefficient, "%g"));
  if (g.n != grid().n || g.dims != grid().dims) engine_->reshape(g);
  engine_->load(u, f);
  loadCoefficient(k);
  setStepCount(steps);
  exact_ = exact->get<bool>();
  startRecord();
  racing_.clear();  // not from u = 0 (or not on this problem): no race
}

void PoissonModule::applyParams(const std::vector<std::string>& changed) {
  PoissonConfig next = readPoissonConfig(params());
  next.sweep = sweepFor(next, variant());
  const PoissonConfig previous = config_;
  config_ = next;
  chooseStorage();
  if (anyOf(changed, {"stencils", "stencil"})) {
    try {
      engine_->prepare(config_.sweep);  // the stored stencils, refused where they won't fit
    } catch (...) {
      config_ = previous;
      throw;
    }
  }
  if (anyOf(changed, {"stencils"})) clearTimings();
  if (anyOf(changed, {"kernel", "z_block", "pass_order"}))
    clearTimings();  // the overlay measures the new one
  if (anyOf(changed, {"precision"})) {
    // The engine of the other precision, holding the same state (rounded where it narrows).
    const StateBlob state = saveState();
    try {
      applySelection(backend(), state);
    } catch (...) {
      config_ = previous;
      applySelection(backend(), state);
      throw;
    }
    clearTimings();
    newProblem();
  }
  if (!anyOf(changed, {"dimensions", "size", "problem", "coefficient"}) &&
      !(anyOf(changed, {"strength"}) && config_.problem == Problem::Sources) &&
      !(anyOf(changed, {"contrast"}) && config_.coefficient != Coefficient::Uniform)) {
    if (anyOf(changed, {"stencil"})) {
      startRecord();  // another discrete problem: its residual is another
      clearTimings();
      newProblem();
    }
    return;
  }
  newProblem();
  const Grid& g = grid();
  if (g.n == config_.grid.n && g.dims == config_.grid.dims) {
    reset();
    return;
  }
  const StateBlob before = saveState();
  try {
    engine_->reshape(config_.grid);
    reset();
  } catch (...) {
    config_ = previous;
    restoreState(before);  // reshapes back where the new grid took
    throw;
  }
}

void PoissonModule::applySelection(Backend, const StateBlob& state) {
  // At u = 0 (no sweep since a reset) the solver chosen races from there.
  const bool atStart = !racing_.empty() && stepCount() == 0;
  config_.sweep = sweepFor(config_, variant());
  buildEngine();
  engine_->reshape(config_.grid);
  restoreState(state);
  if (atStart) startRace();
}

std::optional<OpModel> PoissonModule::opsPerWorkUnit() const {
  // An update: the stencil's neighbour sums (one add a neighbour), a multiply a class of
  // neighbours, the solve and the relaxation (3): 5-point 8, 9-point 13, 7-point 10, 27-point 32.
  const Grid& g = grid();
  const bool full = config_.sweep.stencil == Stencil::Full;
  const double neighbours = full ? (g.dims == 2 ? 8 : 26) : 2 * g.dims;
  const double classes = full ? (g.dims == 2 ? 2 : 3) : 1;
  const double update = neighbours + classes + 3;
  const Sweep& s = config_.sweep;
  if (s.method != Method::Multigrid) return OpModel{update, OpKind::Fp32};
  // A V-cycle a finest unknown: the smoothing and the residual on every level (each coarser one
  // 2^D times smaller), the restriction's 3^D multiply-adds a coarse node and the interpolation.
  const double coarse = 1.0 / (1 << g.dims);
  const double level = (s.pre + s.post + 1) * update + std::pow(3, g.dims) * coarse + 2;
  return OpModel{level / (1 - coarse), OpKind::Fp32};
}

std::vector<std::string> PoissonModule::sweepSizes() const {
  if (grid().dims == 3) return {"32^3", "64^3", "128^3", "256^3", "512^3"};
  return {"256", "512", "1024", "2048", "4096", "8192"};
}

}  // namespace ws::poisson
