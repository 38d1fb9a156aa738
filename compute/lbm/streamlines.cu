// Streamlines on the GPU: a thread per half line runs streamlines.h's tracing through the moments
// in device memory, straight into the GL buffer that draws them where interop is on. Each thread
// takes its points one after another, four velocity lookups a point that each wait for memory: the
// time is one half line's chain of lookups, however many lines there are.
#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.h"
#include "compute/lbm/streamlines.h"

namespace ws::lbm {

namespace {

constexpr unsigned kBlock = 64;  // few lines, long each: small blocks spread them over the SMs

__global__ void traceKernel(StreamField field, StreamSpec spec, float* out) {
  const int half = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (half < 2 * spec.lines) traceStreamlineHalf(field, spec, half / 2, half % 2, out);
}

class CudaStreamlines final : public StreamlineTracer {
 public:
  explicit CudaStreamlines(TimingScope& timing) : timing_(timing) {}

  void trace(const StreamField& field, const StreamSpec& spec, float* out, bool onDevice) override {
    if (spec.lines <= 0) return;
    float* target = output_.prepare(out, spec.segments() * 2 * kLineVertexFloats, onDevice);
    const std::size_t points = std::size_t(spec.lines) * spec.points;
    ring_.start();
    traceKernel<<<blocksFor(2 * std::size_t(spec.lines), kBlock), kBlock>>>(field, spec, target);
    WS_CUDA_CHECK(cudaGetLastError());
    ring_.stop(double(points), streamlineBytes(points));
    output_.deliver();
  }
  void pollTimings() override { ring_.collect(timing_); }
  void drainTimings() override { ring_.drain(timing_); }

 private:
  TimingScope& timing_;
  DeviceOutput<float> output_;
  GpuTimerRing ring_;
};

}  // namespace

std::unique_ptr<StreamlineTracer> makeCudaStreamlines(TimingScope& timing) {
  return std::make_unique<CudaStreamlines>(timing);
}

}  // namespace ws::lbm
