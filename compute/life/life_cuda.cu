#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "compute/core/device_buffer.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/life/life_cuda.h"
#include "compute/life/life_kernels.cuh"

namespace ws::life {

namespace {

constexpr int kRoundWidth = 1024;  // widest tile: 256 threads x 4 cells
constexpr int kRoundHeight = 256;  // tallest block

long long roundUp(long long value, long long multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

PaddedGeometry paddedGeometry(int width, int height, bool aligned) {
  PaddedGeometry g{};
  g.width = width;
  g.height = height;
  const long long columns = roundUp(width, kRoundWidth);
  const long long rows = roundUp(height, kRoundHeight) + 2;
  if (aligned) {
    // Cell (0, 0) and every row start on a 128-byte boundary; the ghost column sits just before.
    g.pitch = roundUp(32 + columns + 32, 32);
    g.origin = g.pitch + 32;
  } else {
    // The chapter's plain layout: ghost, cells, ghost, so rows start wherever they fall.
    g.pitch = columns + 2;
    g.origin = g.pitch + 1;
  }
  g.elements = g.pitch * (rows + 1);
  return g;
}

dim3 gridFor(long long x, long long y, dim3 block) {
  return dim3(blocksFor(x, block.x), blocksFor(y, block.y));
}

struct CellValue {
  const std::uint32_t* cells;
  long long pitch;
  int width;
  __device__ unsigned long long operator()(long long i) const {
    return cells[(i / width) * pitch + i % width];
  }
};

struct WordPopulation {
  const Word* words;
  __device__ unsigned long long operator()(long long i) const { return __popcll(words[i]); }
};

template <int BX, int BY, int CPT, bool kBarrier = true>
void launchTileKernel(const std::uint32_t* current, std::uint32_t* next, const PaddedGeometry& g,
                      std::uint32_t table) {
  const dim3 block(BX, BY), grid = gridFor(g.width, g.height, dim3(BX * CPT, BY));
  recordedLaunch(kBarrier ? "lifeTileKernel" : "lifeTileKernel (no barrier)",
                 lifeTileKernel<BX, BY, CPT, kBarrier>, grid, block)(current, next, g, table);
}

template <int BX, int BY>
void launchTile(int cellsPerThread, const std::uint32_t* current, std::uint32_t* next,
                const PaddedGeometry& g, std::uint32_t table) {
  switch (cellsPerThread) {
    case 1:
      launchTileKernel<BX, BY, 1>(current, next, g, table);
      break;
    case 2:
      launchTileKernel<BX, BY, 2>(current, next, g, table);
      break;
    default:
      launchTileKernel<BX, BY, 4>(current, next, g, table);
      break;
  }
}

void launchTileShape(int bx, int by, int cellsPerThread, const std::uint32_t* current,
                     std::uint32_t* next, const PaddedGeometry& g, std::uint32_t table) {
  if (bx == 64 && by == 4)
    launchTile<64, 4>(cellsPerThread, current, next, g, table);
  else if (bx == 32 && by == 8)
    launchTile<32, 8>(cellsPerThread, current, next, g, table);
  else if (bx == 16 && by == 16)
    launchTile<16, 16>(cellsPerThread, current, next, g, table);
  else if (bx == 8 && by == 32)
    launchTile<8, 32>(cellsPerThread, current, next, g, table);
  else if (bx == 4 && by == 64)
    launchTile<4, 64>(cellsPerThread, current, next, g, table);
  else if (bx == 128 && by == 2)
    launchTile<128, 2>(cellsPerThread, current, next, g, table);
  else
    launchTile<256, 1>(cellsPerThread, current, next, g, table);
}

class CudaEngine final : public LifeEngine {
 public:
  CudaEngine(const CudaLifeConfig& config, LifeTimings timings)
      : config_(config),
        timings_(timings),
        bitLayout_(config.kernel == CudaLifeKernel::BitPacked ||
                   config.kernel == CudaLifeKernel::BitTemporal) {}

  void reshape(int width, int height) override {
    const bool aligned = config_.kernel != CudaLifeKernel::GlobalHalo &&
                         config_.kernel != CudaLifeKernel::SharedTile;
    const PaddedGeometry padded = paddedGeometry(width, height, aligned);
    const double wordBytes = double(wordsPerRow(width)) * height * sizeof(Word);
    const double needed =
        (bitLayout_ ? 2 * wordBytes : 2.0 * padded.elements * sizeof(std::uint32_t)) +
        (trackAge_ ? double(width) * height : 0.0);
    requireDeviceMemory(needed, heldBytes(),
                        "a " + std::to_string(width) + "x" + std::to_string(height) + " grid");
    for (auto& b : cells_) b.release();
    for (auto& b : bits_) b.release();
    ages_.release();
    width_ = width;
    height_ = height;
    padded_ = padded;
    current_ = 0;
    if (bitLayout_) {
      for (auto& b : bits_) b.allocate(std::size_t(wordsPerRow(width)) * height);
    } else {
      for (auto& b : cells_) b.allocate(padded.elements);
    }
    clearAll();
    if (trackAge_) ages_.allocate(std::size_t(width) * height), ages_.zero();
  }
  int width() const override { return width_; }
  int height() const override { return height_; }

  void clear() override { clearAll(); }

  void fillRandom(std::uint64_t seed, double density) override {
    const std::uint64_t threshold = soupThreshold(density);
    const dim3 block(32, 8);
    if (bitLayout_) {
      const BitGeometry g = makeBitGeometry(width_, height_, Boundary::Dead);
      bitSoup<<<gridFor(g.words, height_, block), block>>>(bits_[current_].data(), g, seed,
                                                           threshold);
    } else {
      paddedSoup<<<gridFor(width_, height_, block), block>>>(cells_[current_].data(), padded_, seed,
                                                             threshold);
    }
    WS_CUDA_CHECK_LAUNCH();
  }

  std::vector<CellEdit> setCells(std::span<const CellEdit> edits) override {
    if (edits.empty()) return {};
    std::vector<DeviceCellEdit> host;
    host.reserve(edits.size());
    for (const auto& e : edits) host.push_back({e.x, e.y, e.alive ? 1 : 0});
    if (edits_.size() < host.size()) edits_.allocate(host.size());
    WS_CUDA_CHECK(cudaMemcpy(edits_.data(), host.data(), host.size() * sizeof(DeviceCellEdit),
                             cudaMemcpyHostToDevice));
    const unsigned threads = 256, blocks = blocksFor(host.size(), threads);
    if (bitLayout_)
      bitEdit<<<blocks, threads>>>(bits_[current_].data(),
                                   makeBitGeometry(width_, height_, Boundary::Dead), edits_.data(),
                                   static_cast<int>(host.size()));
    else
      paddedEdit<<<blocks, threads>>>(cells_[current_].data(), padded_, edits_.data(),
                                      static_cast<int>(host.size()));
    WS_CUDA_CHECK_LAUNCH();
    WS_CUDA_CHECK(cudaMemcpy(host.data(), edits_.data(), host.size() * sizeof(DeviceCellEdit),
                             cudaMemcpyDeviceToHost));
    std::vector<CellEdit> before;
    before.reserve(host.size());
    for (const auto& e : host) before.push_back({e.x, e.y, e.alive != 0});
    return before;
  }

  void load(const LifeGrid& grid) override {
    const std::size_t words = grid.words.size();
    if (bitLayout_) {
      WS_CUDA_CHECK(cudaMemcpy(bits_[current_].data(), grid.words.data(), words * sizeof(Word),
                               cudaMemcpyHostToDevice));
      return;
    }
    DeviceBuffer<Word> staging(words);
    WS_CUDA_CHECK(cudaMemcpy(staging.data(), grid.words.data(), words * sizeof(Word),
                             cudaMemcpyHostToDevice));
    const dim3 block(32, 8);
    paddedFromBits<<<gridFor(width_, height_, block), block>>>(staging.data(),
                                                               cells_[current_].data(), padded_);
    WS_CUDA_CHECK_LAUNCH();
    WS_CUDA_CHECK(cudaDeviceSynchronize());
  }

  LifeGrid save() override {
    LifeGrid grid(width_, height_);
    const std::size_t bytes = grid.words.size() * sizeof(Word);
    if (bitLayout_) {
      WS_CUDA_CHECK(
          cudaMemcpy(grid.words.data(), bits_[current_].data(), bytes, cudaMemcpyDeviceToHost));
      return grid;
    }
    DeviceBuffer<Word> staging(grid.words.size());
    const dim3 block(32, 8);
    bitsFromPadded<<<gridFor(wordsPerRow(width_), height_, block), block>>>(
        cells_[current_].data(), staging.data(), padded_);
    WS_CUDA_CHECK_LAUNCH();
    WS_CUDA_CHECK(cudaMemcpy(grid.words.data(), staging.data(), bytes, cudaMemcpyDeviceToHost));
    return grid;
  }

  void step(int generations, const LifeRule& rule, Boundary boundary) override {
    if (generations <= 0) return;
    injectGpuFaultIfRequested();
    ring_.start();
    // Each pass reads and writes the grid once, whatever it advances: the bytes of the timing model
    // count passes (a temporal pass of fewer generations, or a fallback to (6), costs a full one).
    int passes = 0;
    // Temporal blocking takes whole passes at once unless the age view needs every generation.
    int gen = config_.kernel == CudaLifeKernel::BitTemporal && !trackAge_
                  ? stepTemporal(generations, rule, boundary, passes)
                  : 0;
    for (; gen < generations; ++gen, ++passes) {
      if (bitLayout_)
        stepBits(rule, boundary);
      else
        stepPadded(rule, boundary);
      current_ ^= 1;
      if (trackAge_) updateAges();
    }
    const double cells = double(width_) * height_;
    ring_.stop(cells * generations, cells * passes * bytesPerCellPerPass());
  }

  std::uint64_t population() override {
    if (bitLayout_)
      return deviceSum(static_cast<long long>(wordsPerRow(width_)) * height_,
                       WordPopulation{bits_[current_].data()});
    return deviceSum(static_cast<long long>(width_) * height_,
                     CellValue{cells_[current_].data() + padded_.origin, padded_.pitch, width_});
  }

  void trackAge(bool on) override {
    if (on && !trackAge_) {
      requireDeviceMemory(double(width_) * height_, 0, "the age view");
      ages_.allocate(std::size_t(width_) * height_);
      ages_.zero();
    } else if (!on) {
      ages_.release();
    }
    trackAge_ = on;
  }

  void render(LifeView view, const FieldRequest& request, FieldImage& image) override {
    const std::size_t pixels = std::size_t(request.width) * request.height;
    float* target = output_.prepare(image.pixels, pixels, image.onDevice);
    const dim3 block(16, 16);
    const dim3 grid = gridFor(request.width, request.height, block);
    viewRing_.start();
    if (view == LifeView::Age && trackAge_) {
      renderKernel<<<grid, block>>>(AgeReader{ages_.data(), width_}, width_, height_, request,
                                    target, true);
    } else if (bitLayout_) {
      renderKernel<<<grid, block>>>(BitReader{bits_[current_].data(), wordsPerRow(width_)}, width_,
                                    height_, request, target, false);
    } else {
      renderKernel<<<grid, block>>>(
          PaddedReader{cells_[current_].data() + padded_.origin, padded_.pitch}, width_, height_,
          request, target, false);
    }
    WS_CUDA_CHECK_LAUNCH();
    viewRing_.stop(double(pixels), double(pixels) * sizeof(float));
    output_.deliver();
  }

  void pollTimings() override {
    ring_.collect(*timings_.step);
    viewRing_.collect(*timings_.view);
  }
  void drainTimings() override {
    ring_.drain(*timings_.step);
    viewRing_.drain(*timings_.view);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }
  std::string configuration() const override {
    const std::string block = std::to_string(config_.blockX) + "x" + std::to_string(config_.blockY);
    switch (config_.kernel) {
      case CudaLifeKernel::GlobalHalo:
        return config_.columnMajor ? "32-bit cells, blocks 32x8, threads down columns"
                                   : "32-bit cells, blocks 32x8, threads along rows";
      case CudaLifeKernel::SharedTile:
        return config_.barrier ? "32-bit cells, tile 16x16, unaligned rows"
                               : "32-bit cells, tile 16x16, NO BARRIER (race)";
      case CudaLifeKernel::SharedAligned:
        return "32-bit cells, tile 16x16, aligned rows";
      case CudaLifeKernel::SharedFlat:
        return "32-bit cells, block " + block;
      case CudaLifeKernel::MultiCell:
        return "32-bit cells, block " + block + ", " + std::to_string(config_.cellsPerThread) +
               " cells/thread";
      case CudaLifeKernel::BitPacked:
        return "1 bit per cell, " + std::to_string(config_.rowsPerThread) + " rows/thread";
      case CudaLifeKernel::BitTemporal:
        return "1 bit per cell, " + std::to_string(config_.generationsPerPass) +
               " generations/pass, warp tiles 32x" +
               std::to_string(kTemporalRows + 2 * config_.generationsPerPass);
    }
    return "";
  }

  // Read the grid once, write it once.
  double bytesPerCellPerPass() const { return bitLayout_ ? 0.25 : 8.0; }
  double bytesPerCell() const override {
    const int generationsPerPass =
        config_.kernel == CudaLifeKernel::BitTemporal ? config_.generationsPerPass : 1;
    return bytesPerCellPerPass() / generationsPerPass;
  }

 private:
  // Sum of f(i) for i in [0, count) with CUB, into buffers we own (their destructors never throw,
  // which matters when the context is already lost).
  template <typename F>
  std::uint64_t deviceSum(long long count, F f) {
    const auto input = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), f);
    if (!sum_) sum_.allocate(1);
    std::size_t scratchBytes = 0;
    WS_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, scratchBytes, input, sum_.data(), count));
    if (reduceScratch_.size() < scratchBytes) reduceScratch_.allocate(scratchBytes);
    WS_CUDA_CHECK(
        cub::DeviceReduce::Sum(reduceScratch_.data(), scratchBytes, input, sum_.data(), count));
    unsigned long long total = 0;
    WS_CUDA_CHECK(cudaMemcpy(&total, sum_.data(), sizeof total, cudaMemcpyDeviceToHost));
    return total;
  }

  double heldBytes() const {
    double total = double(ages_.bytes());
    for (const auto& b : cells_) total += double(b.bytes());
    for (const auto& b : bits_) total += double(b.bytes());
    return total;
  }

  void clearAll() {
    for (auto& b : cells_)
      if (b) b.zero();
    for (auto& b : bits_)
      if (b) b.zero();
    ghostsHoldWrap_ = false;
  }

  void setGhosts(std::uint32_t* grid, bool wrap) {
    const long long ghosts = 2LL * (width_ + 2) + 2LL * height_;
    const int threads = 256;
    if (wrap) {
      recordedLaunch("wrapGhostsKernel", wrapGhostsKernel, blocksFor(ghosts, threads), threads)(
          grid, padded_);
      WS_CUDA_CHECK_LAUNCH();
    } else {
      clearGhostsKernel(grid);
    }
  }

  void clearGhostsKernel(std::uint32_t* grid) {
    // Ghost rows are whole rows; ghost columns are two strided columns: cudaMemset2D covers both.
    const std::size_t pitchBytes = padded_.pitch * sizeof(std::uint32_t);
    std::uint32_t* cell00 = grid + padded_.origin;
    WS_CUDA_CHECK(cudaMemset(cell00 - padded_.pitch - 1, 0, (width_ + 2) * sizeof(std::uint32_t)));
    WS_CUDA_CHECK(
        cudaMemset(cell00 + height_ * padded_.pitch - 1, 0, (width_ + 2) * sizeof(std::uint32_t)));
    WS_CUDA_CHECK(cudaMemset2D(cell00 - 1, pitchBytes, 0, sizeof(std::uint32_t), height_));
    WS_CUDA_CHECK(cudaMemset2D(cell00 + width_, pitchBytes, 0, sizeof(std::uint32_t), height_));
  }

  void stepPadded(const LifeRule& rule, Boundary boundary) {
    std::uint32_t* current = cells_[current_].data();
    std::uint32_t* next = cells_[current_ ^ 1].data();
    if (boundary == Boundary::Torus) {
      setGhosts(current, true);
      ghostsHoldWrap_ = true;
    } else if (ghostsHoldWrap_) {  // the boundary changed from torus: dead ghosts again
      setGhosts(cells_[0].data(), false);
      setGhosts(cells_[1].data(), false);
      ghostsHoldWrap_ = false;
    }
    const std::uint32_t table = rule.cellTable();
    switch (config_.kernel) {
      case CudaLifeKernel::GlobalHalo: {
        const dim3 block(32, 8);
        if (config_.columnMajor) {
          const dim3 grid = gridFor(width_, height_, dim3(block.y, block.x));
          recordedLaunch("lifeGlobalKernel (column-major)", lifeGlobalKernel<true>, grid, block)(
              current, next, padded_, table);
        } else {
          const dim3 grid = gridFor(width_, height_, block);
          recordedLaunch("lifeGlobalKernel", lifeGlobalKernel<false>, grid, block)(current, next,
                                                                                   padded_, table);
        }
        break;
      }
      case CudaLifeKernel::SharedTile:
        if (!config_.barrier) {
          launchTileKernel<16, 16, 1, false>(current, next, padded_, table);
          break;
        }
        [[fallthrough]];
      case CudaLifeKernel::SharedAligned:
        launchTileShape(16, 16, 1, current, next, padded_, table);
        break;
      case CudaLifeKernel::SharedFlat:
        launchTileShape(config_.blockX, config_.blockY, 1, current, next, padded_, table);
        break;
      default:
        launchTileShape(config_.blockX, config_.blockY, config_.cellsPerThread, current, next,
                        padded_, table);
        break;
    }
    WS_CUDA_CHECK_LAUNCH();
  }

  // (7): whole passes of generationsPerPass, then one shorter pass for the rest.
  int stepTemporal(int generations, const LifeRule& rule, Boundary boundary, int& passes) {
    const BitGeometry g = makeBitGeometry(width_, height_, boundary);
    if (g.torus && g.tailBits != 0) return 0;  // a partial last word cannot wrap by lanes: (6)
    int done = 0;
    while (done < generations) {
      const int pass = std::min(config_.generationsPerPass, generations - done);
      switch (config_.generationsPerPass) {
        case 2:
          launchTemporal<2>(g, rule, pass);
          break;
        case 8:
          launchTemporal<8>(g, rule, pass);
          break;
        default:
          launchTemporal<4>(g, rule, pass);
          break;
      }
      WS_CUDA_CHECK_LAUNCH();
      current_ ^= 1;
      done += pass;
      ++passes;
    }
    return done;
  }

  template <int kGens>
  void launchTemporal(const BitGeometry& g, const LifeRule& rule, int generations) {
    const dim3 block(32, 4);
    const dim3 grid((g.words + kTemporalColumns - 1) / kTemporalColumns,
                    (height_ + block.y * kTemporalRows - 1) / (block.y * kTemporalRows));
    const Word* current = bits_[current_].data();
    Word* next = bits_[current_ ^ 1].data();
    const auto kernel = rule.isConway() ? (g.torus ? lifeBitTemporalKernel<true, true, kGens>
                                                   : lifeBitTemporalKernel<true, false, kGens>)
                                        : (g.torus ? lifeBitTemporalKernel<false, true, kGens>
                                                   : lifeBitTemporalKernel<false, false, kGens>);
    recordedLaunch("lifeBitTemporalKernel", kernel, grid, block)(
        current, next, g, generations, rule.birthByBlock(), rule.surviveByBlock());
  }

  void stepBits(const LifeRule& rule, Boundary boundary) {
    const BitGeometry g = makeBitGeometry(width_, height_, boundary);
    // clang-format off
    switch (config_.rowsPerThread) {
      case 1: launchBits<1>(g, rule); break;
      case 2: launchBits<2>(g, rule); break;
      case 4: launchBits<4>(g, rule); break;
      case 16: launchBits<16>(g, rule); break;
      case 32: launchBits<32>(g, rule); break;
      default: launchBits<8>(g, rule); break;
    }
    // clang-format on
    WS_CUDA_CHECK_LAUNCH();
  }

  template <int kRows>
  void launchBits(const BitGeometry& g, const LifeRule& rule) {
    const dim3 block(64, 2);
    const dim3 grid = gridFor(g.words, (height_ + kRows - 1) / kRows, block);
    const Word* current = bits_[current_].data();
    Word* next = bits_[current_ ^ 1].data();
    if (rule.isConway())
      recordedLaunch("lifeBitPackedKernel", lifeBitPackedKernel<true, kRows>, grid, block)(
          current, next, g, 0u, 0u);
    else
      recordedLaunch("lifeBitPackedKernel", lifeBitPackedKernel<false, kRows>, grid, block)(
          current, next, g, rule.birthByBlock(), rule.surviveByBlock());
  }

  void updateAges() {
    const dim3 block(32, 8);
    const dim3 grid = gridFor(width_, height_, block);
    if (bitLayout_)
      ageKernel<<<grid, block>>>(BitReader{bits_[current_].data(), wordsPerRow(width_)}, width_,
                                 height_, ages_.data());
    else
      ageKernel<<<grid, block>>>(
          PaddedReader{cells_[current_].data() + padded_.origin, padded_.pitch}, width_, height_,
          ages_.data());
    WS_CUDA_CHECK_LAUNCH();
  }

  CudaLifeConfig config_;
  LifeTimings timings_;
  GpuTimerRing ring_, viewRing_;
  bool bitLayout_;
  int width_ = 0, height_ = 0;
  PaddedGeometry padded_{};
  DeviceBuffer<std::uint32_t> cells_[2];
  DeviceBuffer<Word> bits_[2];
  int current_ = 0;
  bool ghostsHoldWrap_ = false;
  bool trackAge_ = false;
  DeviceBuffer<std::uint8_t> ages_;
  DeviceBuffer<DeviceCellEdit> edits_;
  DeviceOutput<float> output_;  // the view's pixels
  DeviceBuffer<unsigned long long> sum_;
  DeviceBuffer<unsigned char> reduceScratch_;
};

}  // namespace

std::unique_ptr<LifeEngine> makeCudaEngine(const CudaLifeConfig& config, LifeTimings timings) {
  return std::make_unique<CudaEngine>(config, timings);
}

}  // namespace ws::life
