// The voxel hash module's hash tables through the module contract, on the CPU and (where present)
// the GPU: every step's table holds every key whichever way keys enter, the table image shows one
// pixel per slot (the lab's table, and each model's in the intersection), and refused or cancelled
// changes leave the table as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "compute/core/errors.h"
#include "compute/core/progress.h"
#include "compute/voxhash/cuckoo.h"
#include "compute/voxhash/hash_lab.h"
#include "compute/voxhash/voxels.h"
#include "compute/voxhash/voxhash_module.h"
#include "tests/test_support.h"

namespace ws::voxhash {
namespace {

std::unique_ptr<VoxhashModule> lab(Backend backend, std::int64_t keys) {
  auto m = std::make_unique<VoxhashModule>(backend);
  m->setParams({{"workload", std::string("random keys")},
                {"keys", keys},
                {"seed", std::int64_t(ws::test::freshSeed() % 2147483647)}});
  return m;
}

// The table image at one pixel per slot: how many slots each function filled, and the empty ones.
std::vector<std::size_t> slotCounts(VoxhashModule& m, int functions) {
  const WorldBox w = m.world();
  FieldRequest request;
  request.width = int(w.maxX);
  request.height = int(w.maxY);
  std::vector<float> pixels(std::size_t(request.width) * request.height);
  FieldImage image{pixels.data(), request.width, request.height, false};
  m.renderField(request, image);
  std::vector<std::size_t> counts(functions + 1, 0);
  for (float v : pixels)
    if (!std::isnan(v)) ++counts.at(std::size_t(v));
  return counts;
}

// With `bucket` slots a bucket (then 2 functions, else 4).
void expectEveryKeyPlaced(Backend backend, const std::string& insertion, int bucket = 1) {
  SCOPED_TRACE("insertion " + insertion + ", buckets of " + std::to_string(bucket));
  const int functions = bucket > 1 ? 2 : 4;
  auto m = lab(backend, 30000);
  m->setParams({{"insertion", insertion},
                {"bucket", std::to_string(bucket)},
                {"functions", std::int64_t(functions)}});
  EXPECT_EQ(m->applies("insertion"), bucket == 1);  // a bucketed table always looks
  m->step(3);
  const LabReport r = m->labReport();
  EXPECT_EQ(r.lostKeys, 0u);
  EXPECT_EQ(r.build.keys, 30000u);
  EXPECT_EQ(r.build.slots, 37500u);
  // A miss reads up to the first candidate bucket with an empty slot: with one slot, on average
  // 1 + 0.8 + 0.8^2 + 0.8^3 of them at 1.25 slots per key (30000 keys: a standard error near
  // 0.006); with buckets of 4 and 2 functions 1.56 at 2^25 keys (H200, run 74).
  if (bucket == 1)
    EXPECT_NEAR(r.probesPerMiss, 2.952, 0.05);
  else
    EXPECT_LT(r.probesPerMiss, 1.8);
  const std::vector<std::size_t> counts = slotCounts(*m, functions);
  EXPECT_EQ(counts[0], r.build.slots - r.build.keys);  // empty slots
  std::size_t placed = 0, probes = 0;
  for (int i = 1; i <= functions; ++i) {
    placed += counts[i];
    probes += i * counts[i];  // a key placed by function i is found at the i-th bucket read
  }
  EXPECT_EQ(placed, r.build.keys);
  EXPECT_DOUBLE_EQ(r.probesPerHit, double(probes) / double(r.build.keys));
  EXPECT_GT(counts[1], counts[functions]);  // the first function places the most
  // Every bucket in one image row: rows hold whole buckets.
  EXPECT_EQ(m->world().maxX, double(tableImageWidth(r.build.slots)));
  EXPECT_EQ(tableImageWidth(r.build.slots) % 16, 0);
}

// The hash lab's key patterns: each gives its 2n keys distinct and none the empty marker, laid out
// as its name says.
TEST(HashLabKeys, EachPatternGivesDistinctKeysLaidOutAsNamed) {
  const auto seed = std::uint32_t(ws::test::freshSeed());
  constexpr std::uint32_t n = 40000;
  for (const KeyPattern pattern :
       {KeyPattern::Random, KeyPattern::Sequential, KeyPattern::Strided, KeyPattern::Bricks}) {
    SCOPED_TRACE("pattern " + std::to_string(int(pattern)) + ", seed " + std::to_string(seed));
    std::vector<std::uint32_t> keys(2 * n);
    for (std::uint32_t i = 0; i < 2 * n; ++i) {
      keys[i] = labKey(i, seed, pattern);
      const std::uint32_t shift = patternKey(i, seed, pattern) - patternKey(0, seed, pattern);
      if (pattern == KeyPattern::Sequential) EXPECT_EQ(shift, i);
      if (pattern == KeyPattern::Strided) EXPECT_EQ(shift, i * 4096u);
      if (pattern == KeyPattern::Bricks) EXPECT_LT(keys[i], 1u << 30);
    }
    if (pattern == KeyPattern::Bricks) {  // the first 4096 keys fill one 16^3 brick
      int lo[3] = {1 << 10, 1 << 10, 1 << 10}, hi[3] = {-1, -1, -1};
      for (std::uint32_t i = 0; i < 4096; ++i) {
        int c[3];
        unpackVoxel(keys[i], c[0], c[1], c[2]);
        for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], c[a]), hi[a] = std::max(hi[a], c[a]);
      }
      for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(lo[a] % 16, 0);
        EXPECT_EQ(hi[a] - lo[a], 15);
      }
    }
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());  // all distinct
    EXPECT_NE(keys.back(), kEmptyKey);
  }
  // The one index that would give the empty marker gets the key of index 2^32 - 1, which no lab
  // reaches.
  const std::uint32_t empty = kEmptyKey - mix32(seed);
  EXPECT_EQ(patternKey(empty, seed, KeyPattern::Sequential), kEmptyKey);
  EXPECT_EQ(labKey(empty, seed, KeyPattern::Sequential), mix32(seed) - 1);
}

