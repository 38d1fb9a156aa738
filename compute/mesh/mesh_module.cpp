#include "compute/mesh/mesh_module.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "compute/core/catalog.h"
#include "compute/core/device_buffer.h"
#include "compute/core/errors.h"
#include "compute/core/saved_state.h"

namespace ws::mesh {

namespace {

constexpr const char* kColourBy[] = {"smallest angle", "colour class", "distance moved",
                                     "off the surface"};
constexpr std::int64_t kMaxVertices = std::int64_t(1) << 24;

const std::vector<std::string> kShapes = {"sphere", "torus", "part", "plane"};

bool isShape(const std::string& name) {
  return std::find(kShapes.begin(), kShapes.end(), name) != kShapes.end();
}

std::string checkMeshOrShape(const std::string& name) {
  return checkMeshName(name, kShapes, "mesh");
}

// The procedural mesh `shape` of about `vertices` vertices.
TriangleMesh makeShape(const std::string& shape, double vertices, float jitter,
                       std::uint64_t seed) {
  if (shape == "sphere") {  // 10 * 4^levels + 2 vertices
    const int levels = std::clamp(
        int(std::lround(std::log(std::max(vertices - 2, 10.0) / 10) / std::log(4.0))), 0, 11);
    return jitteredSphere(levels, jitter, seed);
  }
  if (shape == "torus") {  // 3 across^2 vertices
    const int across = std::max(3, int(std::lround(std::sqrt(vertices / 3))));
    return jitteredTorus(3 * across, across, jitter, seed);
  }
  if (shape == "part")  // 888 n^2 + 2 vertices
    return cadPart(std::max(1, int(std::lround(std::sqrt(vertices / 888)))), jitter, seed);
  return planePatch(std::max(3, int(std::lround(std::sqrt(vertices)))), jitter, seed);
}

float meanEdge(const SurfaceMesh& m) {
  double sum = 0;
  for (std::size_t t = 0; t < m.triangles(); ++t)
    for (int k = 0; k < 3; ++k)
      sum +=
          length(m.positions[m.corners[3 * t + k]] - m.positions[m.corners[3 * t + (k + 1) % 3]]);
  return m.triangles() ? float(sum / double(3 * m.triangles())) : 1.0f;
}

MeshValue valueOf(const std::string& colourBy) {
  if (colourBy == kColourBy[1]) return MeshValue::ColourClass;
  if (colourBy == kColourBy[2]) return MeshValue::DistanceMoved;
  if (colourBy == kColourBy[3]) return MeshValue::OffSurface;
  return MeshValue::MinAngle;
}

// The methods, each one entry with the optimizer it runs.
VariantCatalog<Method> meshMethods(Backend backend) {
  const bool gpu = backend == Backend::Cuda;
  const std::vector<std::string> tuned =
      gpu ? std::vector<std::string>{"block", "alpha", "iterations", "precision", "per_branch"}
          : std::vector<std::string>{"alpha", "iterations", "precision", "per_branch"};
  return {
      {{"nelder-mead",
        gpu ? "Nelder-Mead per vertex (chapter 13)" : "Nelder-Mead per vertex, OpenMP",
        "Each vertex searches its tangent plane for the place that maximizes the smallest angle of "
        "its triangles: a 2-D Nelder-Mead search of up to 40 steps, each step evaluating the "
        "smallest angle of every incident triangle (read once into the thread's own memory), "
        "within alpha times the distance to its nearest neighbour. One thread per vertex, one "
        "launch per colour class. Arithmetic, and threads of a warp that stop after different "
        "numbers of steps or take different branches (divergence; 'evaluate per branch' shows "
        "what one evaluation for three branches saves), set the pace; the "
        "chapter's Tesla C2050 (2010) optimized 3.6 million vertices in 147.5 s, 40x its CPU.",
        tuned,
        "ch. 13 Table 13.1 (Tesla C2050, CUDA 3.0, 2010): Dragon, 3.6 M vertices, 147.5 s on the "
        "GPU against 5910.2 s on a Core i7 920 (40x); sweeps not stated"},
       Method::NelderMead},
      {{"laplacian", "Laplacian smoothing",
        "Each vertex moves to the centroid of its neighbours: one pass of a few reads and adds, "
        "the fast baseline. It rounds the mesh off as it smooths it: a sphere shrinks, corners of "
        "a part are cut (unless locked), and without the guards triangles can fold.",
        gpu ? std::vector<std::string>{"block"} : std::vector<std::string>{}},
       Method::Laplacian},
      {{"tangential", "tangential Laplacian smoothing",
        "The centroid's move without its part along the vertex's normal: the vertex slides along "
        "the surface instead of shrinking it. Cheap and good for even meshes, but it equalizes "
        "edge lengths rather than angles.",
        gpu ? std::vector<std::string>{"block"} : std::vector<std::string>{}},
       Method::Tangential},
  };
}

}  // namespace

MeshModule::MeshModule(Backend backend) : Module(backend) {
  const bool gpu = backend == Backend::Cuda;
  ParamSet& p = declare();
  ParamSpec mesh = ParamSpec::text(
      "mesh", "mesh", "sphere",
      "a procedural mesh (jittered sphere, torus, a part with sharp edges, a flat patch), a "
      "shipped mesh, or the path of an .obj, .ply or .off file",
      checkMeshOrShape);
  for (const std::string& shape : kShapes) mesh.suggestions.emplace_back("shape", shape);
  for (const std::string& name : shippedMeshes()) mesh.suggestions.emplace_back("mesh", name);
  p.declare(mesh);
  ParamSpec vertices = ParamSpec::integer(
      "vertices", "vertices (about)", gpu ? 163842 : 10242, 16, double(kMaxVertices),
      "of a procedural mesh: the sphere comes in steps of 4x, the others close to this");
  vertices.logScale = true;
  p.declare(vertices);
  p.declare(ParamSpec::real("jitter", "jitter", 0.35, 0, 0.9,
                            "how far a procedural mesh's vertices are moved along its surface, "
                            "as a fraction of an edge: the poor mesh to optimize; past about "
                            "0.35 some of the sphere's triangles fold, and a folded triangle "
                            "stays folded (unfolding it reverses its normal: the fold guard "
                            "refuses that too)"));
  p.declare(ParamSpec::integer("seed", "seed", 1, 0, 2147483647,
                               "of the jitter and of the Jones-Plassmann priorities"));
  p.declare(ParamSpec::choice("schedule", "schedule", "coloured", {"coloured", "all at once"},
                              "one colour class at a time (vertices of a class share no "
                              "triangle), or every vertex at once against the positions before: "
                              "neighbours then move together and the guards no longer hold"));
  p.declare(ParamSpec::choice("step", "one step is", "sweep", {"sweep", "class"},
                              "a sweep over every colour class, or one class (the next in turn)"));
  p.declare(ParamSpec::choice("colouring", "colouring", gpu ? "jones-plassmann" : "first-fit",
                              {"first-fit", "jones-plassmann"},
                              "first fit in vertex order on the CPU (the chapter's), or "
                              "Jones-Plassmann: random priorities, in parallel rounds (on the GPU "
                              "with the CUDA backend)"));
  p.declare(ParamSpec::real("alpha", "alpha (move bound)", 0.5, 0.05, 1,
                            "a vertex moves at most alpha times the distance to its nearest "
                            "neighbour in its tangent plane (Nelder-Mead)"));
  p.declare(ParamSpec::integer("iterations", "Nelder-Mead iterations", 40, 1, 200,
                               "at most, per vertex and pass"));
  ParamSpec tolerance = ParamSpec::real(
      "tolerance", "Nelder-Mead tolerance", 1e-6, 1e-9, 1e-2,
      "a search stops when its simplex's values (sin^2 of the smallest angle, close to the angle "
      "in radians near 30 to 45 degrees) differ by less");
  tolerance.logScale = true;
  p.declare(tolerance);
  p.declare(ParamSpec::boolean(
      "per_branch", "Nelder-Mead: evaluate per branch", false,
      "the textbook form of a search step: expansion, outside and inside contraction each "
      "evaluate the smallest angle in a branch of their own, so on the GPU the threads of a warp "
      "that chose differently wait for each other's evaluations (branch divergence); off, one "
      "evaluation at a place chosen first serves all three. Same places, same results"));
  p.declare(ParamSpec::choice("precision", "precision", "fp32", {"fp32", "fp64"},
                              "of the Nelder-Mead search's arithmetic (positions are stored in "
                              "fp32 either way, and the guards judge them so); fp64 costs more "
                              "on GPUs with few double-precision units"));
  p.declare(ParamSpec::boolean("keep_quality", "keep quality", true,
                               "refuse a move that lowers the vertex's smallest angle: the mesh's "
                               "smallest angle then never drops"));
  p.declare(ParamSpec::boolean("reject_folds", "reject folds", true,
                               "refuse a move that turns one of the vertex's triangles over (the "
                               "smallest angle alone cannot see it)"));
  p.declare(ParamSpec::boolean("project", "stay on the surface", true,
                               "put every move back onto the input surface (its closest point)"));
  p.declare(ParamSpec::real("feature_angle", "feature angle", 40, 0, 180,
                            "lock vertices on edges whose triangles meet at more than this many "
                            "degrees (0: lock none); boundary vertices are always locked"));
  p.declare(ParamSpec::choice("colour_by", "colour by", kColourBy[0],
                              {kColourBy[0], kColourBy[1], kColourBy[2], kColourBy[3]},
                              "the triangles' smallest angles, the vertices' colour classes, how "
                              "far each vertex moved, or how far it is from the input surface "
                              "(in mean edge lengths)"));
  p.declare(ParamSpec::boolean("wireframe", "wireframe", true, "draw the triangles' edges"));
  p.declare(ParamSpec::boolean("paths", "movement vectors", false,
                               "a line from each vertex's start to where it is now"));
  p.declare(ParamSpec::text("save_as", "save as", "optimized.ply",
                            "where the action 'save mesh' writes the mesh as it is now (.obj, "
                            ".ply as binary, or .off)",
                            [](const std::string& path) -> std::string {
                              try {
                                meshFormatOf(path);
                                return "";
                              } catch (const InputError& e) {
                                return e.what();
                              }
                            }));
  p.declare(ParamSpec::choice("block", "threads per block", "64",
                              {"32", "64", "128", "256", "512", "1024"},
                              "of the optimization kernels (one thread per vertex); smaller blocks "
                              "let the SMs refill sooner where searches end at different times "
                              "(64 ran a 3.6M-vertex sweep 14% faster than 128 on an H200)"));
  cpu_ = {&addTiming("pass (CPU)", "vertices/s", false),
          &addTiming("colouring (CPU)", "vertices/s", false, 0),
          &addTiming("angle statistics (CPU)", "triangles/s", false),
          &addTiming("mesh view (CPU)", "values/s", false)};
  gpu_ = {&addTiming("pass (CUDA)", "vertices/s", true),
          &addTiming("colouring (CUDA, host clock)", "vertices/s", false, 0),
          &addTiming("angle statistics (CUDA)", "triangles/s", true),
          &addTiming("mesh view (CUDA)", "values/s", true)};
  makeEngine();
  rebuild(params());
}

void MeshModule::makeEngine() {
  engine_ = backend() == Backend::Cuda
                ? makeCudaMeshEngine(gpu_, std::stoi(params().getText("block")))
                : makeCpuMeshEngine(cpu_);
  engineBackend_ = backend();
}

void MeshModule::setSize(const std::string& text) {
  setParam("vertices", params().parse("vertices", text));
}

std::vector<KernelVariant> MeshModule::variants(Backend backend) const {
  return describe(meshMethods(backend));
}

std::string MeshModule::configuration() const {
  const bool coloured = params().getText("schedule") == "coloured";
  return engine_->configuration() + ", " +
         (coloured ? std::to_string(engine_->classStart().size() - 1) + " colour classes"
                   : std::string("all vertices at once"));
}

OptimizeParams MeshModule::optimizeParams() const {
  OptimizeParams o;
  o.method = entryNamed(meshMethods(backend()), variant()).how;
  o.alpha = float(params().getFloat("alpha"));
  o.search.iterations = int(params().getInt("iterations"));
  o.search.tolerance = float(params().getFloat("tolerance"));
  o.search.perBranch = params().getBool("per_branch");
  o.precision = params().getText("precision") == "fp64" ? Precision::Double : Precision::Single;
  o.keepQuality = params().getBool("keep_quality");
  o.rejectFolds = params().getBool("reject_folds");
  return o;
}

void MeshModule::rebuild(const ParamSet& p) {
  const std::string name = p.getText("mesh");
  const std::uint64_t seed = std::uint64_t(p.getInt("seed"));
  TriangleMesh source;
  std::string words;
  if (isShape(name)) {
    source = makeShape(name, double(p.getInt("vertices")), float(p.getFloat("jitter")), seed);
    words = name + ", jitter " + p.format("jitter");
  } else {
    source = loadMesh(meshPathOf(name));
    words = std::filesystem::path(name).filename().string();
  }
  if (source.triangles.empty()) throw InputError("mesh '" + name + "' has no triangles");
  requireHostMemory(double(source.vertices.size()) * 200,
                    "a mesh of " + std::to_string(source.vertices.size()) + " vertices");
  auto start = std::make_unique<SurfaceMesh>(source);
  auto original = std::make_unique<SurfaceGrid>(start->positions, start->corners);
  const std::vector<std::uint8_t> locked =
      lockedVertices(*start, float(p.getFloat("feature_angle")));
  engine_->load(*start, locked, *original);  // throws, changing nothing, when it does not fit
  start_ = std::move(start);
  original_ = std::move(original);
  locked_ = locked;
  countLocks();
  source_ = words;
  edge_ = meanEdge(*start_);
  Vec3 lo = start_->positions[0], hi = lo;
  for (const Vec3& q : start_->positions) {
    lo = {std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z)};
    hi = {std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z)};
  }
  const Vec3 c = (lo + hi) * 0.5f;
  centre_[0] = c.x, centre_[1] = c.y, centre_[2] = c.z;
  extent_ = std::max(length(hi - lo) / 2, 1e-6f);
  // Unique across modules: a renderer that drew another module's mesh (one that may since have
  // been destroyed and another made at its address) never mistakes its corners for these.
  static std::atomic<std::uint64_t> revisions{0};
  revision_ = ++revisions;
  inspected_.reset();
  clearTimings();
  colour();
  startSummary_ = engine_->summarize();
  changed();
  startCurves();
  forgetCounts();
  setStepCount(0);
}

