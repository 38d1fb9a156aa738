// The voxel hash module's hash lab through the module contract, on the CPU and (where present) the
// GPU: every step's table holds every key, the table image shows one pixel per slot, and refused
// changes leave the table as it was.
#include <gtest/gtest.h>

#include <cmath>

#include "compute/core/errors.h"
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

void expectEveryKeyPlaced(Backend backend) {
  auto m = lab(backend, 30000);
  m->step(3);
  const LabReport r = m->labReport();
  EXPECT_EQ(r.lostKeys, 0u);
  EXPECT_EQ(r.build.keys, 30000u);
  EXPECT_EQ(r.build.slots, 37500u);
  // A miss reads up to the first empty candidate slot: on average 1 + 0.8 + 0.8^2 + 0.8^3 of them
  // at 1.25 slots per key (30000 keys: a standard error near 0.006).
  EXPECT_NEAR(r.probesPerMiss, 2.952, 0.05);
  const std::vector<std::size_t> counts = slotCounts(*m, 4);
  EXPECT_EQ(counts[0], r.build.slots - r.build.keys);  // empty slots
  std::size_t placed = 0, probes = 0;
  for (int i = 1; i <= 4; ++i) {
    placed += counts[i];
    probes += i * counts[i];  // a key placed by function i is found at the i-th probe
  }
  EXPECT_EQ(placed, r.build.keys);
  EXPECT_DOUBLE_EQ(r.probesPerHit, double(probes) / double(r.build.keys));
  EXPECT_GT(counts[1], counts[4]);  // the first function places the most
}

TEST(VoxhashModule, EveryStepsTableHoldsEveryKeyAndTheImageShowsEachSlot) {
  expectEveryKeyPlaced(Backend::Cpu);
}

TEST(VoxhashModule, EveryStepsTableHoldsEveryKeyAndTheImageShowsEachSlotOnTheGpu) {
  WS_REQUIRE_GPU();
  expectEveryKeyPlaced(Backend::Cuda);
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

}  // namespace
}  // namespace ws::voxhash