TEST(HashLabKeys, TheBricksAreScatteredByABijection) {
  std::vector<bool> seen(1u << 18, false);
  for (std::uint32_t x = 0; x < (1u << 18); ++x) {
    const std::uint32_t y = mix18(x);
    ASSERT_LT(y, 1u << 18);
    ASSERT_FALSE(seen[y]) << x;
    seen[y] = true;
  }
}

// Why the XOR family fails strided keys (its builds restart or give up, the lab shows): their low
// twelve bits are alike, so (a xor k) + b is alike modulo 4, or one more where the sum passes p
// (2^32 = 5 mod p), and in a table of a multiple of 4 slots each function reaches half the slots
// at most. (The multiplicative family's slots for them follow k a / p modulo 1 along a line, which
// reaches every residue, though it can bunch: 3,500 to 30,000 distinct slots a function.)
TEST(HashLabKeys, TheXorFamilySendsStridedKeysToHalfTheSlotsAtMost) {
  const std::uint64_t seed = ws::test::freshSeed();
  constexpr std::uint32_t n = 30000, slots = 37500;
  CuckooParams params;
  params.family = HashFamily::Xor;
  const HashFunctions f = drawFunctions(params, slots, seed, 0);
  for (int i = 0; i < f.count; ++i) {
    std::vector<bool> reached(slots, false);
    std::uint32_t distinct = 0;
    bool residues[4] = {};
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t slot = f.slot(i, labKey(k, std::uint32_t(seed), KeyPattern::Strided));
      distinct += !reached[slot];
      reached[slot] = true;
      residues[slot % 4] = true;
    }
    EXPECT_LE(distinct, slots / 2) << "function " << i << ", seed " << seed;
    EXPECT_LE(residues[0] + residues[1] + residues[2] + residues[3], 2)
        << "function " << i << ", seed " << seed;
  }
}

// Every key pattern through the lab, multiplicative (the family that holds up for all): every key
// placed and found.
void expectEveryPatternPlaced(Backend backend) {
  for (const char* pattern : {"random", "sequential", "strided", "voxel bricks"}) {
    SCOPED_TRACE(pattern);
    auto m = lab(backend, 30000);
    m->setParam("key_pattern", std::string(pattern));
    m->step(2);
    const LabReport r = m->labReport();
    EXPECT_EQ(r.lostKeys, 0u);
    EXPECT_EQ(r.build.keys, 30000u);
    EXPECT_GE(r.probesPerHit, 1.0);
    EXPECT_LE(r.probesPerHit, 4.0);
  }
}

TEST(VoxhashModule, EveryKeyPatternIsPlacedAndFound) {
  expectEveryPatternPlaced(Backend::Cpu);
}

TEST(VoxhashModule, EveryKeyPatternIsPlacedAndFoundOnTheGpu) {
  WS_REQUIRE_GPU();
  expectEveryPatternPlaced(Backend::Cuda);
}