void MeshModule::changed() {
  summaryDue_ = true;
  inspection_.reset();
}

void MeshModule::startCurves() {
  minPerPass_.values = {summary().minDegrees};
  meanPerPass_.values = {float(summary().meanDegrees)};
}

void MeshModule::forgetCounts() {
  atLastMetrics_ = {};
  visited_ = visitedAtLastMetrics_ = stepsAtLastMetrics_ = 0;
  movesPerStep_ = iterationsPerVertex_ = 0;
}

void MeshModule::countLocks() {
  lockedCount_ = std::size_t(std::count(locked_.begin(), locked_.end(), 1));
}

void MeshModule::colour() {
  const CpuStopwatch watch;
  engine_->colour(params().getText("colouring") == "jones-plassmann"
                      ? ColouringMethod::JonesPlassmann
                      : ColouringMethod::FirstFit,
                  std::uint32_t(params().getInt("seed")));
  colouringMs_ = watch.elapsedMs();
  nextClass_ = 0;
}

void MeshModule::reset() {
  engine_->setPositions(start_->positions);
  nextClass_ = 0;
  changed();
  startCurves();
  forgetCounts();
  setStepCount(0);
  clearTimings();
}

void MeshModule::advance(int count) {
  const OptimizeParams o = optimizeParams();
  const bool project = params().getBool("project");
  const auto colours = std::uint32_t(engine_->classStart().size() - 1);
  std::vector<Pass> passes(std::size_t(std::max(count, 0)));
  for (Pass& pass : passes) {
    if (params().getText("schedule") != "coloured") {
      pass.kind = Pass::Kind::AllAtOnce;
    } else if (params().getText("step") == "class" && colours > 0) {
      pass = {Pass::Kind::Class, nextClass_};
      nextClass_ = (nextClass_ + 1) % colours;
    }
    visited_ += pass.kind == Pass::Kind::Class
                    ? engine_->classStart()[pass.colour + 1] - engine_->classStart()[pass.colour]
                    : start_->positions.size();
  }
  engine_->run(passes, o, project);
  changed();
  for (auto [curve, value] : {std::pair{&minPerPass_, summary().minDegrees},
                              std::pair{&meanPerPass_, float(summary().meanDegrees)}}) {
    curve->values.push_back(value);
    if (curve->values.size() > kCurveLength) curve->values.pop_front();
  }
}

