#include "compute/core/memory.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "compute/core/errors.h"
#if WS_WITH_CUDA
#include <cuda_runtime_api.h>

#include "compute/core/cuda_check.h"
#endif

namespace ws {

std::string formatBytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 4) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

void requireDeviceMemory(double bytes, double releasedBytes, const std::string& what) {
#if WS_WITH_CUDA
  std::size_t freeBytes = 0, totalBytes = 0;
  WS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  const double reserve = 256.0 * 1024 * 1024;  // display, interop buffers, CUB scratch
  if (bytes + reserve > static_cast<double>(freeBytes) + releasedBytes) {
    throw OutOfMemoryError(what + " needs " + formatBytes(bytes) + " of GPU memory; " +
                           formatBytes(static_cast<double>(freeBytes) + releasedBytes) +
                           " is available (of " + formatBytes(static_cast<double>(totalBytes)) +
                           ")");
  }
#else
  (void)releasedBytes;
  throw OutOfMemoryError(what + " needs " + formatBytes(bytes) +
                         " of GPU memory, and this build has no CUDA backend");
#endif
}

namespace {

// The memory the kernel says is available now (MemAvailable), or none known.
double availableHostBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(256, '\n');
  }
  return -1;
}

std::atomic<double> setLimit{0};

}  // namespace

void limitHostMemory(double bytes) {
  setLimit = bytes;
}

void requireHostMemory(double bytes, const std::string& what) {
  const double half = 0.5 * double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  const double available = availableHostBytes();
  const bool lessIsFree = available >= 0 && available < half;
  double limit = lessIsFree ? available : half;
  const char* why = lessIsFree ? " is available now" : " is the limit (half of this machine's)";
  if (setLimit > 0 && setLimit < limit) {
    limit = setLimit;
    why = " is the limit set for this run";
  }
  if (bytes > limit)
    throw OutOfMemoryError(what + " needs " + formatBytes(bytes) + " of memory; " +
                           formatBytes(limit) + why);
}

void copyToView(void* to, const void* from, std::size_t bytes, bool onDevice) {
  if (!onDevice) {
    std::memcpy(to, from, bytes);
    return;
  }
#if WS_WITH_CUDA
  WS_CUDA_CHECK(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice));
#else
  throw InputError("this build has no CUDA backend: there is no device memory to write");
#endif
}

}  // namespace ws
