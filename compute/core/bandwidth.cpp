#include "compute/core/bandwidth.h"

#include <algorithm>
#include <vector>

#include "compute/core/backend.h"
#include "compute/core/errors.h"
#if WS_WITH_CUDA
#include "compute/core/device_buffer.h"
#endif

namespace ws {

double measureCopyBandwidth() {
#if !WS_WITH_CUDA
  throw InputError("this build has no CUDA backend: there is no GPU bandwidth to measure");
#else
  std::size_t freeBytes = 0, totalBytes = 0;
  WS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  // Large enough to dwarf the L2 (50-60 MB on Hopper), small enough to leave room for the rest.
  const std::size_t bytes =
      std::min<std::size_t>(std::size_t(1) << 30, freeBytes / 4) & ~std::size_t(255);
  DeviceBuffer<unsigned char> source(bytes), target(bytes);
  WS_CUDA_CHECK(cudaMemset(source.data(), 0x5a, bytes));
  cudaEvent_t begin, end;
  WS_CUDA_CHECK(cudaEventCreate(&begin));
  WS_CUDA_CHECK(cudaEventCreate(&end));
  std::vector<float> times;
  for (int run = 0; run < 12; ++run) {
    WS_CUDA_CHECK(cudaEventRecord(begin));
    WS_CUDA_CHECK(cudaMemcpy(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice));
    WS_CUDA_CHECK(cudaEventRecord(end));
    WS_CUDA_CHECK(cudaEventSynchronize(end));
    float ms = 0;
    WS_CUDA_CHECK(cudaEventElapsedTime(&ms, begin, end));
    if (run >= 2) times.push_back(ms);  // the first runs warm up
  }
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  std::sort(times.begin(), times.end());
  const double medianMs = times[times.size() / 2];
  return 2.0 * bytes / (medianMs * 1e-3);
#endif
}

namespace {
double& cachedBandwidth() {
  static double value = -1;
  return value;
}
}  // namespace

double measuredBandwidth() {
  if (cachedBandwidth() < 0) remeasureBandwidth();
  return cachedBandwidth();
}

void remeasureBandwidth() {
  cachedBandwidth() = 0;
  if (gpuInfo().available) cachedBandwidth() = measureCopyBandwidth();
}

}  // namespace ws