const AngleSummary& MeshModule::summary() const {
  if (summaryDue_) {
    summary_ = engine_->summarize();
    summaryDue_ = false;
  }
  return summary_;
}

std::vector<Metric> MeshModule::metrics() {
  // The steps since the last call: their moves per step and iterations per vertex.
  const PassCounts counts = engine_->counts();
  if (stepCount() > stepsAtLastMetrics_ && visited_ > visitedAtLastMetrics_) {
    movesPerStep_ =
        double(counts.moved - atLastMetrics_.moved) / double(stepCount() - stepsAtLastMetrics_);
    iterationsPerVertex_ = double(counts.iterations - atLastMetrics_.iterations) /
                           double(visited_ - visitedAtLastMetrics_);
    atLastMetrics_ = counts;
    stepsAtLastMetrics_ = stepCount();
    visitedAtLastMetrics_ = visited_;
  }
  const AngleSummary& s = summary();
  return {{"smallest angle (degrees)", s.minDegrees},
          {"mean smallest angle (degrees)", s.meanDegrees},
          {"vertices moved per step", movesPerStep_},
          {"Nelder-Mead iterations per vertex", iterationsPerVertex_},
          {"colouring (ms)", colouringMs_}};
}

std::string MeshModule::notes() const {
  const Topology& t = start_->topology;
  std::string text = source_ + ": " + std::to_string(t.vertices) + " vertices, " +
                     std::to_string(start_->triangles()) + " triangles, " + t.summary();
  char line[240];
  std::snprintf(line, sizeof line,
                "\n%zu colours (%s, max degree %zu), %zu vertices locked\nsmallest angle %.2f "
                "degrees at the start, %.2f now",
                engine_->classStart().size() - 1, params().getText("colouring").c_str(),
                t.maxDegree(), lockedCount_, startSummary_.minDegrees, summary().minDegrees);
  text += line;
  if (summary().minDegrees < startSummary_.minDegrees - 1e-3f)
    text += "\nwarning: the smallest angle dropped below its start (guards off, or all at once)";
  if (!saved_.empty()) {
    text += "\nsaved to ";
    text += saved_;
  }
  if (const Inspection* in = inspection()) {
    text += '\n';
    text += describe(*in, optimizeParams());
    if (backend() == Backend::Cuda)
      text +=
          "\n(the inspector searches on the host; the GPU's search may round its way "
          "elsewhere)";
  }
  return text;
}

