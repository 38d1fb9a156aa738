#include "compute/voxhash/intersection_workload.h"

#include <algorithm>
#include <cctype>

#include "compute/core/errors.h"

namespace ws::voxhash {

namespace {

constexpr double kSecondsPerStep = 1.0 / 60;  // animation time of one step at speed 1
constexpr const char* kViews[] = {"voxels", "table-a", "table-b"};

// The view's classes, in VoxelClass order, with their visibility parameters.
struct ClassLook {
  const char* param;
  const char* name;
  std::array<float, 3> colour;
};
constexpr ClassLook kClasses[] = {
    {"show_a", "A only", {0.30f, 0.55f, 0.95f}},
    {"show_b", "B only", {0.95f, 0.65f, 0.25f}},
    {"show_contact", "contact", {0.95f, 0.20f, 0.25f}},
    {"show_a_in_b", "A inside B", {0.35f, 0.85f, 0.45f}},
    {"show_b_in_a", "B inside A", {0.85f, 0.40f, 0.90f}},
};

}  // namespace

IntersectionWorkload::IntersectionWorkload(Backend backend, PipelineTimings timings, int block)
    : timings_(timings),
      gpu_(backend == Backend::Cuda),
      block_(block),
      pipeline_(gpu_ ? makeCudaPipeline(timings, block) : makeCpuPipeline(timings)) {}

void IntersectionWorkload::declareParams(ParamSet& p, bool gpu) {
  for (const char* model : {"a", "b"}) {
    ParamSpec spec = ParamSpec::text(
        std::string("model_") + model, std::string("model ") + char(std::toupper(model[0])),
        *model == 'a' ? "sphere" : "torus-knot",
        "a procedural shape, a shipped mesh, or the path of an .obj, .ply or .off file; its "
        "surface is sampled into points",
        checkModelName);
    for (const char* shape : {"sphere", "torus", "torus-knot", "box"})
      spec.suggestions.emplace_back("shape", shape);
    for (const std::string& mesh : io::shippedMeshes()) spec.suggestions.emplace_back("mesh", mesh);
    p.declare(spec);
  }
  p.declare(ParamSpec::real("size_b", "size of B", kDefaultSizeB, 0.2, 1.2,
                            "B's radius where A's is 1 (the scene is 4 across)"));
  p.declare(ParamSpec::choice("path", "path", "orbit", {"orbit", "pass-through", "collide"},
                              "B circles A through its surface, passes right through it, or A "
                              "and B meet and part"));
  p.declare(ParamSpec::choice("deform", "deformation", "none", {"none", "breathing", "twist"},
                              "both models pulse in size, or twist about their axes"));
  p.declare(ParamSpec::real("speed", "animation speed", 1, 0, 8,
                            "scene time per step, in 60ths of a second"));
  ParamSpec resolution =
      ParamSpec::integer("resolution", "voxels per axis", gpu ? 256 : 64, 16, kMaxGridSide,
                         "cells per axis of the grid over the scene; a model's voxels grow with "
                         "its square, the flood fill's cells with its cube");
  resolution.logScale = true;
  p.declare(resolution);
  p.declare(ParamSpec::real("density", "points per voxel", 2.6, 2, 6,
                            "point spacing on the surfaces, as a fraction of the voxel edge; "
                            "below about 2.6, twists and breathing can open gaps in a shell and "
                            "the flood fill leaks inside"));
  for (const ClassLook& c : kClasses)
    p.declare(ParamSpec::boolean(c.param, std::string("show ") + c.name, true,
                                 "draw the voxels of this class"));
  p.declare(ParamSpec::choice("view", "view", kViews[0], {kViews[0], kViews[1], kViews[2]},
                              "the voxels in 3-D, or the cuckoo table of A or of B as an image: "
                              "each slot coloured by the hash function that placed its key"));
}

void IntersectionWorkload::rebuild(const ParamSet& p, const std::string& variant,
                                   std::uint64_t step) {
  Config c;
  c.path = parsePath(p.getText("path"));
  c.deformation = parseDeformation(p.getText("deform"));
  c.speed = p.getFloat("speed");
  c.sizeB = float(p.getFloat("size_b"));
  c.resolution = int(p.getInt("resolution"));
  c.variant = variant;
  c.structure = entryNamed(lookupCatalog(gpu_ ? Backend::Cuda : Backend::Cpu), variant).how;
  c.cuckoo = cuckooParamsOf(p);
  c.seed = std::uint64_t(p.getInt("seed"));
  validate(c.cuckoo);
  const float spacing = sceneGrid(c.resolution).voxel / float(p.getFloat("density"));
  // Both clouds are sampled at size kSizeA, B as finely as its pose's scale needs.
  pipeline_->setClouds(sampleModel(p.getText("model_a"), kSizeA, spacing),
                       sampleModel(p.getText("model_b"), kSizeA, spacing * kSizeA / c.sizeB));
  config_ = std::move(c);
  restyle(p);
  runFrames(step, step);
}

bool IntersectionWorkload::rebuildsFor(const std::string& key) const {
  // Showing or hiding a class, or another view, changes only what is drawn.
  const bool drawn =
      key == "view" || std::any_of(std::begin(kClasses), std::end(kClasses),
                                   [&](const ClassLook& c) { return key == c.param; });
  return !drawn && key != "keys";
}

void IntersectionWorkload::restyle(const ParamSet& p) {
  look_.visibleClasses = 0;
  for (std::size_t c = 0; c < std::size(kClasses); ++c)
    if (p.getBool(kClasses[c].param)) look_.visibleClasses |= 1u << c;
  const std::string view = p.getText("view");
  look_.table = view == kViews[1] ? 0 : view == kViews[2] ? 1 : -1;
}

void IntersectionWorkload::runFrames(std::uint64_t first, std::uint64_t last) {
  std::vector<FramePoses> frames;
  for (std::uint64_t step = first; step <= last; ++step) {
    const double time = double(step) * kSecondsPerStep * config_.speed;
    FramePoses& f = frames.emplace_back();
    scenePoses(config_.path, config_.deformation, time, config_.sizeB, f.a, f.b);
    f.seed = config_.seed + 2 * step;  // tables A and B: seed and seed + 1
  }
  pipeline_->frames(frames, sceneGrid(config_.resolution), config_.structure, config_.cuckoo);
}

void IntersectionWorkload::advance(std::uint64_t first, int count) {
  if (count > 0) runFrames(first, first + std::uint64_t(count) - 1);
}

std::string IntersectionWorkload::configuration() const {
  return config_.variant + " lookups, " + sizeText() + " grid" +
         (gpu_ ? ", blocks of " + std::to_string(block_) : "");
}

std::vector<Metric> IntersectionWorkload::metrics() {
  const FrameReport r = pipeline_->report();
  std::vector<Metric> m = {{"voxels of A", double(r.voxels[0])},
                           {"voxels of B", double(r.voxels[1])},
                           {"contact voxels", double(r.contact)},
                           {"A inside B", double(r.aInsideB)},
                           {"B inside A", double(r.bInsideA)}};
  for (const Metric& chain : chainMetrics(r.builds[0])) m.push_back(chain);
  return m;
}

std::string IntersectionWorkload::notes() const {
  const FrameReport r = pipeline_->report();
  std::string text = std::to_string(r.points[0]) + " + " + std::to_string(r.points[1]) +
                     " points, " + std::to_string(r.voxels[0]) + " + " +
                     std::to_string(r.voxels[1]) + " voxels";
  if (r.fillPasses) text += "; flood fill in " + std::to_string(r.fillPasses) + " passes";
  if (config_.structure != LookupStructure::Cuckoo) return text;
  return text + "\ntable of A: " + chainNotes(r.builds[0]);
}

std::vector<Histogram> IntersectionWorkload::histograms() const {
  if (config_.structure != LookupStructure::Cuckoo) return {};
  return {chainHistogram(pipeline_->report().builds[0], "eviction chains, table of A (% of keys)")};
}

WorldBox IntersectionWorkload::world() const {
  if (look_.table < 0) return {-kSceneExtent, -kSceneExtent, kSceneExtent, kSceneExtent};
  const std::uint32_t slots = std::max<std::uint32_t>(pipeline_->tableSlots(look_.table), 1);
  const int width = tableImageWidth(slots);
  return {0, 0, double(width), double((slots + width - 1) / width)};
}

std::string IntersectionWorkload::sizeText() const {
  return std::to_string(config_.resolution) + "^3";
}

std::vector<std::string> IntersectionWorkload::sweepSizes() const {
  return {"32^3", "64^3", "128^3", "256^3", "512^3"};
}

void IntersectionWorkload::renderField(const FieldRequest& request, FieldImage& image) {
  if (look_.table < 0)
    throw InputError("the intersection's voxels are shown in 3-D, through its voxel scene");
  pipeline_->renderTable(look_.table, request, image);
}

std::optional<VoxelScene> IntersectionWorkload::voxelScene() const {
  if (look_.table >= 0) return std::nullopt;
  const VoxelGrid grid = sceneGrid(config_.resolution);
  VoxelScene scene;
  std::copy(grid.origin, grid.origin + 3, scene.origin);
  scene.voxel = grid.voxel;
  scene.extent = kSceneExtent;
  scene.visibleClasses = look_.visibleClasses;
  for (const ClassLook& c : kClasses) {
    scene.classNames.push_back(c.name);
    scene.classColours.push_back(c.colour);
  }
  return scene;
}

double IntersectionWorkload::bytesPerWorkUnit() const {
  return buildBytesPerKey(config_.cuckoo.sizeFactor) + kHitBytesPerKey;
}

}  // namespace ws::voxhash
