#pragma once
// The roofline's ceilings, measured on this machine: memory bandwidth (a large copy, read plus
// write) and arithmetic peaks for the kinds of operation the modules' models count (FP32 and FP64
// flops, an FMA counting two; 32-bit integer and logic operations). A kernel's point sits under
// min(bandwidth x intensity, peak); the overlay's % of bandwidth is the same model's.
#include <string>

#include "compute/core/backend.h"

namespace ws {

enum class OpKind { Fp32, Fp64, Int32 };
const char* toString(OpKind kind);  // "FP32 flop", "FP64 flop", "int32 op"

// The arithmetic one unit of work needs, counted in the kernel's source as the byte model counts
// the bytes it must move: at least this much, unless the module's model says otherwise.
struct OpModel {
  double ops = 0;
  OpKind kind = OpKind::Fp32;
};

struct Ceilings {
  double bytesPerSecond = 0;
  double fp32PerSecond = 0, fp64PerSecond = 0, int32PerSecond = 0;
  std::string where;  // "NVIDIA H200", "this CPU (16 threads)"
  double peak(OpKind kind) const {
    return kind == OpKind::Fp32   ? fp32PerSecond
           : kind == OpKind::Fp64 ? fp64PerSecond
                                  : int32PerSecond;
  }
  // What a kernel of `intensity` ops per byte can reach at most.
  double bound(OpKind kind, double intensity) const;
};

// Measured on first use per backend (about a second), then kept; throws CudaError.
const Ceilings& measuredCeilings(Backend backend);

// The bandwidth a kernel moving `bytes` a step can have: on the CPU, a copy of that many bytes
// (read plus write, every core, best of 5), measured on first use per power of two and kept, at
// least memory's: data that fit in a cache move at the cache's speed (a 2^22 reduction's 16 MiB
// sat above a roof measured with 128 MiB). On the GPU, its memory bandwidth.
double bandwidthFor(Backend backend, double bytes);

// The GPU's arithmetic peaks alone (the kernels behind measuredCeilings), for the tests.
double measureGpuPeak(OpKind kind);

}  // namespace ws