void MeshModule::runAction(const std::string& action) {
  if (action != "save mesh") return;
  const std::string path = params().getText("save_as");
  const std::vector<Vec3> now = engine_->positions();
  TriangleMesh out;
  out.vertices.reserve(now.size());
  for (const Vec3& p : now) out.vertices.push_back({p.x, p.y, p.z});
  for (std::size_t t = 0; t < start_->triangles(); ++t)
    out.triangles.push_back(
        {start_->corners[3 * t], start_->corners[3 * t + 1], start_->corners[3 * t + 2]});
  const MeshFormat format = meshFormatOf(path);
  saveMesh(out, path, format == MeshFormat::Ply ? MeshFormat::PlyBinary : format);
  saved_ = path;
}

void MeshModule::edit(const PointerEdit& e) {
  if (e.tool != "inspect" || !e.hasRay) return;
  const Vec3 origin = {e.origin[0], e.origin[1], e.origin[2]};
  const Vec3 direction = {e.direction[0], e.direction[1], e.direction[2]};
  inspected_ = pickVertex(engine_->positions(), start_->corners, origin, direction);
  inspection_.reset();
}

const Inspection* MeshModule::inspection() const {
  if (!inspected_) return nullptr;
  if (!inspection_) {
    // The search reads the vertex and its neighbours only: those, as they are now, over a copy of
    // the start made once (what other vertices hold there is never read).
    const std::uint32_t v = *inspected_;
    const Topology& t = start_->topology;
    std::vector<std::uint32_t> ring = {v};
    ring.insert(ring.end(), t.neighbourOf.begin() + t.neighbourStart[v],
                t.neighbourOf.begin() + t.neighbourStart[v + 1]);
    const std::vector<Vec3> now = engine_->positionsOf(ring);
    if (inspectedPositions_.size() != start_->positions.size())
      inspectedPositions_ = start_->positions;
    for (std::size_t i = 0; i < ring.size(); ++i) inspectedPositions_[ring[i]] = now[i];
    const MeshView view = {inspectedPositions_.data(), start_->corners.data(),
                           t.triangleStart.data(),     t.triangleOf.data(),
                           t.neighbourStart.data(),    t.neighbourOf.data()};
    inspection_ = inspectVertex(view, v, locked_[v] != 0, optimizeParams(),
                                params().getBool("project") ? original_.get() : nullptr);
  }
  return &*inspection_;
}

