#pragma once
// The reduction and scan lab: n small unsigned integers summed (reduction) or prefix-summed
// (inclusive or exclusive scan) by one of several kernels, each the lesson of a lecture slide or
// a book section, on the CPU or the GPU. Sums wrap modulo 2^32, so every implementation must
// agree bit for bit whatever order it adds in; the lab counts the elements that disagree with the
// CPU reference after every run.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/hd.h"
#include "compute/core/launch.h"
#include "compute/core/timing.h"
#include "compute/views/field.h"

namespace ws::reduce {

enum class Operation { Reduce, InclusiveScan, ExclusiveScan };

// The kernels. The first group reduces, the second scans; the CPU has one of each kind.
enum class Kernel {
  Interleaved,   // lecture reduction #1: interleaved addressing, divergent branch
  Strided,       // #2: interleaved addressing, strided index (bank conflicts)
  Sequential,    // #3: sequential addressing
  Shuffle,       // several elements per thread, warp shuffles instead of shared memory
  Ballot,        // bit-sliced: one __ballot_sync + __popc per bit per 32 elements
  Atomic,        // every thread adds its element to one word with atomicAdd
  CubReduce,     // cub::DeviceReduce::Sum
  HillisSteele,  // naive scan: log n steps, n log n additions, double-buffered
  Blelloch,      // work-efficient up-sweep and down-sweep (optionally padded against conflicts)
  ShuffleScan,   // warp scans with __shfl_up_sync, then the warps' totals
  CubScan,       // cub::DeviceScan
  CpuSerial,     // one thread, the reference
  CpuParallel,   // OpenMP: chunks, then the chunks' totals
};

bool isScan(Kernel kernel);
bool isScan(Operation operation);

struct LabConfig {
  Kernel kernel = Kernel::Sequential;
  Operation operation = Operation::Reduce;
  int block = 128;  // threads per block (the lecture used 128)
  // Blelloch: pad shared-memory indices by one word per 32 so the tree's strides miss no bank.
  bool padded = false;
  // Sequential reduction with its __syncthreads() removed: a race, wrong on purpose (off unless
  // the user asks for the demonstration).
  bool removeBarrier = false;
};

// Element i of the input for `seed`: a value in [0, maxValue] (maxValue + 1 a power of two, so a
// mask draws it without bias). The same function fills the CPU's and the GPU's input.
WS_HD std::uint32_t inputValue(std::uint64_t i, std::uint32_t seed, std::uint32_t maxValue) {
  std::uint64_t x = i * 0x9e3779b97f4a7c15ull + seed;
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return std::uint32_t(x) & maxValue;
}

// The answers every kernel must reproduce (wrapping sums).
std::uint32_t referenceReduce(const std::vector<std::uint32_t>& values);
std::vector<std::uint32_t> referenceScan(const std::vector<std::uint32_t>& values, bool inclusive);

// The input, and the output as an image: element 0 at the top left, `imageWidth(n)` elements
// per row. The output shows each element's value over the largest (a scan's ramp), or for a
// reduction the sum over `n`: its mean.
int imageWidth(std::size_t n);

struct LabTimings {
  TimingScope* step = nullptr;
  TimingScope* view = nullptr;
};

// One implementation: it holds the input, runs the operation and keeps the output.
class ReduceEngine {
 public:
  virtual ~ReduceEngine() = default;
  // A new input of n values (throws OutOfMemoryError, keeping the old one, when it does not fit).
  virtual void setInput(std::size_t n, std::uint32_t seed, std::uint32_t maxValue) = 0;
  virtual void run(int count) = 0;  // the operation, `count` times over
  // The result: a reduction's sum, or a scan's last element.
  virtual std::uint32_t result() = 0;
  virtual std::vector<std::uint32_t> output() = 0;  // a scan's n values, or a reduction's sum
  virtual std::vector<std::uint32_t> input() = 0;
  // The right output for the current input (the CPU reference's), kept where the output is, and
  // the number of elements of the last run's output that differ from it.
  virtual void setReference(const std::vector<std::uint32_t>& reference) = 0;
  virtual std::size_t mismatches() = 0;
  // view 0: the input, 1: the output (values over `scale`).
  virtual void render(int view, float scale, const FieldRequest& request, FieldImage& image) = 0;
  virtual std::string configuration() const = 0;
  virtual void pollTimings() {}
  virtual void drainTimings() { pollTimings(); }
  virtual void synchronize() {}
};

std::unique_ptr<ReduceEngine> makeCpuEngine(const LabConfig& config, LabTimings timings);
std::unique_ptr<ReduceEngine> makeCudaEngine(const LabConfig& config, LabTimings timings);

// Bytes one element costs at least: read once to reduce; read and written once to scan.
inline double bytesPerElement(Operation operation) {
  return operation == Operation::Reduce ? 4.0 : 8.0;
}

// The value under pixel (px, py) of `request`, for the array `values` of n elements shown
// `width` per row over `scale`; NaN outside the array.
WS_HD float arrayPixel(const std::uint32_t* values, std::size_t n, int width, float scale,
                       const FieldRequest& r, int px, int py) {
  const double wx = r.originX + (px + 0.5) * r.worldPerPixel;
  const double wy = r.originY + (py + 0.5) * r.worldPerPixel;
  const std::size_t rows = (n + width - 1) / width;
  if (wx < 0 || wy < 0 || wx >= width || wy >= double(rows)) return NAN;
  const std::size_t i = std::size_t(wy) * width + std::size_t(wx);  // world y grows down the image
  return i < n ? float(values[i]) / scale : NAN;
}

}  // namespace ws::reduce
