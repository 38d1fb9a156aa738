#include "compute/voxhash/voxhash_module.h"

#include <algorithm>
#include <cstdio>

#include "compute/core/errors.h"
#include "compute/core/progress.h"
#include "compute/core/saved_state.h"

namespace ws::voxhash {

namespace {

constexpr std::int64_t kMaxKeys = std::int64_t(1) << 27;
constexpr double kSecondsPerStep = 1.0 / 60;  // animation time of one step at speed 1
constexpr const char* kWorkloads[] = {"intersection", "random keys"};
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

CuckooParams cuckooParamsOf(const ParamSet& p) {
  CuckooParams c;
  c.functions = int(p.getInt("functions"));
  c.sizeFactor = p.getFloat("size_factor");
  c.chainFactor = p.getFloat("chain_factor");
  c.family = p.getText("family") == "xor" ? HashFamily::Xor : HashFamily::Multiplicative;
  c.insertion = p.getText("insertion") == "look" ? Insertion::Look : Insertion::Exchange;
  c.maxAttempts = int(p.getInt("attempts"));
  return c;
}

bool intersectionOf(const ParamSet& p) {
  return p.getText("workload") == kWorkloads[0];
}

// "2^25" or "33554432"; nullopt for anything else.
std::optional<std::int64_t> powerOrCount(const std::string& text) {
  int used = 0;
  if (text.rfind("2^", 0) == 0) {
    int exponent = 0;
    if (std::sscanf(text.c_str() + 2, "%d%n", &exponent, &used) != 1 ||
        std::size_t(used) + 2 != text.size() || exponent < 0 || exponent > 62)
      return std::nullopt;
    return std::int64_t(1) << exponent;
  }
  long long count = 0;
  if (std::sscanf(text.c_str(), "%lld%n", &count, &used) != 1 || std::size_t(used) != text.size())
    return std::nullopt;
  return count;
}

}  // namespace

VoxhashModule::VoxhashModule(Backend backend) : Module(backend) {
  const bool gpu = backend == Backend::Cuda;
  ParamSet& p = declare();
  p.declare(ParamSpec::choice("workload", "workload", kWorkloads[0], {kWorkloads[0], kWorkloads[1]},
                              "two animated models intersected through hash tables every step, "
                              "or the hash lab: random keys built into a table and queried (the "
                              "roofline's point: the lab's arithmetic has a model, the "
                              "intersection's six stages have none)"));
  // The intersection scene.
  for (const char* model : {"a", "b"}) {
    ParamSpec spec = ParamSpec::text(
        std::string("model_") + model, std::string("model ") + char(std::toupper(model[0])),
        *model == 'a' ? "sphere" : "torus-knot",
        "a procedural shape, a shipped mesh, or the path of an .obj, .ply or .off file; its "
        "surface is sampled into points",
        checkModelName);
    for (const char* shape : {"sphere", "torus", "torus-knot", "box"})
      spec.suggestions.emplace_back("shape", shape);
    for (const std::string& mesh : io::shippedMeshes())
      spec.suggestions.emplace_back("mesh", mesh);
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
  // The hash lab.
  ParamSpec keys = ParamSpec::integer("keys", "keys", gpu ? 1 << 22 : 1 << 18, 1, double(kMaxKeys),
                                      "random keys: unique 32-bit keys built into the table each "
                                      "step");
  keys.logScale = true;
  p.declare(keys);
  // The cuckoo tables (both workloads).
  p.declare(ParamSpec::integer("functions", "hash functions", 4, 2, kMaxFunctions,
                               "candidate slots per key: more build faster and pack tighter, but "
                               "a miss reads more of them"));
  p.declare(ParamSpec::real("size_factor", "table size (x keys)", 1.25, 1.02, 4.0,
                            "slots per key; the chapter's smallest practical sizes: about 2.1, "
                            "1.1, 1.03, 1.02 for 2 to 5 functions"));
  p.declare(ParamSpec::real("chain_factor", "chain limit (x lg N)", 7, 1, 100,
                            "a key's eviction chain fails after this many times lg N moves, and "
                            "the build restarts with new constants"));
  p.declare(ParamSpec::choice("family", "hash family", "multiplicative", {"multiplicative", "xor"},
                              "(a k + b) mod p, or ((a xor k) + b) mod p, scaled to the table"));
  p.declare(ParamSpec::choice("insertion", "insertion", "exchange", {"exchange", "look"},
                              "exchange: the chapter's, a key swaps itself into its first slot "
                              "and evicts what was there; look: a key reads its candidate slots "
                              "and claims an empty one (compare-and-swap), evicting only when all "
                              "are full: fewer atomics, shorter chains"));
  p.declare(ParamSpec::integer("attempts", "build attempts", 20, 1, 1000,
                               "builds with fresh constants before the step gives up"));
  p.declare(ParamSpec::choice("block", "threads per block", "64",
                              {"32", "64", "128", "256", "512", "1024"},
                              "of the build and query kernels; the chapter uses 64, so that a long "
                              "eviction chain keeps few idle threads of its block alive"));
  p.declare(ParamSpec::integer("seed", "seed", 1, 0, 2147483647,
                               "of the random keys and the hash constants"));

  labCpu_ = {&addTiming("total (CPU)", "keys/s", false), &addTiming("build (CPU)", "keys/s", false),
             &addTiming("query hits (CPU)", "keys/s", false),
             &addTiming("query misses (CPU)", "keys/s", false),
             &addTiming("table view (CPU)", "pixels/s", false)};
  labGpu_ = {&addTiming("total (CUDA)", "keys/s", true), &addTiming("build (CUDA)", "keys/s", true),
             &addTiming("query hits (CUDA)", "keys/s", true),
             &addTiming("query misses (CUDA)", "keys/s", true),
             &addTiming("table view (CUDA)", "pixels/s", true)};
  frameCpu_ = {&addTiming("frame (CPU)", "voxels/s", false),
               &addTiming("voxelize (CPU)", "voxels/s", false),
               &addTiming("build x2 (CPU)", "voxels/s", false),
               &addTiming("query x2 (CPU)", "voxels/s", false),
               &addTiming("fill x2 (CPU)", "cells/s", false),
               &addTiming("classify (CPU)", "voxels/s", false),
               &addTiming("voxel view (CPU)", "voxels/s", false)};
  frameGpu_ = {&addTiming("frame (CUDA)", "voxels/s", true),
               &addTiming("voxelize (CUDA)", "voxels/s", true),
               &addTiming("build x2 (CUDA)", "voxels/s", true),
               &addTiming("query x2 (CUDA)", "voxels/s", true),
               &addTiming("fill x2 (CUDA)", "cells/s", true),
               &addTiming("classify (CUDA)", "voxels/s", true),
               &addTiming("voxel view (CUDA)", "voxels/s", true)};
  buildImplementations();
  reset();
}

void VoxhashModule::setSize(const std::string& text) {
  // "256^3": the intersection grid; "2^25" or a count: random keys.
  const std::size_t cube = text.find("^3");
  if (cube != std::string::npos && cube + 2 == text.size()) {
    setParams({{"workload", std::string(kWorkloads[0])},
               {"resolution", params().parse("resolution", text.substr(0, cube))}});
    return;
  }
  const std::optional<std::int64_t> keys = powerOrCount(text);
  if (!keys)
    throw InputError("--size '" + text +
                     "': expected a grid such as 256^3 (intersection) or a key count such as "
                     "1048576 or 2^20 (random keys)");
  setParams({{"workload", std::string(kWorkloads[1])},
             {"keys", params().parse("keys", std::to_string(*keys))}});
}

std::vector<KernelVariant> VoxhashModule::variants(Backend backend) const {
  const bool gpu = backend == Backend::Cuda;
  std::vector<KernelVariant> all = {
      {"cuckoo", gpu ? "cuckoo hash tables (chapter 4)" : "cuckoo hash tables (chapter 4), OpenMP",
       "One thread per key swaps its key-value pair into the slot of its first hash function "
       "with a 64-bit atomic exchange; whatever it evicts moves on to the slot of its next "
       "function, until a swap finds an empty slot or the chain reaches its limit (then the "
       "table is rebuilt with new constants). A lookup reads the candidate slots in order: one "
       "random 8-byte access per probe. The chapter reached 0.25 x 10^9 pairs/s on a GTX 470 "
       "(2010); random memory access, not arithmetic, sets the pace. With insertion = look, a key "
       "first reads its candidate slots and claims an empty one with a compare-and-swap, and "
       "evicts only when all are occupied.",
       gpu ? std::vector<std::string>{"block", "insertion"} : std::vector<std::string>{"insertion"},
       "ch. 4 (GTX 470, 2010): 0.25 x 10^9 pairs/s"},
      {"sorted",
       "sorted array, binary search",
       "The chapter's main rival: each model's voxels, already sorted and deduplicated, are the "
       "structure (nothing to build), and a lookup is a binary search: about lg n dependent "
       "random reads instead of one to four, so lookups slow down as the models grow.",
       {}},
      {"bitgrid",
       "dense bit grid",
       "One bit per cell of the whole grid: building clears it and sets a bit per voxel, a lookup "
       "reads one bit. The fastest lookups, but memory and clearing grow with the cube of the "
       "resolution where a table grows with the voxels: the reason to hash sparse data.",
       {}},
  };
  if (!intersecting()) all.resize(1);  // the hash lab measures the cuckoo table alone
  return all;
}

std::string VoxhashModule::configuration() const {
  if (!intersecting()) return lab_->configuration();
  const int side = int(params().getInt("resolution"));
  return variant() + " lookups, " + std::to_string(side) + "^3 grid" +
         (backend() == Backend::Cuda ? ", blocks of " + params().getText("block") : "");
}

void VoxhashModule::buildImplementations() {
  const int block = std::stoi(params().getText("block"));
  if (backend() == Backend::Cuda) {
    lab_ = makeCudaHashLab(labGpu_, block);
    pipeline_ = makeCudaPipeline(frameGpu_, block);
  } else {
    lab_ = makeCpuHashLab(labCpu_);
    pipeline_ = makeCpuPipeline(frameCpu_);
  }
}

void VoxhashModule::runFrames(const ParamSet& p, const std::string& variant, std::uint64_t first,
                              std::uint64_t last) {
  std::vector<FramePoses> frames;
  for (std::uint64_t step = first; step <= last; ++step) {
    const double time = double(step) * kSecondsPerStep * p.getFloat("speed");
    FramePoses& f = frames.emplace_back();
    scenePoses(parsePath(p.getText("path")), parseDeformation(p.getText("deform")), time,
               float(p.getFloat("size_b")), f.a, f.b);
    f.seed = std::uint64_t(p.getInt("seed")) + 2 * step;  // tables A and B: seed and seed + 1
  }
  pipeline_->frames(frames, sceneGrid(int(p.getInt("resolution"))), parseLookupStructure(variant),
                    cuckooParamsOf(p));
}

void VoxhashModule::rebuild(const ParamSet& p, const std::string& variant, std::uint64_t step) {
  validate(cuckooParamsOf(p));
  const auto seed = std::uint32_t(p.getInt("seed"));
  if (intersectionOf(p)) {
    const float spacing =
        sceneGrid(int(p.getInt("resolution"))).voxel / float(p.getFloat("density"));
    // Both clouds are sampled at size kSizeA, B as finely as its pose's scale needs.
    const float sizeB = float(p.getFloat("size_b"));
    pipeline_->setClouds(sampleModel(p.getText("model_a"), kSizeA, spacing),
                         sampleModel(p.getText("model_b"), kSizeA, spacing * kSizeA / sizeB));
    runFrames(p, variant, step, step);
  } else {
    const std::size_t keys = std::size_t(p.getInt("keys"));
    tableSlots(cuckooParamsOf(p), keys);  // throws when too many
    lab_->setKeys(keys, seed);
    lab_->step(cuckooParamsOf(p), seed + step, 1);
  }
}

void VoxhashModule::reset() {
  rebuild(params(), variant(), 0);
  applied_ = {params(), variant()};
  setStepCount(0);
  clearTimings();
}

void VoxhashModule::advance(int count) {
  if (count <= 0) return;
  if (intersecting()) {
    runFrames(params(), variant(), stepCount() + 1, stepCount() + std::uint64_t(count));
  } else {
    // New hash constants every step, so that restarts show how often a build fails.
    lab_->step(cuckooParamsOf(params()), std::uint64_t(params().getInt("seed")) + stepCount() + 1,
               count);
  }
}

void VoxhashModule::synchronize() {
  if (intersecting())
    pipeline_->synchronize();
  else
    lab_->synchronize();
}

BuildReport VoxhashModule::chainReport() const {
  return intersecting() ? pipeline_->report().builds[0] : lab_->report().build;
}

std::vector<Metric> VoxhashModule::metrics() {
  const BuildReport build = chainReport();
  std::vector<Metric> m = {{"restarts", double(build.attempts > 0 ? build.attempts - 1 : 0)},
                           {"load factor", build.loadFactor()},
                           {"longest chain", double(build.longestChain)}};
  if (intersecting()) {
    const FrameReport r = pipeline_->report();
    m.insert(m.begin(), {{"voxels of A", double(r.voxels[0])},
                         {"voxels of B", double(r.voxels[1])},
                         {"contact voxels", double(r.contact)},
                         {"A inside B", double(r.aInsideB)},
                         {"B inside A", double(r.bInsideA)}});
  } else {
    const LabReport r = lab_->report();
    m.push_back({"probes per hit", r.probesPerHit});
    m.push_back({"probes per miss", r.probesPerMiss});
    m.push_back({"keys lost", double(r.lostKeys)});
  }
  return m;
}

std::string VoxhashModule::notes() const {
  const BuildReport build = chainReport();
  std::string text;
  if (intersecting()) {
    const FrameReport r = pipeline_->report();
    text = std::to_string(r.points[0]) + " + " + std::to_string(r.points[1]) + " points, " +
           std::to_string(r.voxels[0]) + " + " + std::to_string(r.voxels[1]) + " voxels";
    if (r.fillPasses) text += "; flood fill in " + std::to_string(r.fillPasses) + " passes";
    if (variant() != "cuckoo") return text;
    text += "\ntable of A: ";
  }
  text += std::to_string(build.slots) + " slots for " + std::to_string(build.keys) +
          " keys; chains fail after " + std::to_string(build.chainLimit) + " moves";
  if (!intersecting()) {
    const LabReport r = lab_->report();
    if (r.lostKeys) text += "\nwarning: " + std::to_string(r.lostKeys) + " keys were not found";
  }
  return text;
}

std::vector<Histogram> VoxhashModule::histograms() const {
  if (intersecting() && variant() != "cuckoo") return {};
  const BuildReport build = chainReport();
  // Lengths 1 to 8 one by one, the rest together (the full histogram has kChainBins bins).
  constexpr int kShown = 8;
  Histogram h{
      intersecting() ? "eviction chains, table of A (% of keys)" : "eviction chains (% of keys)",
      {},
      {}};
  const double keys = double(std::max<std::size_t>(build.keys, 1));
  for (int b = 0; b < kChainBins; ++b) {
    const float share = float(100.0 * double(build.chainHistogram[b]) / keys);
    if (b < kShown) {
      h.labels.push_back(std::to_string(b + 1));
      h.values.push_back(share);
    } else if (b == kShown) {
      h.labels.push_back(std::to_string(kShown + 1) + "+");
      h.values.push_back(share);
    } else {
      h.values.back() += share;
    }
  }
  return {h};
}

int VoxhashModule::shownTable() const {
  const std::string view = params().getText("view");
  return !intersecting() ? -1 : view == kViews[1] ? 0 : view == kViews[2] ? 1 : -1;
}

WorldBox VoxhashModule::world() const {
  const int table = shownTable();
  if (intersecting() && table < 0)
    return {-kSceneExtent, -kSceneExtent, kSceneExtent, kSceneExtent};
  const std::uint32_t slots =
      std::max<std::uint32_t>(table < 0 ? lab_->slots() : pipeline_->tableSlots(table), 1);
  const int width = tableImageWidth(slots);
  return {0, 0, double(width), double((slots + width - 1) / width)};
}

std::string VoxhashModule::sizeText() const {
  if (intersecting()) return std::to_string(params().getInt("resolution")) + "^3";
  return std::to_string(params().getInt("keys"));
}

std::vector<FieldView> VoxhashModule::fieldViews() const {
  return {{"slots", "placed by hash function (0: empty)", 0.0f, float(params().getInt("functions")),
           "viridis"}};
}

void VoxhashModule::renderField(const FieldRequest& request, FieldImage& image) {
  if (!intersecting()) return lab_->render(request, image);
  if (shownTable() < 0)
    throw InputError("the intersection's voxels are shown in 3-D, through its voxel scene");
  pipeline_->renderTable(shownTable(), request, image);
}

std::optional<VoxelScene> VoxhashModule::voxelScene() const {
  if (!intersecting() || shownTable() >= 0) return std::nullopt;
  const VoxelGrid grid = sceneGrid(int(params().getInt("resolution")));
  VoxelScene scene;
  std::copy(grid.origin, grid.origin + 3, scene.origin);
  scene.voxel = grid.voxel;
  scene.extent = kSceneExtent;
  scene.visibleClasses = 0;
  for (std::size_t c = 0; c < std::size(kClasses); ++c) {
    scene.classNames.push_back(kClasses[c].name);
    scene.classColours.push_back(kClasses[c].colour);
    if (params().getBool(kClasses[c].param)) scene.visibleClasses |= 1u << c;
  }
  return scene;
}

std::size_t VoxhashModule::voxelCount() const {
  return intersecting() ? pipeline_->voxelCount() : 0;
}

void VoxhashModule::renderVoxels(VoxelImage& voxels) {
  if (intersecting()) pipeline_->renderVoxels(voxels);
}

void VoxhashModule::edit(const PointerEdit&) {
  throw InputError("the voxel hash module has no tools");
}

std::vector<std::string> VoxhashModule::actions() const {
  return {"new constants"};
}

void VoxhashModule::runAction(const std::string& action) {
  if (action != "new constants") throw InputError("unknown action '" + action + "'");
  setParams({{"seed", (params().getInt("seed") + 1) % 2147483647}});
}

void VoxhashModule::pollTimings() {
  lab_->pollTimings();
  pipeline_->pollTimings();
}

void VoxhashModule::drainTimings() {
  lab_->drainTimings();
  pipeline_->drainTimings();
}

const TimingScope& VoxhashModule::stepTiming() const {
  const bool gpu = backend() == Backend::Cuda;
  if (intersecting()) return *(gpu ? frameGpu_ : frameCpu_).frame;
  return *(gpu ? labGpu_ : labCpu_).total;
}

double VoxhashModule::bytesPerWorkUnit() const {
  const CuckooParams c = cuckooParamsOf(params());
  if (intersecting()) return buildBytesPerKey(c.sizeFactor) + kHitBytesPerKey;
  return buildBytesPerKey(c.sizeFactor) + kHitBytesPerKey +
         missBytesPerKey(c.functions, c.sizeFactor);
}

std::optional<OpModel> VoxhashModule::opsPerWorkUnit() const {
  if (intersecting()) return std::nullopt;
  const CuckooParams c = cuckooParamsOf(params());
  return OpModel{labOpsPerKey(c.functions, c.sizeFactor), OpKind::Int32};
}

std::vector<std::string> VoxhashModule::sweepSizes() const {
  if (intersecting()) return {"32^3", "64^3", "128^3", "256^3", "512^3"};
  return {"2^10", "2^12", "2^14", "2^16", "2^18", "2^20", "2^22", "2^24"};
}

StateBlob VoxhashModule::saveState() {
  StateBlob state;
  state.meta = {{"steps", stepCount()}};  // the scene and tables follow from the parameters
  return state;
}

void VoxhashModule::restoreState(const StateBlob& state) {
  const std::uint64_t steps = SavedState(state, "voxel hash").steps();
  rebuild(params(), variant(), steps);
  applied_ = {params(), variant()};
  setStepCount(steps);
  clearTimings();
}

void VoxhashModule::applyParams(const std::vector<std::string>& changed) {
  // Showing or hiding a class, or another view, changes only what is drawn: nothing to recompute.
  const bool viewOnly = std::all_of(changed.begin(), changed.end(), [](const std::string& key) {
    return key == "view" || std::any_of(std::begin(kClasses), std::end(kClasses),
                                        [&](const ClassLook& c) { return key == c.param; });
  });
  if (viewOnly) return;
  if (anyOf(changed, {"block"})) buildImplementations();
  try {
    rebuild(params(), variant(), stepCount());
    applied_ = {params(), variant()};
    clearTimings();
  } catch (...) {
    // Refused (no memory, or no table in all attempts): the parameters go back, and so does the
    // state the user was looking at.
    const CannotCancel puttingBack;
    if (anyOf(changed, {"block"})) buildImplementations();
    rebuild(applied_.params, applied_.variant, stepCount());
    throw;
  }
}

void VoxhashModule::applySelection(Backend, const StateBlob& state) {
  buildImplementations();
  restoreState(state);
}

}  // namespace ws::voxhash