WorldBox MeshModule::world() const {
  return {centre_[0] - extent_, centre_[1] - extent_, centre_[0] + extent_, centre_[1] + extent_};
}

std::string MeshModule::sizeText() const {
  return std::to_string(start_->positions.size()) + " vertices";
}

std::optional<MeshScene> MeshModule::meshScene() const {
  MeshScene scene;
  scene.vertices = start_->positions.size();
  scene.triangles = start_->triangles();
  scene.revision = revision_;
  std::copy(centre_, centre_ + 3, scene.centre);
  scene.extent = extent_;
  const std::string& by = params().getText("colour_by");
  switch (valueOf(by)) {
    case MeshValue::MinAngle:
      scene.value = {"smallest angle", "smallest angle of each triangle (degrees)", 0, 60,
                     "viridis"};
      break;
    case MeshValue::ColourClass:
      scene.categories = int(engine_->classStart().size() - 1);
      scene.value = {"colour class", "colour class of each vertex", 0,
                     float(std::max(scene.categories - 1, 1)), "categories"};
      scene.values = MeshScene::Values::PerVertexRegion;
      break;
    case MeshValue::DistanceMoved:
      scene.value = {"distance moved", "distance from the start (mean edges)", 0, 0.5f, "inferno"};
      scene.values = MeshScene::Values::PerVertex;
      break;
    case MeshValue::OffSurface:
      scene.value = {"off the surface", "distance from the input surface (mean edges)", 0, 0.05f,
                     "inferno"};
      scene.values = MeshScene::Values::PerVertex;
      break;
  }
  scene.wireframe = params().getBool("wireframe");
  scene.paths = params().getBool("paths");
  if (const Inspection* in = inspection()) scene.lines = inspectorLines(*in, edge_);
  return scene;
}

