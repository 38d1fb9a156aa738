// The CPU's reduction and scan: the serial reference every kernel is compared with, and an
// OpenMP version (each thread sums a chunk; the chunks' totals are scanned; each thread then
// scans its chunk from its offset).
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "compute/core/errors.h"
#include "compute/core/memory.h"
#include "compute/reduce/reduce_lab.h"

namespace ws::reduce {

bool isScan(Kernel kernel) {
  switch (kernel) {
    case Kernel::HillisSteele:
    case Kernel::Blelloch:
    case Kernel::ShuffleScan:
    case Kernel::CubScan:
      return true;
    default:
      return false;
  }
}

bool isScan(Operation operation) {
  return operation != Operation::Reduce;
}

std::uint32_t referenceReduce(const std::vector<std::uint32_t>& values) {
  std::uint32_t sum = 0;
  for (std::uint32_t v : values) sum += v;
  return sum;
}

namespace {

// Scans in[0, n) into out from `sum` on; returns the sum after the last element.
std::uint32_t scanInto(const std::uint32_t* in, std::uint32_t* out, std::size_t n,
                       std::uint32_t sum, bool inclusive) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!inclusive) out[i] = sum;
    sum += in[i];
    if (inclusive) out[i] = sum;
  }
  return sum;
}

}  // namespace

std::vector<std::uint32_t> referenceScan(const std::vector<std::uint32_t>& values, bool inclusive) {
  std::vector<std::uint32_t> out(values.size());
  scanInto(values.data(), out.data(), values.size(), 0, inclusive);
  return out;
}

int imageWidth(std::size_t n) {
  int width = 1;
  while (std::size_t(width) * width < n) width *= 2;
  return width;
}

namespace {

class CpuReduceEngine final : public ReduceEngine {
 public:
  CpuReduceEngine(const LabConfig& config, LabTimings timings)
      : config_(config), timings_(timings) {}

  void setInput(std::size_t n, std::uint32_t seed, std::uint32_t maxValue) override {
    requireHostMemory(double(n) * 2 * sizeof(std::uint32_t), std::to_string(n) + " elements");
    std::vector<std::uint32_t> input(n);
#pragma omp parallel for
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) input[i] = inputValue(i, seed, maxValue);
    input_ = std::move(input);
    output_.assign(isScan(config_.operation) ? n : 0, 0);
    sum_ = 0;
  }

  void run(int count) override {
    const double n = double(input_.size()) * count;
    const CpuStopwatch watch;  // one sample per call, as the benchmark expects
    for (int c = 0; c < count; ++c) {
      if (config_.kernel == Kernel::CpuSerial)
        runSerial();
      else
        runParallel();
    }
    timings_.step->record(watch.elapsedMs(), n, n * bytesPerElement(config_.operation));
  }

  std::uint32_t result() override {
    return isScan(config_.operation) ? (output_.empty() ? 0 : output_.back()) : sum_;
  }
  std::vector<std::uint32_t> output() override {
    return isScan(config_.operation) ? output_ : std::vector<std::uint32_t>{sum_};
  }
  std::vector<std::uint32_t> input() override {
    return input_;
  }

  void setReference(const std::vector<std::uint32_t>& reference) override {
    reference_ = reference;
  }
  std::size_t mismatches() override {
    if (!isScan(config_.operation)) return reference_ != std::vector<std::uint32_t>{sum_};
    if (output_.size() != reference_.size()) return std::max(output_.size(), reference_.size());
    std::size_t wrong = 0;
#pragma omp parallel for reduction(+ : wrong)
    for (std::int64_t i = 0; i < std::int64_t(output_.size()); ++i)
      wrong += output_[i] != reference_[i];
    return wrong;
  }

  void render(int view, float scale, const FieldRequest& request, FieldImage& image) override {
    const CpuStopwatch watch;
    const std::vector<std::uint32_t>& values = view == 0 ? input_ : output_;
    const int width = imageWidth(input_.size());
#pragma omp parallel for
    for (int py = 0; py < image.height; ++py)
      for (int px = 0; px < image.width; ++px)
        image.pixels[std::size_t(py) * image.width + px] =
            arrayPixel(values.data(), values.size(), width, scale, request, px, py);
    const double pixels = double(image.width) * image.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }

  std::string configuration() const override {
    return config_.kernel == Kernel::CpuSerial
               ? "one thread"
               : std::to_string(omp_get_max_threads()) + " OpenMP threads, one chunk each";
  }

 private:
  void runSerial() {
    if (!isScan(config_.operation)) {
      sum_ = referenceReduce(input_);
      return;
    }
    scanInto(input_.data(), output_.data(), input_.size(), 0,
             config_.operation == Operation::InclusiveScan);
  }

  void runParallel() {
    const std::int64_t n = std::int64_t(input_.size());
    if (!isScan(config_.operation)) {
      std::uint32_t sum = 0;
#pragma omp parallel for reduction(+ : sum)
      for (std::int64_t i = 0; i < n; ++i) sum += input_[i];
      sum_ = sum;
      return;
    }
    const bool inclusive = config_.operation == Operation::InclusiveScan;
    std::vector<std::uint32_t> chunkSums(omp_get_max_threads() + 1, 0);
#pragma omp parallel
    {
      const int t = omp_get_thread_num(), threads = omp_get_num_threads();
      const std::int64_t begin = n * t / threads, end = n * (t + 1) / threads;
      std::uint32_t sum = 0;
      for (std::int64_t i = begin; i < end; ++i) sum += input_[i];
      chunkSums[t + 1] = sum;
#pragma omp barrier
#pragma omp single
      for (int c = 1; c <= threads; ++c) chunkSums[c] += chunkSums[c - 1];
      scanInto(input_.data() + begin, output_.data() + begin, end - begin, chunkSums[t], inclusive);
    }
  }

  LabConfig config_;
  LabTimings timings_;
  std::vector<std::uint32_t> input_, output_, reference_;
  std::uint32_t sum_ = 0;
};

}  // namespace

std::unique_ptr<ReduceEngine> makeCpuEngine(const LabConfig& config, LabTimings timings) {
  return std::make_unique<CpuReduceEngine>(config, timings);
}

}  // namespace ws::reduce
