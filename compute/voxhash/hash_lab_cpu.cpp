// The hash lab on the CPU: the OpenMP cuckoo table of cuckoo_cpu.
#include <algorithm>
#include <cmath>

#include "compute/core/memory.h"
#include "compute/voxhash/cuckoo_cpu.h"
#include "compute/voxhash/hash_lab.h"

namespace ws::voxhash {

int tableImageWidth(std::uint32_t slots) {
  const int side = int(std::ceil(std::sqrt(double(slots))));
  return std::max(16, (side + 15) / 16 * 16);
}

void renderTableOnHost(const Entry* slots, const HashFunctions& f, const FieldRequest& request,
                       FieldImage& image) {
  const int width = tableImageWidth(f.slots);
#pragma omp parallel for schedule(static)
  for (int py = 0; py < image.height; ++py)
    for (int px = 0; px < image.width; ++px)
      image.pixels[std::size_t(py) * image.width + px] =
          slots ? slotPixel(slots, f, width, request, px, py) : NAN;
}

namespace {

class CpuHashLab final : public HashLab {
 public:
  explicit CpuHashLab(LabTimings timings) : timings_(timings) {}

  void setKeys(std::size_t n, std::uint32_t seed, KeyPattern pattern) override {
    requireHostMemory(double(n) * 4 * sizeof(std::uint32_t), std::to_string(n) + " keys");
    keys_.resize(n);
    values_.resize(n);
    absent_.resize(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) {
      keys_[i] = labKey(std::uint32_t(i), seed, pattern);
      values_[i] = labValue(std::uint32_t(i));
      absent_[i] = labKey(std::uint32_t(n + i), seed, pattern);
    }
  }

  void step(const CuckooParams& params, std::uint64_t firstSeed, int count) override {
    const double n = double(keys_.size());
    const CpuStopwatch total;
    for (int c = 0; c < count; ++c) {
      CpuStopwatch watch;
      report_.build = table_.build(keys_, values_, params, firstSeed + c);
      const LabBytes bytes = labBytesPerKey(params, n ? report_.build.slots / n : 0);
      timings_.build->record(watch.elapsedMs(), n, n * bytes.build);
      watch = CpuStopwatch();
      const std::uint64_t hitProbes = table_.query(keys_, found_);
      timings_.hits->record(watch.elapsedMs(), n, n * bytes.hit);
      report_.lostKeys = 0;
      for (std::size_t i = 0; i < found_.size(); ++i) report_.lostKeys += found_[i] != values_[i];
      watch = CpuStopwatch();
      const std::uint64_t missProbes = table_.query(absent_, found_);
      timings_.misses->record(watch.elapsedMs(), n, n * bytes.miss);
      report_.probesPerHit = n ? hitProbes / n : 0;
      report_.probesPerMiss = n ? missProbes / n : 0;
    }
    const LabBytes bytes = labBytesPerKey(params, n ? tableSlots(params, keys_.size()) / n : 0);
    timings_.total->record(total.elapsedMs(), n * count, n * count * bytes.all());
  }

  LabReport report() override {
    return report_;
  }
  std::uint32_t slots() const override {
    return std::uint32_t(table_.slots().size());
  }

  void render(const FieldRequest& request, FieldImage& image) override {
    const CpuStopwatch watch;
    renderTableOnHost(table_.slots().empty() ? nullptr : table_.slots().data(), table_.functions(),
                      request, image);
    const double pixels = double(image.width) * image.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }

  std::string configuration() const override {
    return "OpenMP, one thread per key";
  }

 private:
  LabTimings timings_;
  std::vector<std::uint32_t> keys_, values_, absent_, found_;
  CpuCuckooTable table_;
  LabReport report_;
};

}  // namespace

std::unique_ptr<HashLab> makeCpuHashLab(LabTimings timings) {
  return std::make_unique<CpuHashLab>(timings);
}

}  // namespace ws::voxhash
