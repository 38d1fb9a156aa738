#include "compute/voxhash/keys_workload.h"

#include <iterator>
#include <string>

#include "compute/core/errors.h"
#include "compute/core/progress.h"

namespace ws::voxhash {

namespace {

constexpr std::int64_t kMaxKeys = std::int64_t(1) << 27;

// The key_pattern choices, in KeyPattern's order.
constexpr const char* kPatternNames[] = {"random", "sequential", "strided", "voxel bricks"};

KeyPattern patternOf(const std::string& name) {
  for (std::size_t i = 0; i < std::size(kPatternNames); ++i)
    if (name == kPatternNames[i]) return KeyPattern(i);
  throw InputError("key_pattern: expected random, sequential, strided or voxel bricks");
}

}  // namespace

KeysWorkload::KeysWorkload(Backend backend, LabTimings timings, int block)
    : timings_(timings),
      lab_(backend == Backend::Cuda ? makeCudaHashLab(timings, block) : makeCpuHashLab(timings)) {}

void KeysWorkload::declareParams(ParamSet& p, bool gpu) {
  ParamSpec keys = ParamSpec::integer("keys", "keys", gpu ? 1 << 22 : 1 << 18, 1, double(kMaxKeys),
                                      "the hash lab: unique 32-bit keys (laid out as key_pattern "
                                      "says) built into the table each step");
  keys.logScale = true;
  p.declare(keys);
  p.declare(ParamSpec::choice(
      "key_pattern", "key pattern", kPatternNames[0],
      {std::begin(kPatternNames), std::end(kPatternNames)},
      "how the keys lie: random 32-bit keys (the chapter's); consecutive integers; a stride of "
      "4096 (the low 12 bits alike); or voxel keys (x | y << 10 | z << 20) filling 16^3 bricks "
      "scattered in a 1024^3 grid, as the intersection's come. Compare the hash families on each: "
      "one that holds up places them all alike"));
}

void KeysWorkload::rebuild(const ParamSet& p, const std::string&, std::uint64_t step) {
  Config c{std::size_t(p.getInt("keys")), cuckooParamsOf(p), std::uint64_t(p.getInt("seed"))};
  validate(c.cuckoo);
  tableSlots(c.cuckoo, c.keys);  // throws when too many
  // Millions of keys take seconds on the CPU (2^24: some 8 s on two cores): the set-up says where
  // it is and stops between its phases when cancelled (the module then puts back what it showed).
  const char* building = "building the hash lab's table";
  progress::report("making the hash lab's keys", 0, 2);
  lab_->setKeys(c.keys, std::uint32_t(c.seed), patternOf(p.getText("key_pattern")));
  progress::report(building, 1, 2);
  lab_->step(c.cuckoo, c.seed + step, 1);
  progress::report(building, 1, 2);  // throws when cancelled during the build
  config_ = c;
}

void KeysWorkload::advance(std::uint64_t first, int count) {
  // New hash constants every step, so that restarts show how often a build fails.
  lab_->step(config_.cuckoo, config_.seed + first, count);
}

std::vector<Metric> KeysWorkload::metrics() {
  const LabReport r = lab_->report();
  std::vector<Metric> m = chainMetrics(r.build);
  m.push_back({"probes per hit", r.probesPerHit});
  m.push_back({"probes per miss", r.probesPerMiss});
  m.push_back({"keys lost", double(r.lostKeys)});
  return m;
}

std::string KeysWorkload::notes() const {
  const LabReport r = lab_->report();
  std::string text = chainNotes(r.build);
  if (r.lostKeys) text += "\nwarning: " + std::to_string(r.lostKeys) + " keys were not found";
  return text;
}

std::vector<Histogram> KeysWorkload::histograms() const {
  return {chainHistogram(lab_->report().build, "eviction chains (% of keys)")};
}

WorldBox KeysWorkload::world() const {
  const std::uint32_t slots = std::max<std::uint32_t>(lab_->slots(), 1);
  const int width = tableImageWidth(slots);
  return {0, 0, double(width), double((slots + width - 1) / width)};
}

std::vector<std::string> KeysWorkload::sweepSizes() const {
  return {"2^10", "2^12", "2^14", "2^16", "2^18", "2^20", "2^22", "2^24"};
}

double KeysWorkload::bytesPerWorkUnit() const {
  const CuckooParams& c = config_.cuckoo;
  return labBytesPerKey(c, c.sizeFactor).all();
}

std::optional<OpModel> KeysWorkload::opsPerWorkUnit() const {
  const CuckooParams& c = config_.cuckoo;
  return OpModel{labOpsPerKey(c, c.sizeFactor), OpKind::Int32};
}

}  // namespace ws::voxhash
