#include "compute/mesh/mesh_module.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "compute/core/errors.h"
#include "compute/core/memory.h"
#include "compute/core/output_file.h"
#include "compute/core/saved_state.h"
#include "compute/mesh/mesh_catalog.h"

namespace ws::mesh {

namespace {

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
}  // namespace

MeshModule::MeshModule(Backend backend) : Module(backend) {
  declareMeshParams(declare(), backend == Backend::Cuda);
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
  readPlan();
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
  return engine_->configuration() + ", " +
         (plan_.coloured ? std::to_string(engine_->classStart().size() - 1) + " colour classes"
                         : std::string("all vertices at once"));
}

void MeshModule::readPlan() {
  OptimizeParams& o = plan_.optimize;
  o.method = entryNamed(meshMethods(backend()), variant()).how;
  o.alpha = float(params().getFloat("alpha"));
  o.search.iterations = int(params().getInt("iterations"));
  o.search.tolerance = float(params().getFloat("tolerance"));
  o.search.perBranch = params().getBool("per_branch");
  o.precision = params().getText("precision") == "fp64" ? Precision::Double : Precision::Single;
  o.keepQuality = params().getBool("keep_quality");
  o.rejectFolds = params().getBool("reject_folds");
  plan_.untangle = params().getBool("untangle");
  plan_.project = params().getBool("project");
  plan_.coloured = params().getText("schedule") == "coloured";
  plan_.classByClass = params().getText("step") == "class";
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
  startPhases();
  forgetCounts();
  restart();
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
  startPhases();
  forgetCounts();
  restart();
  clearTimings();
}

void MeshModule::startPhases() {
  untanglePasses_ = 0;
  untangleStuck_ = false;
  tangledVertices_.clear();
}

bool MeshModule::untangling() const {
  return plan_.untangle && !untangleStuck_ && summary().inverted > 0;
}

void MeshModule::untangleStep() {
  OptimizeParams untangle = plan_.optimize;
  untangle.method = Method::Untangle;
  const std::uint64_t movedBefore = engine_->counts().moved;
  engine_->run({Pass{plan_.coloured ? Pass::Kind::Sweep : Pass::Kind::AllAtOnce}}, untangle,
               plan_.project);
  visited_ += start_->positions.size();
  ++untanglePasses_;
  changed();
  recordPass();
  if (summary().inverted == 0) return;
  if (engine_->counts().moved == movedBefore || untanglePasses_ >= kMaxUntanglePasses) {
    untangleStuck_ = true;
    const std::vector<Vec3> now = engine_->positions();
    MeshView view = start_->view();
    view.positions = const_cast<Vec3*>(now.data());  // read only
    for (std::uint32_t t = 0; t < start_->triangles(); ++t)
      if (invertedTriangle(view, t))
        for (int k = 0; k < 3; ++k) tangledVertices_.push_back(start_->corners[3 * t + k]);
    std::sort(tangledVertices_.begin(), tangledVertices_.end());
    tangledVertices_.erase(std::unique(tangledVertices_.begin(), tangledVertices_.end()),
                           tangledVertices_.end());
  }
}

void MeshModule::recordPass() {
  for (auto [curve, value] : {std::pair{&minPerPass_, summary().minDegrees},
                              std::pair{&meanPerPass_, float(summary().meanDegrees)}}) {
    curve->values.push_back(value);
    if (curve->values.size() > kCurveLength) curve->values.pop_front();
  }
}

void MeshModule::advance(int count) {
  for (; count > 0 && untangling(); --count) untangleStep();
  if (count <= 0) return;
  const auto colours = std::uint32_t(engine_->classStart().size() - 1);
  std::vector<Pass> passes(static_cast<std::size_t>(count));
  for (Pass& pass : passes) {
    if (!plan_.coloured) {
      pass.kind = Pass::Kind::AllAtOnce;
    } else if (plan_.classByClass && colours > 0) {
      pass = {Pass::Kind::Class, nextClass_};
      nextClass_ = (nextClass_ + 1) % colours;
    }
    visited_ += pass.kind == Pass::Kind::Class
                    ? engine_->classStart()[pass.colour + 1] - engine_->classStart()[pass.colour]
                    : start_->positions.size();
  }
  engine_->run(passes, plan_.optimize, plan_.project);
  changed();
  recordPass();
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
          {"inverted triangles", double(s.inverted)},
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
  if (startSummary_.inverted > 0 || summary().inverted > 0) {
    std::snprintf(line, sizeof line, "\ninverted triangles: %u at the start, %u now",
                  startSummary_.inverted, summary().inverted);
    text += line;
    if (untangling())
      text += " (untangling: pass " + std::to_string(untanglePasses_ + 1) + ")";
    else if (summary().inverted == 0 && untanglePasses_ > 0)
      text += " (untangled in " + std::to_string(untanglePasses_) +
              (untanglePasses_ == 1 ? " pass)" : " passes)");
    else if (!plan_.untangle)
      text += " (untangle first is off)";
  }
  if (untangleStuck_ && summary().inverted > 0) {
    text += "\nwarning: " + std::to_string(tangledVertices_.size()) +
            " vertices could not be untangled:";
    for (std::size_t i = 0; i < tangledVertices_.size() && i < 8; ++i)
      text += " " + std::to_string(tangledVertices_[i]);
    if (tangledVertices_.size() > 8) text += " ...";
  }
  if (summary().minDegrees < startSummary_.minDegrees - 1e-3f && untanglePasses_ == 0)
    text += "\nwarning: the smallest angle dropped below its start (guards off, or all at once)";
  if (!saved_.empty()) {
    text += "\nsaved to ";
    text += saved_;
  }
  if (const Inspection* in = inspection()) {
    text += '\n';
    text += describe(*in, plan_.optimize);
    if (backend() == Backend::Cuda)
      text +=
          "\n(the inspector searches on the host; the GPU's search may round its way "
          "elsewhere)";
  }
  return text;
}

void MeshModule::runAction(const std::string& action) {
  if (action != "save mesh") return;
  const std::string path = freshOutputPath(params().getText("save_as"));  // never over another
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

std::unique_ptr<EditChange> MeshModule::edit(const PointerEdit& e) {
  if (e.tool != "inspect" || !e.hasRay) return nullptr;
  const Vec3 origin = {e.origin[0], e.origin[1], e.origin[2]};
  const Vec3 direction = {e.direction[0], e.direction[1], e.direction[2]};
  inspected_ = pickVertex(engine_->positions(), start_->corners, origin, direction);
  inspection_.reset();
  return nullptr;  // an inspection changes nothing to undo
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
                           t.neighbourStart.data(),    t.neighbourOf.data(),
                           start_->reference.data()};
    OptimizeParams params = plan_.optimize;
    if (untangling()) params.method = Method::Untangle;  // the move the next step makes
    inspection_ =
        inspectVertex(view, v, locked_[v] != 0, params, plan_.project ? original_.get() : nullptr);
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
    case MeshValue::MinAngle:  // an inverted triangle's is negative: the worst colour
      scene.value = {"smallest angle",
                     "smallest angle of each triangle (degrees; negative: inverted)", 0, 60,
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
    // The first bin holds the inverted triangles too (their smallest angles count as negative).
    h.labels.push_back(b == 0 ? "<" + std::to_string(int(kAngleBinDegrees))
                              : std::to_string(int(b * kAngleBinDegrees)) + "-" +
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
  startPhases();
  clearTimings();
}

void MeshModule::applyParams(const std::vector<std::string>& changed) {
  inspection_.reset();     // the search's parameters may have changed
  untangleStuck_ = false;  // and so may what untangling can do: it tries again
  tangledVertices_.clear();
  if (anyOf(changed, {"block"})) engine_->setBlock(std::stoi(params().getText("block")));
  if (anyOf(changed, {"mesh", "vertices", "jitter", "seed"})) {
    rebuild(params());  // throws changing nothing
  } else {
    if (anyOf(changed, {"feature_angle"})) {
      locked_ = lockedVertices(*start_, float(params().getFloat("feature_angle")));
      engine_->setLocked(locked_);
      countLocks();
    }
    if (anyOf(changed, {"colouring"})) colour();
  }
  readPlan();
}

void MeshModule::applySelection(Backend, const StateBlob& state) {
  readPlan();
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
  const OptimizeParams& o = plan_.optimize;
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