TEST(VoxhashModule, EveryStepsTableHoldsEveryKeyAndTheImageShowsEachSlot) {
  for (const char* insertion : {"exchange", "look"}) expectEveryKeyPlaced(Backend::Cpu, insertion);
  expectEveryKeyPlaced(Backend::Cpu, "exchange", 4);
}

TEST(VoxhashModule, EveryStepsTableHoldsEveryKeyAndTheImageShowsEachSlotOnTheGpu) {
  WS_REQUIRE_GPU();
  for (const char* insertion : {"exchange", "look"}) expectEveryKeyPlaced(Backend::Cuda, insertion);
  expectEveryKeyPlaced(Backend::Cuda, "exchange", 4);
}

// The intersection's view of A's or B's table: one occupied slot per voxel of that model, the
// 3-D scene gone while a table is shown; no table at all when the frame used another structure.
void expectTablesShownPerModel(Backend backend) {
  VoxhashModule m(backend);
  m.setSize("64^3");
  m.step(2);
  const FrameReport report = m.frameReport();
  for (int model = 0; model < 2; ++model) {
    SCOPED_TRACE(model == 0 ? "table of A" : "table of B");
    m.setParam("view", std::string(model == 0 ? "table-a" : "table-b"));
    EXPECT_FALSE(m.voxelScene());
    const std::vector<std::size_t> counts = slotCounts(m, 4);
    std::size_t placed = 0, slots = counts[0];
    for (int i = 1; i <= 4; ++i) placed += counts[i];
    slots += placed;
    EXPECT_EQ(placed, report.voxels[model]);
    EXPECT_EQ(slots, report.builds[model].slots);
    EXPECT_GT(counts[1], counts[4]);  // the first function places more than the last
  }
  m.setParam("view", std::string("voxels"));
  EXPECT_TRUE(m.voxelScene());
  std::vector<float> pixel(1);
  FieldImage image{pixel.data(), 1, 1, false};
  EXPECT_THROW(m.renderField(FieldRequest{}, image), InputError);  // the voxels are 3-D

  m.select(backend, "sorted");
  m.setParam("view", std::string("table-a"));
  FieldRequest request;
  request.width = request.height = 1;
  m.renderField(request, image);
  EXPECT_TRUE(std::isnan(pixel[0]));  // no table to show
}

TEST(VoxhashModule, TheIntersectionShowsEachModelsTable) {
  expectTablesShownPerModel(Backend::Cpu);
}

TEST(VoxhashModule, TheIntersectionShowsEachModelsTableOnTheGpu) {
  WS_REQUIRE_GPU();
  expectTablesShownPerModel(Backend::Cuda);
}

TEST(VoxhashModule, RefusedChangesLeaveTheTableAsItWas) {
  auto m = lab(Backend::Cpu, 20000);
  m->step(2);
  const LabReport before = m->labReport();
  const auto params = m->params().toJson();
  EXPECT_THROW(m->setParam("size_factor", 1.0), InputError);  // out of range
  EXPECT_THROW(m->setParam("functions", std::int64_t(6)), InputError);
  // Two functions in 1.02 slots per key cannot be built: the build gives up.
  try {
    m->setParams(
        {{"functions", std::int64_t(2)}, {"size_factor", 1.02}, {"attempts", std::int64_t(2)}});
    FAIL() << "an impossible table was built";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("could not be built"), std::string::npos) << e.what();
  }
  EXPECT_EQ(m->params().toJson(), params);
  EXPECT_EQ(m->stepCount(), 2u);
  const LabReport after = m->labReport();
  EXPECT_EQ(after.build.slots, before.build.slots);
  EXPECT_EQ(after.lostKeys, 0u);
  EXPECT_EQ(slotCounts(*m, 4)[0], after.build.slots - after.build.keys);
}

