// Streamlines on the CPU: half a line per iteration of an OpenMP loop, the reference for the CUDA
// ones.
#include "compute/lbm/streamlines.h"

namespace ws::lbm {

namespace {

class CpuStreamlines final : public StreamlineTracer {
 public:
  explicit CpuStreamlines(TimingScope& timing) : timing_(timing) {}

  void trace(const StreamField& field, const StreamSpec& spec, float* out, bool) override {
    const CpuStopwatch watch;
#pragma omp parallel for schedule(dynamic, 4)
    for (int half = 0; half < 2 * spec.lines; ++half)
      traceStreamlineHalf(field, spec, half / 2, half % 2, out);
    const std::size_t points = std::size_t(spec.lines) * spec.points;
    timing_.record(watch.elapsedMs(), double(points), streamlineBytes(points));
  }

 private:
  TimingScope& timing_;
};

}  // namespace

std::unique_ptr<StreamlineTracer> makeCpuStreamlines(TimingScope& timing) {
  return std::make_unique<CpuStreamlines>(timing);
}

}  // namespace ws::lbm
