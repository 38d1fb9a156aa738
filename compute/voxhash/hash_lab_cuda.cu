// The hash lab on the GPU: keys drawn by a kernel, the CUDA cuckoo table, the table image written
// straight into the view's buffer. Nothing crosses to the host but the build's status and the
// probe and lost-key counts.
#include <array>
#include <utility>

#include "compute/core/device_buffer.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/voxhash/cuckoo_cuda.h"
#include "compute/voxhash/hash_lab.h"

namespace ws::voxhash {

namespace {

__global__ void drawKeysKernel(std::size_t n, std::uint32_t seed, KeyPattern pattern,
                               std::uint32_t* keys, std::uint32_t* values, std::uint32_t* absent) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = labKey(std::uint32_t(i), seed, pattern);
  values[i] = labValue(std::uint32_t(i));
  absent[i] = labKey(std::uint32_t(n + i), seed, pattern);
}

__global__ void countLostKernel(std::size_t n, const std::uint32_t* found,
                                unsigned long long* lost) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool wrong = i < n && found[i] != labValue(std::uint32_t(i));
  const unsigned votes = __ballot_sync(0xffffffffu, wrong);
  if ((threadIdx.x & 31) == 0 && votes) atomicAdd(lost, (unsigned long long)__popc(votes));
}

__global__ void renderKernel(const Entry* table, HashFunctions f, int width, FieldRequest request,
                             float* pixels) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= request.width || py >= request.height) return;
  pixels[std::size_t(py) * request.width + px] = slotPixel(table, f, width, request, px, py);
}

}  // namespace

void renderTableOnDevice(const Entry* slots, const HashFunctions& f, const FieldRequest& request,
                         const FieldImage& image, float* pixels) {
  if (slots) {
    const dim3 block(32, 8);
    renderKernel<<<dim3(blocksFor(image.width, 32), blocksFor(image.height, 8)), block>>>(
        slots, f, tableImageWidth(f.slots), request, pixels);
  } else {  // all NaN: no table
    WS_CUDA_CHECK(
        cudaMemset(pixels, 0xff, std::size_t(image.width) * image.height * sizeof(float)));
  }
  WS_CUDA_CHECK(cudaGetLastError());
}

namespace {

class CudaHashLab final : public HashLab {
 public:
  CudaHashLab(LabTimings timings, int block) : timings_(timings), table_(block), counts_(3) {}

  void setKeys(std::size_t n, std::uint32_t seed, KeyPattern pattern) override {
    requireDeviceMemory(double(n) * 4 * sizeof(std::uint32_t),
                        double(keys_.bytes() + values_.bytes() + absent_.bytes() + found_.bytes()),
                        std::to_string(n) + " keys");
    for (auto* buffer : {&keys_, &values_, &absent_, &found_}) buffer->allocate(n);
    n_ = n;
    if (n)
      recordedLaunch("drawKeysKernel", drawKeysKernel, blocksFor(n, 256), 256)(
          n, seed, pattern, keys_.data(), values_.data(), absent_.data());
    WS_CUDA_CHECK(cudaGetLastError());
  }

  void step(const CuckooParams& params, std::uint64_t firstSeed, int count) override {
    const double n = double(n_);
    const LabBytes bytes = labBytesPerKey(params, n ? tableSlots(params, n_) / n : 0);
    totalRing_.start();
    for (int c = 0; c < count; ++c) {
      buildRing_.start();
      report_.build = table_.build(keys_.data(), values_.data(), n_, params, firstSeed + c, true);
      buildRing_.stop(n, n * bytes.build);
      counts_.zero();  // probes of the hits, probes of the misses, keys lost
      hitRing_.start();
      table_.query(keys_.data(), n_, found_.data());
      hitRing_.stop(n, n * bytes.hit);
      if (n_)
        recordedLaunch("countLostKernel", countLostKernel, blocksFor(n_, 256), 256)(
            n_, found_.data(), counts_.data() + 2);
      missRing_.start();
      table_.query(absent_.data(), n_, found_.data());
      missRing_.stop(n, n * bytes.miss);
    }
    totalRing_.stop(n * count, n * count * bytes.all());
    WS_CUDA_CHECK(cudaGetLastError());
    statisticsDue_ = true;
  }

  LabReport report() override {
    if (statisticsDue_) {  // the last step's counts and chain histogram, once per report
      // The probes are counted by queries of their own: counting in the timed ones (an atomic
      // add per warp into one counter) made the hits 20% slower on an H200.
      table_.query(keys_.data(), n_, found_.data(), counts_.data());
      table_.query(absent_.data(), n_, found_.data(), counts_.data() + 1);
      unsigned long long counts[3];
      WS_CUDA_CHECK(cudaMemcpy(counts, counts_.data(), sizeof counts, cudaMemcpyDeviceToHost));
      const double n = double(std::max<std::size_t>(n_, 1));
      report_.probesPerHit = counts[0] / n;
      report_.probesPerMiss = counts[1] / n;
      report_.lostKeys = counts[2];
      table_.chainStatistics(report_.build);
      statisticsDue_ = false;
    }
    return report_;
  }

  std::uint32_t slots() const override {
    return table_.slots() ? std::uint32_t(table_.functions().slots) : 0;
  }

  void render(const FieldRequest& request, FieldImage& image) override {
    const std::size_t pixels = std::size_t(image.width) * image.height;
    float* out = output_.prepare(image.pixels, pixels, image.onDevice);
    viewRing_.start();
    renderTableOnDevice(table_.slots(), table_.functions(), request, image, out);
    viewRing_.stop(double(pixels), double(pixels) * sizeof(float));
    output_.deliver();
  }

  std::string configuration() const override {
    return "one thread per key, blocks of " + std::to_string(table_.block());
  }
  void pollTimings() override {
    for (auto [ring, scope] : rings()) ring->collect(*scope);
  }
  void drainTimings() override {
    for (auto [ring, scope] : rings()) ring->drain(*scope);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }

 private:
  LabTimings timings_;
  CudaCuckooTable table_;
  std::size_t n_ = 0;
  DeviceBuffer<std::uint32_t> keys_, values_, absent_, found_;
  DeviceBuffer<unsigned long long> counts_;
  DeviceOutput<float> output_;
  LabReport report_;
  bool statisticsDue_ = false;
  GpuTimerRing totalRing_, buildRing_, hitRing_, missRing_, viewRing_;
  std::array<std::pair<GpuTimerRing*, TimingScope*>, 5> rings() {
    return {{{&totalRing_, timings_.total},
             {&buildRing_, timings_.build},
             {&hitRing_, timings_.hits},
             {&missRing_, timings_.misses},
             {&viewRing_, timings_.view}}};
  }
};

}  // namespace

std::unique_ptr<HashLab> makeCudaHashLab(LabTimings timings, int block) {
  return std::make_unique<CudaHashLab>(timings, block);
}

}  // namespace ws::voxhash