// Cancels, from another thread, the work this thread reports to once it reports `phase`.
class CancelAtPhase {
 public:
  explicit CancelAtPhase(std::string phase)
      : reporting_(progress_), watcher_([this, phase = std::move(phase)] {
          while (!finished_) {
            if (progress_.now().what == phase) {
              progress_.cancel();
              return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
        }) {}
  ~CancelAtPhase() {
    finished_ = true;
    watcher_.join();
  }
  CancelAtPhase(const CancelAtPhase&) = delete;
  CancelAtPhase& operator=(const CancelAtPhase&) = delete;

 private:
  Progress progress_;
  const ReportingTo reporting_;
  std::atomic<bool> finished_{false};
  std::thread watcher_;  // last: started once the rest is made
};

// Cancels `change` of a lab of 2^20 keys on `backend` while the CPU builds a table (some 0.3 s on
// two cores) and expects the lab as it was: the parameters, the backend, every key in a table of
// as many slots. (The table is built again from the same keys: the OpenMP build may place a key
// by another of its functions.)
void expectCancelledChangeGoesBack(Backend backend,
                                   const std::function<void(VoxhashModule&)>& change) {
  auto m = lab(backend, 1 << 20);
  m->step(1);
  const LabReport before = m->labReport();
  const auto params = m->params().toJson();
  const std::size_t emptySlots = slotCounts(*m, 4)[0];
  try {
    const CancelAtPhase cancel("building the hash lab's table");
    change(*m);
    FAIL() << "the set-up was not cancelled";
  } catch (const Cancelled& e) {
    EXPECT_NE(std::string(e.what()).find("building the hash lab's table"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(m->params().toJson(), params);
  EXPECT_EQ(m->backend(), backend);
  EXPECT_EQ(m->stepCount(), 1u);
  EXPECT_EQ(m->labReport().build.keys, before.build.keys);
  EXPECT_EQ(m->labReport().build.slots, before.build.slots);
  EXPECT_EQ(m->labReport().lostKeys, 0u);
  EXPECT_EQ(slotCounts(*m, 4)[0], emptySlots);
}

TEST(VoxhashModule, ACancelledSetUpPutsBackTheTableItShowed) {
  // Millions of keys take seconds on the CPU: the hash lab's set-up says where it is, and
  // cancelled while it builds the table (its keys already made), the change goes back.
  expectCancelledChangeGoesBack(
      Backend::Cpu, [](VoxhashModule& m) { m.setParam("keys", std::int64_t(1) << 19); });
}

TEST(VoxhashModule, ACancelledSwitchToTheCpuPutsBackTheGpusTable) {
  // The switch's way back (Module::select) runs to its end, although the work was cancelled.
  WS_REQUIRE_GPU();
  expectCancelledChangeGoesBack(Backend::Cuda,
                                [](VoxhashModule& m) { m.select(Backend::Cpu, ""); });
}

// A parameter the running workload does not read, or one that changes only what is drawn, keeps
// the state as it is (no rebuild: the timings go on); one it reads rebuilds it. A refused switch of
// workload leaves the one shown.
TEST(VoxhashModule, OnlyWhatTheWorkloadReadsRebuildsIt) {
  auto m = lab(Backend::Cpu, 5000);
  for (int i = 0; i < 4; ++i) m->step(1);  // past the timing's warm-up samples
  const std::size_t samples = m->stepTiming().historyMs().size();
  ASSERT_GT(samples, 0u);
  m->setParams(
      {{"resolution", std::int64_t(32)}, {"view", std::string("table-a")}, {"show_a", false}});
  EXPECT_EQ(m->stepTiming().historyMs().size(), samples);
  m->setParam("functions", std::int64_t(3));
  EXPECT_EQ(m->stepTiming().historyMs().size(), 0u);
  EXPECT_EQ(m->stepCount(), 4u);

  VoxhashModule x(Backend::Cpu);
  x.setSize("32^3");
  for (int i = 0; i < 4; ++i) x.step(1);
  const FrameReport before = x.frameReport();
  const std::size_t frames = x.stepTiming().historyMs().size();
  ASSERT_GT(frames, 0u);
  x.setParams({{"keys", std::int64_t(7)}, {"show_contact", false}});
  EXPECT_EQ(x.stepTiming().historyMs().size(), frames);
  ASSERT_TRUE(x.voxelScene());
  EXPECT_EQ(x.voxelScene()->visibleClasses, 0b11011u);

  const auto params = x.params().toJson();
  EXPECT_THROW(x.setParams({{"workload", std::string("random keys")},
                            {"keys", std::int64_t(20000)},
                            {"functions", std::int64_t(2)},
                            {"size_factor", 1.02},
                            {"attempts", std::int64_t(2)}}),
               InputError);
  EXPECT_EQ(x.params().toJson(), params);
  EXPECT_EQ(x.stepCount(), 4u);
  EXPECT_EQ(x.frameReport().voxels[0], before.voxels[0]);
  EXPECT_THROW(x.labReport(), std::logic_error);
}

}  // namespace
}  // namespace ws::voxhash
