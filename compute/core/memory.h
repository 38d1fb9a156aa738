#pragma once
// How much memory a change may take, checked before anything is allocated, so that a size too
// large for this machine is a message, not a crash; and byte counts in words.
#include <cstddef>
#include <string>

namespace ws {

std::string formatBytes(double bytes);

// Throws OutOfMemoryError unless `bytes` (plus what the caller will give back first,
// `releasedBytes`) fits in the device memory free now, keeping a small reserve for the display.
void requireDeviceMemory(double bytes, double releasedBytes, const std::string& what);

// Throws OutOfMemoryError when `bytes` of host memory for `what` ("a 4096x4096 grid") would take
// more than half of this machine's memory (the CPU backend's limit), more than is available now,
// or more than a limit set with limitHostMemory().
void requireHostMemory(double bytes, const std::string& what);
// A lower bound for requireHostMemory() than the machine's (the fuzz targets run every input
// within one); 0 lifts it.
void limitHostMemory(double bytes);

// Copies `bytes` from host memory into an array a view was given to write, which is device memory
// (`onDevice`: a GL buffer mapped for CUDA) or host memory.
void copyToView(void* to, const void* from, std::size_t bytes, bool onDevice);

}  // namespace ws
