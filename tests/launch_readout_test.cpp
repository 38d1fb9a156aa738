// Launch readouts: the blocks per multiprocessor each resource allows, against counts worked out
// by hand for an H100's multiprocessor, and on a GPU, against the runtime's own occupancy for
// every kernel that a module's step launches (each module records them).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <map>

#include "compute/core/launch_readout.h"
#include "compute/core/module.h"
#include "compute/lbm/lbm_module.h"
#include "compute/life/life_module.h"
#include "compute/reduce/reduce_module.h"
#include "tests/test_support.h"

namespace ws {
namespace {

TEST(OccupancyLimits, NameTheResourceThatRuns) {
  const SmResources h100;  // the defaults: 2048 threads, 32 blocks, 64K registers, 228 KiB
  // 128 registers a thread: a warp takes 4096, 16 warps fit, two blocks of 256.
  OccupancyLimits l = occupancyLimits(h100, 256, 128, 0);
  EXPECT_EQ(l.byRegisters, 2);
  EXPECT_EQ(l.byThreads, 8);
  EXPECT_EQ(l.blocks(), 2);
  EXPECT_EQ(l.limiter(), "registers");
  // 48 KiB of shared memory plus the 1 KiB reserved: four blocks in 228 KiB.
  l = occupancyLimits(h100, 128, 32, 48 * 1024);
  EXPECT_EQ(l.bySharedMemory, 4);
  EXPECT_EQ(l.limiter(), "shared memory");
  // Warps of 32 threads: the 32-block limit comes before the 2048 threads.
  l = occupancyLimits(h100, 32, 16, 0);
  EXPECT_EQ(l.blocks(), 32);
  EXPECT_EQ(l.limiter(), "blocks per SM");
  // 37 registers round up to 40 a thread (1280 a warp): 51 warps, one block of 1024 threads.
  l = occupancyLimits(h100, 1024, 37, 0);
  EXPECT_EQ(l.byRegisters, 1);
  EXPECT_EQ(l.byThreads, 2);
  // A block that needs more registers than a block may have does not launch at all.
  EXPECT_EQ(occupancyLimits(h100, 1024, 72, 0).blocks(), 0);
}

// The readout of one launch against what the runtime says of its kernel.
void expectMatchesRuntime(const KernelLaunch& launch) {
  const LaunchReadout r = readLaunch(launch);
  if (!launch.function) {  // CUB's: named, not read
    EXPECT_FALSE(r.known);
    return;
  }
  cudaFuncAttributes a{};
  ASSERT_EQ(cudaFuncGetAttributes(&a, launch.function), cudaSuccess);
  EXPECT_EQ(r.registers, a.numRegs);
  EXPECT_EQ(r.staticShared, a.sharedSizeBytes);
  EXPECT_EQ(r.spillBytes, a.localSizeBytes);
  int blocks = 0;
  const int threads = int(launch.block[0] * launch.block[1] * launch.block[2]);
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, launch.function, threads,
                                                          launch.dynamicShared),
            cudaSuccess);
  EXPECT_EQ(r.blocksPerSm, blocks);
  // Our per-resource model agrees with the runtime, so the limiter it names is right.
  EXPECT_EQ(r.limits.blocks(), blocks) << "limiter " << r.limits.limiter();
  EXPECT_GT(r.occupancy, 0.0);
  EXPECT_LE(r.occupancy, 1.0);
}

TEST(LaunchReadout, MatchesTheRuntimeForEveryLabKernel) {
  WS_REQUIRE_GPU();
  int checked = 0;
  for (const char* operation : {"reduce", "exclusive scan"})
    for (const char* block : {"32", "128", "1024"}) {
      reduce::ReduceModule m(Backend::Cuda);
      m.setParams({{"operation", std::string(operation)},
                   {"block", std::string(block)},
                   {"size", std::int64_t(1) << 20}});
      for (const auto& v : m.variants(Backend::Cuda)) {
        m.select(Backend::Cuda, v.name);
        m.step(1);
        for (const KernelLaunch& launch : m.launches()) {
          SCOPED_TRACE(v.name + ": " + launch.name + ", block " + block);
          expectMatchesRuntime(launch);
          ++checked;
        }
      }
    }
  EXPECT_GT(checked, 20);
}

TEST(LaunchReadout, MatchesTheRuntimeForEveryLifeKernel) {
  WS_REQUIRE_GPU();
  life::LifeModule life(Backend::Cuda);
  life.setSize("512x256");
  int checked = 0;
  for (const char* mapping : {"row-major", "column-major"})
    for (const char* shape : {"64x4", "16x16", "256x1"})
      for (const auto& v : life.variants(Backend::Cuda)) {
        life.setParams({{"mapping", std::string(mapping)}, {"block", std::string(shape)}});
        life.select(Backend::Cuda, v.name);
        life.step(4);
        ASSERT_FALSE(life.launches().empty()) << v.name;
        for (const KernelLaunch& launch : life.launches()) {
          SCOPED_TRACE(v.name + ": " + launch.name + ", " + shape + ", " + mapping);
          EXPECT_NE(launch.function, nullptr);
          expectMatchesRuntime(launch);
          ++checked;
        }
      }
  EXPECT_GT(checked, 40);
}

TEST(LaunchReadout, MatchesTheRuntimeForEveryLbmKernel) {
  WS_REQUIRE_GPU();
  int checked = 0;
  for (const char* lattice : {"d2q9", "d3q19"}) {
    lbm::LbmModule flow(Backend::Cuda);
    flow.setSize("64x32");  // small before the lattice changes: D3Q19 would take the default's
    flow.setParamText("lattice", lattice);
    flow.setSize(std::string(lattice) == "d2q9" ? "256x128" : "64x32x32");
    for (const auto& v : flow.variants(Backend::Cuda)) {
      flow.select(Backend::Cuda, v.name);
      flow.step(2);  // an even and an odd step (A-A launches a kernel for each)
      ASSERT_FALSE(flow.launches().empty()) << v.name;
      for (const KernelLaunch& launch : flow.launches()) {
        SCOPED_TRACE(std::string(lattice) + " " + v.name + ": " + launch.name);
        EXPECT_NE(launch.function, nullptr);
        expectMatchesRuntime(launch);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 16);
}

// Every module records the kernels of its step, and each readout matches the runtime.
TEST(LaunchReadout, EveryModuleRecordsTheKernelsOfItsStep) {
  WS_REQUIRE_GPU();
  const std::map<std::string, std::string> sizes = {
      {"life", "256x128"}, {"lbm", "128x64"},   {"graph", "2000"},           {"mesh", "2562"},
      {"voxhash", "32^3"}, {"reduce", "65536"}, {"cahn-hilliard", "100x77"}, {"poisson", "64"}};
  for (const ModuleEntry& entry : moduleRegistry()) {
    std::unique_ptr<Module> m = entry.create(Backend::Cuda);
    ASSERT_TRUE(sizes.count(entry.name)) << "no small size for " << entry.name;
    m->setSize(sizes.at(entry.name));
    for (const KernelVariant& v : m->variants(Backend::Cuda)) {
      SCOPED_TRACE(entry.name + "/" + v.name);
      m->select(Backend::Cuda, v.name);
      m->step(2);
      m->synchronize();
      const std::vector<KernelLaunch> launches = m->launches();
      EXPECT_FALSE(launches.empty());
      for (const KernelLaunch& launch : launches) {
        SCOPED_TRACE(launch.name);
        expectMatchesRuntime(launch);
      }
    }
  }
}

}  // namespace
}  // namespace ws