void MeshModule::meshTopology(std::vector<std::uint32_t>& corners,
                              std::vector<float>& start) const {
  corners = start_->corners;
  start.resize(3 * start_->positions.size());
  std::memcpy(start.data(), start_->positions.data(), start.size() * sizeof(float));
}

void MeshModule::renderMesh(MeshImage& image) {
  engine_->render(valueOf(params().getText("colour_by")), edge_, image);
}

std::vector<Histogram> MeshModule::histograms() const {
  Histogram h{"triangles by smallest angle (%)", {}, {}, "at the start", {}};
  const double total = double(std::max<std::size_t>(start_->triangles(), 1));
  for (int b = 0; b < kAngleBins; ++b) {
    h.labels.push_back(std::to_string(int(b * kAngleBinDegrees)) + "-" +
                       std::to_string(int((b + 1) * kAngleBinDegrees)));
    h.values.push_back(float(100.0 * summary().histogram[b] / total));
    h.reference.push_back(float(100.0 * startSummary_.histogram[b] / total));
  }
  return {h};
}

StateBlob MeshModule::saveState() {
  const std::vector<Vec3> now = engine_->positions();
  StateBlob state;
  state.meta = {{"steps", stepCount()}, {"vertices", now.size()}, {"next_class", nextClass_}};
  state.data.resize(now.size() * sizeof(Vec3));
  std::memcpy(state.data.data(), now.data(), state.data.size());
  state.floatsFrom = 0;
  return state;
}

