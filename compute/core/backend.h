#pragma once
// Which implementation runs a module, and what the machine offers.
#include <optional>
#include <string>
#include <string_view>

namespace ws {

enum class Backend { Cpu, Cuda };

std::string_view toString(Backend backend);
std::optional<Backend> parseBackend(std::string_view text);

// What CUDA offers here. `available` is false on machines with no NVIDIA GPU or driver; `reason`
// then says why, in words the status bar can show.
struct GpuInfo {
  bool available = false;
  std::string reason;
  int device = -1;
  int devices = 0;  // on this machine
  std::string name;
  int multiprocessors = 0;
  int computeMajor = 0, computeMinor = 0;
  double totalMemoryBytes = 0;
  double l2Bytes = 0;
};

// Probes once (cached): device count, the chosen device's properties.
const GpuInfo& gpuInfo();

// Makes `device` current (the one driving the GL context, when interop found it; a rank's own
// under mpirun), counted round the devices there are.
void selectGpu(int device);

}  // namespace ws
