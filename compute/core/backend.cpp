#include "compute/core/backend.h"

#if WS_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ws {

std::string_view toString(Backend backend) {
  return backend == Backend::Cuda ? "cuda" : "cpu";
}

std::optional<Backend> parseBackend(std::string_view text) {
  if (text == "cuda" || text == "gpu") return Backend::Cuda;
  if (text == "cpu") return Backend::Cpu;
  return std::nullopt;
}

namespace {

GpuInfo probe(int device) {
  GpuInfo info;
#if !WS_WITH_CUDA
  (void)device;
  info.reason = "built without CUDA: this program has the CPU backend only";
  return info;
#else
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    cudaGetLastError();
    info.reason = status == cudaSuccess
                      ? std::string("no CUDA device found")
                      : std::string("CUDA unavailable: ") + cudaGetErrorString(status);
    return info;
  }
  device = device < 0 ? 0 : device % count;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess ||
      cudaSetDevice(device) != cudaSuccess) {
    cudaGetLastError();
    info.reason = "CUDA device " + std::to_string(device) + " could not be opened";
    return info;
  }
  info.available = true;
  info.device = device;
  info.devices = count;
  info.name = prop.name;
  info.multiprocessors = prop.multiProcessorCount;
  info.computeMajor = prop.major;
  info.computeMinor = prop.minor;
  info.totalMemoryBytes = static_cast<double>(prop.totalGlobalMem);
  info.l2Bytes = static_cast<double>(prop.l2CacheSize);
  return info;
#endif
}

GpuInfo& cachedInfo() {
  static GpuInfo info = probe(0);
  return info;
}

}  // namespace

const GpuInfo& gpuInfo() {
  return cachedInfo();
}

void selectGpu(int device) {
  if (cachedInfo().device == device) return;
  cachedInfo() = probe(device);
}

}  // namespace ws
