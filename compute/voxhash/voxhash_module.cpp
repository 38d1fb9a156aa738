#include "compute/voxhash/voxhash_module.h"

#include <cstdio>

#include "compute/core/errors.h"

namespace ws::voxhash {

namespace {

constexpr std::int64_t kMaxKeys = std::int64_t(1) << 27;

}  // namespace

VoxhashModule::VoxhashModule(Backend backend) : Module(backend) {
  ParamSet& p = declare();
  ParamSpec keys = ParamSpec::integer("keys", "keys", backend == Backend::Cuda ? 1 << 22 : 1 << 18,
                                      1, double(kMaxKeys),
                                      "random unique 32-bit keys built into the table each step");
  keys.logScale = true;
  p.declare(keys);
  p.declare(ParamSpec::integer("functions", "hash functions", 4, 2, kMaxFunctions,
                               "candidate slots per key: more build faster and pack tighter, but "
                               "a miss reads them all"));
  p.declare(ParamSpec::real("size_factor", "table size (x keys)", 1.25, 1.02, 4.0,
                            "slots per key; the chapter's smallest practical sizes: about 2.1, "
                            "1.1, 1.03, 1.02 for 2 to 5 functions"));
  p.declare(ParamSpec::real("chain_factor", "chain limit (x lg N)", 7, 1, 100,
                            "a key's eviction chain fails after this many times lg N moves, and "
                            "the build restarts with new constants"));
  p.declare(ParamSpec::choice("family", "hash family", "multiplicative", {"multiplicative", "xor"},
                              "(a k + b) mod p mod slots, or ((a xor k) + b) mod p mod slots"));
  p.declare(ParamSpec::integer("attempts", "build attempts", 20, 1, 1000,
                               "builds with fresh constants before the step gives up"));
  p.declare(ParamSpec::choice("block", "threads per block", "64",
                              {"32", "64", "128", "256", "512", "1024"},
                              "of the build and query kernels; the chapter uses 64, so that a long "
                              "eviction chain keeps few idle threads of its block alive"));
  p.declare(ParamSpec::integer("seed", "seed", 1, 0, 2147483647, "random seed of the keys"));

  cpuTimings_ = {&addTiming("total (CPU)", "keys/s", false),
                 &addTiming("build (CPU)", "keys/s", false),
                 &addTiming("query hits (CPU)", "keys/s", false),
                 &addTiming("query misses (CPU)", "keys/s", false),
                 &addTiming("view (CPU)", "pixels/s", false)};
  gpuTimings_ = {&addTiming("total (CUDA)", "keys/s", true),
                 &addTiming("build (CUDA)", "keys/s", true),
                 &addTiming("query hits (CUDA)", "keys/s", true),
                 &addTiming("query misses (CUDA)", "keys/s", true),
                 &addTiming("view (CUDA)", "pixels/s", true)};
  variant_ = defaultVariant(backend);
  buildLab();
  reset();
}

void VoxhashModule::setSize(const std::string& text) {
  std::string keys = text;
  if (text.rfind("2^", 0) == 0) {  // "2^25"
    int exponent = 0, used = 0;
    if (std::sscanf(text.c_str() + 2, "%d%n", &exponent, &used) != 1 ||
        std::size_t(used) + 2 != text.size() || exponent < 0 || exponent > 62)
      throw InputError("--size '" + text + "': expected a key count such as 1048576 or 2^20");
    keys = std::to_string(std::int64_t(1) << exponent);
  }
  setParams({{"keys", params().parse("keys", keys)}});
}

std::vector<KernelVariant> VoxhashModule::variants(Backend backend) const {
  if (backend == Backend::Cuda)
    return {{"cuckoo",
             "cuckoo hash table (chapter 4)",
             "One thread per key swaps its key-value pair into the slot of its first hash "
             "function with a 64-bit atomicExch; whatever it evicts moves on to the slot of its "
             "next function, until a swap finds an empty slot or the chain reaches its limit (then "
             "the whole table is rebuilt with new constants). A query reads the candidate slots "
             "in order: one 8-byte random access per probe, so a hit costs one to d reads and a "
             "miss always d. The chapter reached 0.25 x 10^9 pairs/s on a GTX 470 (2010); random "
             "memory access, not arithmetic, sets the pace.",
             {"block"}}};
  return {{"cuckoo",
           "cuckoo hash table (chapter 4), OpenMP",
           "The same insertion as the CUDA kernel, one OpenMP thread per key with atomic "
           "exchanges (std::atomic_ref), and the same lookups: the reference the CUDA table is "
           "compared with.",
           {}}};
}

CuckooParams VoxhashModule::cuckooParams() const {
  CuckooParams c;
  c.functions = int(params().getInt("functions"));
  c.sizeFactor = params().getFloat("size_factor");
  c.chainFactor = params().getFloat("chain_factor");
  c.family = params().getText("family") == "xor" ? HashFamily::Xor : HashFamily::Multiplicative;
  c.maxAttempts = int(params().getInt("attempts"));
  return c;
}

void VoxhashModule::buildLab() {
  lab_ = backend_ == Backend::Cuda
             ? makeCudaHashLab(gpuTimings_, std::stoi(params().getText("block")))
             : makeCpuHashLab(cpuTimings_);
}

void VoxhashModule::reset() {
  const std::size_t keys = std::size_t(params().getInt("keys"));
  const auto seed = std::uint32_t(params().getInt("seed"));
  lab_->setKeys(keys, seed);
  lab_->step(cuckooParams(), seed, 1);  // a table to look at
  built_ = {cuckooParams(), keys, seed};
  setStepCount(0);
  clearTimings();
}

void VoxhashModule::step(int count) {
  if (count <= 0) return;
  // New hash constants every step, so that restarts show how often a build fails.
  lab_->step(cuckooParams(), std::uint64_t(params().getInt("seed")) + stepCount() + 1, count);
  countSteps(count);
}

std::vector<Metric> VoxhashModule::metrics() {
  const LabReport r = lab_->report();
  return {{"restarts", double(r.build.attempts > 0 ? r.build.attempts - 1 : 0)},
          {"load factor", r.build.loadFactor()},
          {"probes per hit", r.probesPerHit},
          {"probes per miss", r.probesPerMiss},
          {"longest chain", double(r.build.longestChain)},
          {"keys lost", double(r.lostKeys)}};
}

std::string VoxhashModule::notes() const {
  const LabReport r = lab_->report();
  std::string text = std::to_string(r.build.slots) + " slots for " + std::to_string(r.build.keys) +
                     " keys; chains fail after " + std::to_string(r.build.chainLimit) +
                     " moves\nchain lengths (moves: keys):";
  // Lengths 1 to 8 one by one, the rest together (the full histogram has kChainBins bins).
  constexpr int kShown = 8;
  const double keys = double(std::max<std::size_t>(r.build.keys, 1));
  std::uint64_t longer = 0;
  for (int b = 0; b < kChainBins; ++b) {
    if (b >= kShown) {
      longer += r.build.chainHistogram[b];
      continue;
    }
    char item[48];
    std::snprintf(item, sizeof item, " %d: %.3g%%", b + 1,
                  100.0 * double(r.build.chainHistogram[b]) / keys);
    text += item;
  }
  char item[48];
  std::snprintf(item, sizeof item, " longer: %.3g%%", 100.0 * double(longer) / keys);
  text += item;
  if (r.lostKeys) text += "\nwarning: " + std::to_string(r.lostKeys) + " keys were not found";
  return text;
}

WorldBox VoxhashModule::world() const {
  const int width = lab_->imageWidth();
  const std::uint32_t slots = std::max<std::uint32_t>(lab_->slots(), 1);
  return {0, 0, double(width), double((slots + width - 1) / width)};
}

std::string VoxhashModule::sizeText() const {
  return std::to_string(params().getInt("keys"));
}

std::vector<FieldView> VoxhashModule::fieldViews() const {
  return {{"slots", "placed by hash function (0: empty)", 0.0f, float(params().getInt("functions")),
           "viridis"}};
}

void VoxhashModule::renderField(const FieldRequest& request, FieldImage& image) {
  lab_->render(request, image);
}

void VoxhashModule::edit(const PointerEdit&) {
  throw InputError("the hash lab has no tools");
}

void VoxhashModule::runAction(const std::string& action) {
  if (action != "new keys") throw InputError("unknown action '" + action + "'");
  setParams({{"seed", (params().getInt("seed") + 1) % 2147483647}});
}

double VoxhashModule::bytesPerWorkUnit() const {
  const CuckooParams c = cuckooParams();
  return buildBytesPerKey(c.sizeFactor) + kHitBytesPerKey +
         missBytesPerKey(c.functions, c.sizeFactor);
}

StateBlob VoxhashModule::saveState() {
  StateBlob state;
  state.meta = {{"steps", stepCount()}};  // the keys and tables follow from the parameters
  return state;
}

void VoxhashModule::restoreState(const StateBlob& state) {
  reset();
  setStepCount(state.meta.at("steps").get<std::uint64_t>());
}

void VoxhashModule::applyParams(const std::vector<std::string>& changed) {
  validate(cuckooParams());
  tableSlots(cuckooParams(), std::size_t(params().getInt("keys")));  // throws when too many
  if (anyOf(changed, {"block"}) && backend_ == Backend::Cuda) buildLab();
  try {
    reset();
  } catch (...) {
    // Refused (no memory for the keys, or no table in all attempts): the parameters go back, and
    // so does the table the user was looking at.
    lab_->setKeys(built_.keys, built_.seed);
    lab_->step(built_.params, built_.seed, 1);
    throw;
  }
}

void VoxhashModule::applySelection(Backend, const StateBlob& state) {
  buildLab();
  restoreState(state);
}

}  // namespace ws::voxhash
