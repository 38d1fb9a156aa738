// The CPU tracer swarm (OpenMP), the reference for the CUDA one.
#include <algorithm>

#include "compute/lbm/lbm_tracers.h"

namespace ws::lbm {

namespace {

class CpuTracers final : public TracerSwarm {
 public:
  explicit CpuTracers(TimingScope& timing) : timing_(timing) {}

  void seed(std::size_t count, const TracerField& field, std::uint32_t seed) override {
    seed_ = seed;
    generation_ = 0;
    tracers_.resize(count);
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < count; ++k)
      tracers_[k] = spawnTracer(field, seed_, std::uint32_t(k), 0, true);
  }

  void advect(const TracerField& field, float steps) override {
    const CpuStopwatch watch;
    ++generation_;
    const std::size_t count = tracers_.size();
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < count; ++k)
      advectTracer(tracers_[k], field, steps, seed_, std::uint32_t(k), generation_);
    timing_.record(watch.elapsedMs(), double(count), double(count) * 2 * sizeof(Tracer));
  }

  void draw(int planeHeight, PointImage& points) override {
    const std::size_t count = std::min(points.count, tracers_.size());
    for (std::size_t k = 0; k < count; ++k)
      tracerPoint(tracers_[k], planeHeight, points.data + 3 * k);
  }

  std::size_t count() const override {
    return tracers_.size();
  }
  std::vector<Tracer> tracers() const override {
    return tracers_;
  }
  void setTracers(const std::vector<Tracer>& tracers, std::uint32_t seed) override {
    tracers_ = tracers;
    seed_ = seed;
    generation_ = 0;
  }

 private:
  TimingScope& timing_;
  std::vector<Tracer> tracers_;
  std::uint32_t seed_ = 0, generation_ = 0;
};

}  // namespace

std::unique_ptr<TracerSwarm> makeCpuTracers(TimingScope& timing) {
  return std::make_unique<CpuTracers>(timing);
}

}  // namespace ws::lbm
