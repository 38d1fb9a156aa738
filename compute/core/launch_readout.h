#pragma once
// Launch readouts: what a kernel costs each thread and block (registers, shared memory, spills,
// from cudaFuncGetAttributes) and how many of its blocks fit on one multiprocessor
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor), with the resource that limits them.
#include <string>

#include "compute/core/launch.h"

namespace ws {

// What one multiprocessor offers, from the device's attributes.
struct SmResources {
  int maxThreads = 2048, maxBlocks = 32, registers = 65536, maxRegistersPerBlock = 65536;
  int sharedBytes = 233472;           // per multiprocessor, the largest carve-out
  int reservedSharedPerBlock = 1024;  // the system's share of each block's
  int registerUnit = 256;             // registers are given to a warp in units of this many
  int sharedUnit = 128;               // and shared memory to a block in units of this many bytes
};

// The blocks per multiprocessor each resource allows for a kernel of this shape.
struct OccupancyLimits {
  int byThreads = 0, byBlocks = 0, byRegisters = 0, bySharedMemory = 0;
  int blocks() const;           // the smallest: what fits
  std::string limiter() const;  // the resource that gives the smallest ("registers", ...)
};
OccupancyLimits occupancyLimits(const SmResources& sm, int blockThreads, int registersPerThread,
                                std::size_t sharedPerBlock);

struct LaunchReadout {
  KernelLaunch launch;
  bool known = false;  // false for a library call (CUB) whose kernels are not ours to name
  int registers = 0, maxThreadsPerBlock = 0;
  // spillBytes: local memory per thread (cudaFuncAttributes::localSizeBytes): register spills,
  // and arrays the compiler could not keep in registers.
  std::size_t staticShared = 0, spillBytes = 0;
  int blocksPerSm = 0;     // the runtime's answer
  OccupancyLimits limits;  // ours, per resource, which name the limiter
  double occupancy = 0;    // active warps over the most a multiprocessor holds
  int waves = 0;           // the grid over (blocks per SM x SMs), rounded up
};

// Throws CudaError when the runtime cannot read the kernel.
SmResources smResources();
LaunchReadout readLaunch(const KernelLaunch& launch);

}  // namespace ws
