#include "compute/core/launch_readout.h"

#include <algorithm>

#include "compute/core/errors.h"
#if WS_WITH_CUDA
#include <cuda_runtime_api.h>

#include "compute/core/cuda_check.h"
#endif

namespace ws {

namespace {

int roundUp(int value, int unit) {
  return (value + unit - 1) / unit * unit;
}

}  // namespace

int OccupancyLimits::blocks() const {
  return std::min({byThreads, byBlocks, byRegisters, bySharedMemory});
}

std::string OccupancyLimits::limiter() const {
  const int b = blocks();
  // In order of what a user can change most easily.
  if (byRegisters == b) return "registers";
  if (bySharedMemory == b) return "shared memory";
  if (byThreads == b) return "threads per SM";
  return "blocks per SM";
}

OccupancyLimits occupancyLimits(const SmResources& sm, int blockThreads, int registersPerThread,
                                std::size_t sharedPerBlock) {
  OccupancyLimits l;
  const int warps = (blockThreads + 31) / 32;
  l.byThreads = sm.maxThreads / (warps * 32);
  l.byBlocks = sm.maxBlocks;
  const int registersPerWarp = roundUp(std::max(registersPerThread, 1) * 32, sm.registerUnit);
  l.byRegisters = registersPerWarp * warps > sm.maxRegistersPerBlock
                      ? 0
                      : (sm.registers / registersPerWarp) / warps;
  const int shared = roundUp(int(sharedPerBlock) + sm.reservedSharedPerBlock, sm.sharedUnit);
  l.bySharedMemory = sm.sharedBytes / shared;
  return l;
}

SmResources smResources() {
#if !WS_WITH_CUDA
  throw InputError("this build has no CUDA backend: there is no GPU to read");
#else
  int device = 0;
  WS_CUDA_CHECK(cudaGetDevice(&device));
  const auto get = [&](cudaDeviceAttr attribute) {
    int value = 0;
    WS_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    return value;
  };
  SmResources sm;
  sm.maxThreads = get(cudaDevAttrMaxThreadsPerMultiProcessor);
  sm.maxBlocks = get(cudaDevAttrMaxBlocksPerMultiprocessor);
  sm.registers = get(cudaDevAttrMaxRegistersPerMultiprocessor);
  sm.maxRegistersPerBlock = get(cudaDevAttrMaxRegistersPerBlock);
  sm.sharedBytes = get(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  sm.reservedSharedPerBlock = get(cudaDevAttrReservedSharedMemoryPerBlock);
  return sm;
#endif
}

LaunchReadout readLaunch(const KernelLaunch& launch) {
  LaunchReadout r;
  r.launch = launch;
#if WS_WITH_CUDA
  if (!launch.function) return r;
  cudaFuncAttributes attributes{};
  WS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, launch.function));
  r.known = true;
  r.registers = attributes.numRegs;
  r.maxThreadsPerBlock = attributes.maxThreadsPerBlock;
  r.staticShared = attributes.sharedSizeBytes;
  r.spillBytes = attributes.localSizeBytes;
  const int threads = int(launch.block[0] * launch.block[1] * launch.block[2]);
  WS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.blocksPerSm, launch.function,
                                                              threads, launch.dynamicShared));
  const SmResources sm = smResources();
  r.limits = occupancyLimits(sm, threads, r.registers, r.staticShared + launch.dynamicShared);
  r.occupancy = double(r.blocksPerSm * ((threads + 31) / 32)) / (sm.maxThreads / 32);
  int multiprocessors = 0;
  WS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0));
  const long long perWave = std::max(1LL, 1LL * r.blocksPerSm * multiprocessors);
  const long long blocks = 1LL * launch.grid[0] * launch.grid[1] * launch.grid[2];
  r.waves = int((blocks + perWave - 1) / perWave);
#endif
  return r;  // unknown in a build without CUDA (which launches nothing)
}

std::vector<KernelLaunch>*& launchLog() {
  thread_local std::vector<KernelLaunch>* log = nullptr;
  return log;
}

}  // namespace ws
