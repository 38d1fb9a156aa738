#include "compute/voxhash/voxhash_module.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "compute/core/errors.h"
#include "compute/core/progress.h"
#include "compute/core/saved_state.h"
#include "compute/voxhash/intersection_workload.h"
#include "compute/voxhash/keys_workload.h"

namespace ws::voxhash {

namespace {

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

template <class W>
W& running(const std::unique_ptr<Workload>& workload, const char* name) {
  auto* w = dynamic_cast<W*>(workload.get());
  if (!w) throw std::logic_error(std::string("the voxel hash module is not running ") + name);
  return *w;
}

}  // namespace

VoxhashModule::VoxhashModule(Backend backend) : Module(backend) {
  const bool gpu = backend == Backend::Cuda;
  ParamSet& p = declare();
  p.declare(ParamSpec::choice("workload", "workload", kWorkloadNames[0],
                              {kWorkloadNames[0], kWorkloadNames[1]},
                              "two animated models intersected through hash tables every step, "
                              "or the hash lab: random keys built into a table and queried (the "
                              "roofline's point: the lab's arithmetic has a model, the "
                              "intersection's six stages have none)"));
  // Each workload's own parameters, noted: the other workload has no use for them.
  for (const auto& [kind, declareOwn] :
       {std::pair{WorkloadKind::Intersection, &IntersectionWorkload::declareParams},
        std::pair{WorkloadKind::Keys, &KeysWorkload::declareParams}}) {
    const std::size_t before = p.specs().size();
    declareOwn(p, gpu);
    for (std::size_t k = before; k < p.specs().size(); ++k) onlyFor_[p.specs()[k].key] = kind;
  }
  declareCuckooParams(p);  // both workloads' tables
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
  reset();
}

bool VoxhashModule::applies(const std::string& key) const {
  // A bucketed table always looks before it evicts: the insertion is the one-slot table's choice.
  if (key == "insertion" && params().getText("bucket") != "1") return false;
  const auto own = onlyFor_.find(key);
  return own == onlyFor_.end() || own->second == workloadOf(params());
}

void VoxhashModule::setSize(const std::string& text) {
  // "256^3": the intersection grid; "2^25" or a count: random keys.
  const std::size_t cube = text.find("^3");
  if (cube != std::string::npos && cube + 2 == text.size()) {
    setParams({{"workload", std::string(kWorkloadNames[0])},
               {"resolution", params().parse("resolution", text.substr(0, cube))}});
    return;
  }
  const std::optional<std::int64_t> keys = powerOrCount(text);
  if (!keys)
    throw InputError("--size '" + text +
                     "': expected a grid such as 256^3 (intersection) or a key count such as "
                     "1048576 or 2^20 (random keys)");
  setParams({{"workload", std::string(kWorkloadNames[1])},
             {"keys", params().parse("keys", std::to_string(*keys))}});
}

std::vector<KernelVariant> VoxhashModule::variants(Backend backend) const {
  std::vector<KernelVariant> all = describe(lookupCatalog(backend));
  if (workloadOf(params()) == WorkloadKind::Keys) all.resize(1);  // the lab measures cuckoo alone
  return all;
}

std::string VoxhashModule::configuration() const {
  return workload_->configuration();
}

void VoxhashModule::show(const ParamSet& p, const std::string& variant, std::uint64_t step) {
  const Engine engine{workloadOf(p), backend(), std::stoi(p.getText("block"))};
  if (engine != engine_) {
    const bool gpu = engine.backend == Backend::Cuda;
    if (engine.kind == WorkloadKind::Intersection)
      workload_ = std::make_unique<IntersectionWorkload>(engine.backend,
                                                         gpu ? frameGpu_ : frameCpu_, engine.block);
    else
      workload_ =
          std::make_unique<KeysWorkload>(engine.backend, gpu ? labGpu_ : labCpu_, engine.block);
    engine_ = engine;
  }
  workload_->rebuild(p, variant, step);
  applied_ = {p, variant};
  setStepCount(step);
  clearTimings();
}

void VoxhashModule::showOrGoBack(const ParamSet& p, const std::string& variant,
                                 std::uint64_t step) {
  try {
    show(p, variant, step);
  } catch (...) {
    // Refused (no memory, or no table in all attempts): the parameters go back, and so does the
    // state the user was looking at.
    const CannotCancel puttingBack;
    show(applied_.params, applied_.variant, stepCount());
    throw;
  }
}

void VoxhashModule::reset() {
  show(params(), variant(), 0);
}

void VoxhashModule::advance(int count) {
  workload_->advance(stepCount() + 1, count);
}

std::vector<FieldView> VoxhashModule::fieldViews() const {
  return {{"slots", "placed by hash function (0: empty)", 0.0f, float(params().getInt("functions")),
           "viridis"}};
}

std::unique_ptr<EditChange> VoxhashModule::edit(const PointerEdit&) {
  throw InputError("the voxel hash module has no tools");
}

std::vector<std::string> VoxhashModule::actions() const {
  return {"new constants"};
}

void VoxhashModule::runAction(const std::string& action) {
  if (action != "new constants") throw InputError("unknown action '" + action + "'");
  setParams({{"seed", (params().getInt("seed") + 1) % 2147483647}});
}

StateBlob VoxhashModule::saveState() {
  StateBlob state;
  state.meta = {{"steps", stepCount()}};  // the scene and tables follow from the parameters
  return state;
}

void VoxhashModule::restoreState(const StateBlob& state) {
  show(params(), variant(), SavedState(state, "voxel hash").steps());
}

void VoxhashModule::applyParams(const std::vector<std::string>& changed) {
  // A parameter the workload does not read, or one that changes only what is drawn, needs no
  // new state (the engine's do: the workload and the block).
  const bool rebuild = anyOf(changed, {"workload", "block"}) ||
                       std::any_of(changed.begin(), changed.end(), [&](const std::string& key) {
                         return workload_->rebuildsFor(key);
                       });
  if (!rebuild) {
    workload_->restyle(params());
    applied_.params = params();
    return;
  }
  showOrGoBack(params(), variant(), stepCount());
}

void VoxhashModule::applySelection(Backend, const StateBlob& state) {
  show(params(), variant(), SavedState(state, "voxel hash").steps());
}

LabReport VoxhashModule::labReport() const {
  return running<KeysWorkload>(workload_, "random keys").report();
}

FrameReport VoxhashModule::frameReport() const {
  return running<IntersectionWorkload>(workload_, "the intersection").report();
}

void VoxhashModule::frameResult(std::vector<std::uint32_t>& keys,
                                std::vector<std::uint8_t>& classes) const {
  running<IntersectionWorkload>(workload_, "the intersection").result(keys, classes);
}

}  // namespace ws::voxhash
