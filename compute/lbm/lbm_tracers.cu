// The CUDA tracer swarm: one thread per tracer runs the update of lbm_tracers.h on the plane's
// moments in device memory, and writes the points straight into the GL buffer that draws them.
#include <algorithm>

#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.h"
#include "compute/lbm/lbm_tracers.h"

namespace ws::lbm {

namespace {

constexpr unsigned kBlock = 256;

__global__ void seedKernel(Tracer* tracers, std::size_t count, TracerField field,
                           std::uint32_t seed) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) tracers[k] = spawnTracer(field, seed, std::uint32_t(k), 0, true);
}

__global__ void advectKernel(Tracer* tracers, std::size_t count, TracerField field, float steps,
                             std::uint32_t seed, std::uint32_t generation) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) advectTracer(tracers[k], field, steps, seed, std::uint32_t(k), generation);
}

__global__ void drawKernel(const Tracer* tracers, std::size_t count, int height, float* points) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) tracerPoint(tracers[k], height, points + 3 * k);
}

class CudaTracers final : public TracerSwarm {
 public:
  explicit CudaTracers(TimingScope& timing) : timing_(timing) {}

  void seed(std::size_t count, const TracerField& field, std::uint32_t seed) override {
    allocate(count);
    seed_ = seed;
    generation_ = 0;
    if (count == 0) return;
    seedKernel<<<blocksFor(count, kBlock), kBlock>>>(tracers_.data(), count, field, seed_);
    WS_CUDA_CHECK(cudaGetLastError());
  }

  void advect(const TracerField& field, float steps) override {
    ++generation_;
    const std::size_t count = tracers_.size();
    if (count == 0) return;
    ring_.start();
    advectKernel<<<blocksFor(count, kBlock), kBlock>>>(tracers_.data(), count, field, steps, seed_,
                                                       generation_);
    WS_CUDA_CHECK(cudaGetLastError());
    ring_.stop(double(count), double(count) * 2 * sizeof(Tracer));
  }

  void draw(int planeHeight, PointImage& points) override {
    const std::size_t count = std::min(points.count, tracers_.size());
    if (count == 0) return;
    float* out = output_.prepare(points.data, 3 * count, points.onDevice);
    drawKernel<<<blocksFor(count, kBlock), kBlock>>>(tracers_.data(), count, planeHeight, out);
    WS_CUDA_CHECK(cudaGetLastError());
    output_.deliver();
  }

  std::size_t count() const override { return tracers_.size(); }
  std::vector<Tracer> tracers() const override {
    std::vector<Tracer> host(tracers_.size());
    WS_CUDA_CHECK(
        cudaMemcpy(host.data(), tracers_.data(), tracers_.bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  void setTracers(const std::vector<Tracer>& tracers, std::uint32_t seed) override {
    allocate(tracers.size());
    WS_CUDA_CHECK(
        cudaMemcpy(tracers_.data(), tracers.data(), tracers_.bytes(), cudaMemcpyHostToDevice));
    seed_ = seed;
    generation_ = 0;
  }
  void pollTimings() override { ring_.collect(timing_); }
  void drainTimings() override { ring_.drain(timing_); }

 private:
  void allocate(std::size_t count) {
    if (count == tracers_.size()) return;
    requireDeviceMemory(double(count) * sizeof(Tracer), double(tracers_.bytes()),
                        std::to_string(count) + " tracers");
    tracers_.release();
    if (count) tracers_.allocate(count);
  }

  TimingScope& timing_;
  DeviceBuffer<Tracer> tracers_;
  DeviceOutput<float> output_;
  std::uint32_t seed_ = 0, generation_ = 0;
  GpuTimerRing ring_;
};

}  // namespace

std::unique_ptr<TracerSwarm> makeCudaTracers(TimingScope& timing) {
  return std::make_unique<CudaTracers>(timing);
}

}  // namespace ws::lbm