void MeshModule::restoreState(const StateBlob& state) {
  const SavedState saved(state, "mesh");
  const std::size_t vertices = start_->positions.size();
  if (const std::uint64_t said = saved.count("vertices", ~std::uint64_t(0)); said != vertices)
    saved.refuse("it is of a mesh of " + std::to_string(said) + " vertices; this one has " +
                 std::to_string(vertices));
  saved.requireBytes(vertices * sizeof(Vec3), "the vertices' positions");
  const std::uint64_t steps = saved.steps();
  const std::size_t classes = engine_->classStart().size() - 1;
  const auto nextClass =
      std::uint32_t(saved.count("next_class", std::max<std::size_t>(classes, 1) - 1));
  // Smoothing keeps vertices near the mesh: a position a thousand times farther out than any
  // of the start's is none of its results.
  float extent = 1;
  for (const Vec3& p : start_->positions)
    for (float c : {p.x, p.y, p.z}) extent = std::max(extent, std::fabs(c));
  const std::vector<float> coordinates = saved.floats(0, 3 * vertices, 1000 * extent);
  std::vector<Vec3> positions(vertices);
  std::memcpy(positions.data(), coordinates.data(), state.data.size());
  engine_->setPositions(positions);
  forgetCounts();
  nextClass_ = nextClass;
  setStepCount(steps);
  stepsAtLastMetrics_ = stepCount();
  changed();
  startCurves();
  clearTimings();
}

void MeshModule::applyParams(const std::vector<std::string>& changed) {
  inspection_.reset();  // the search's parameters may have changed
  if (anyOf(changed, {"block"})) engine_->setBlock(std::stoi(params().getText("block")));
  if (anyOf(changed, {"mesh", "vertices", "jitter", "seed"})) {
    rebuild(params());  // throws changing nothing
    return;
  }
  if (anyOf(changed, {"feature_angle"})) {
    locked_ = lockedVertices(*start_, float(params().getFloat("feature_angle")));
    engine_->setLocked(locked_);
    countLocks();
  }
  if (anyOf(changed, {"colouring"})) colour();
}

void MeshModule::applySelection(Backend, const StateBlob& state) {
  if (engineBackend_ == backend()) return;  // another method: the state stays as it is
  makeEngine();
  engine_->load(*start_, locked_, *original_);
  colour();
  startSummary_ = engine_->summarize();
  restoreState(state);
}

double MeshModule::bytesPerWorkUnit() const {
  return bytesPerVertexPass(start_->topology.meanDegree());
}

std::optional<OpModel> MeshModule::opsPerWorkUnit() const {
  const OptimizeParams o = optimizeParams();
  const double vertices = double(start_->positions.size());
  const double iterations = visited_ ? double(engine_->counts().iterations) / double(visited_) : 0;
  const double flops = flopsPerVertexPass(o, 3.0 * double(start_->triangles()) / vertices,
                                          start_->topology.meanDegree(), iterations,
                                          1 - double(lockedCount_) / vertices);
  const bool fp64 = o.method == Method::NelderMead && o.precision == Precision::Double;
  return OpModel{flops, fp64 ? OpKind::Fp64 : OpKind::Fp32};
}

std::vector<std::string> MeshModule::sweepSizes() const {
  if (!isShape(params().getText("mesh"))) return {};
  return {"642", "2562", "10242", "40962", "163842", "655362", "2621442"};
}

const TimingScope& MeshModule::stepTiming() const {
  return *(backend() == Backend::Cuda ? gpu_.pass : cpu_.pass);
}

}  // namespace ws::mesh
