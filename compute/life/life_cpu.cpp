#include "compute/life/life_cpu.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "compute/core/errors.h"
#include "compute/core/memory.h"
#include "compute/core/parallel.h"
#include "compute/life/life_bitops.h"
#include "compute/life/life_soup.h"

namespace ws::life {

namespace {

// Shared by both CPU engines: a grid of ages next to the cells, updated per generation.
struct AgeTracker {
  bool on = false;
  std::vector<std::uint8_t> ages;

  template <typename Alive>
  void update(int width, int height, Alive alive) {
    if (!on) return;
    ages.resize(std::size_t(width) * height, 0);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        std::uint8_t& a = ages[std::size_t(y) * width + x];
        a = alive(x, y) ? std::uint8_t(std::min(a + 1, 255)) : 0;
      }
  }
};

// samplePixel's arithmetic with the sample coordinates of each column and row worked out once per
// frame instead of once per pixel.
template <typename Reader>
void renderOnHost(const Reader& reader, int width, int height, LifeView view,
                  const FieldRequest& request, FieldImage& image, TimingScope& timing) {
  const CpuStopwatch watch;
  const int samples = samplesPerAxis(request.worldPerPixel);
  std::vector<int> xs(std::size_t(request.width) * samples),
      ys(std::size_t(request.height) * samples);
  for (int p = 0; p < request.width; ++p)
    for (int s = 0; s < samples; ++s)
      xs[p * samples + s] =
          sampleCell(request.originX, request.worldPerPixel, samples, p, s, width);
  for (int p = 0; p < request.height; ++p)
    for (int s = 0; s < samples; ++s)
      ys[p * samples + s] =
          sampleCell(request.originY, request.worldPerPixel, samples, p, s, height);
#pragma omp parallel for schedule(static)
  for (int py = 0; py < request.height; ++py)
    for (int px = 0; px < request.width; ++px) {
      PixelSamples pixel{view == LifeView::Age};
      for (int sy = 0; sy < samples; ++sy) {
        const int y = ys[py * samples + sy];
        if (y < 0) continue;
        for (int sx = 0; sx < samples; ++sx)
          if (const int x = xs[px * samples + sx]; x >= 0) pixel.add(reader.value(x, y));
      }
      image.pixels[std::size_t(py) * request.width + px] = pixel.value();
    }
  const double pixels = double(request.width) * request.height;
  timing.record(watch.elapsedMs(), pixels, pixels * sizeof(float));
}

// ---- Reference: one byte per cell -------------------------------------------------------------

class ReferenceEngine final : public LifeEngine {
 public:
  explicit ReferenceEngine(LifeTimings timings) : timings_(timings) {}

  void reshape(int width, int height) override {
    requireHostMemory(double(width) * height * 3.0,
                      "a " + std::to_string(width) + "x" + std::to_string(height) + " grid");
    cells_.assign(std::size_t(width) * height, 0);
    next_.assign(cells_.size(), 0);
    width_ = width;
    height_ = height;
    age_.ages.assign(age_.on ? cells_.size() : 0, 0);
  }
  int width() const override { return width_; }
  int height() const override { return height_; }

  void clear() override { std::fill(cells_.begin(), cells_.end(), 0); }
  void fillRandom(std::uint64_t seed, double density) override {
    const std::uint64_t threshold = soupThreshold(density);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < height_; ++y)
      for (int x = 0; x < width_; ++x) cell(x, y) = soupCell(seed, threshold, x, y);
  }
  std::vector<CellEdit> setCells(std::span<const CellEdit> edits) override {
    std::vector<CellEdit> before;
    before.reserve(edits.size());
    for (const auto& e : edits) {
      before.push_back({e.x, e.y, cell(e.x, e.y) != 0});
      cell(e.x, e.y) = e.alive;
    }
    return before;
  }
  void load(const LifeGrid& grid) override {
#pragma omp parallel for schedule(static)
    for (int y = 0; y < height_; ++y)
      for (int x = 0; x < width_; ++x) cell(x, y) = grid.get(x, y);
  }
  LifeGrid save() override {
    LifeGrid grid(width_, height_);
    for (int y = 0; y < height_; ++y)
      for (int x = 0; x < width_; ++x)
        if (cell(x, y)) grid.set(x, y, true);
    return grid;
  }

  void step(int generations, const LifeRule& rule, Boundary boundary) override {
    const CpuStopwatch watch;
    const std::uint32_t table = rule.cellTable();
    const bool torus = boundary == Boundary::Torus;
    for (int g = 0; g < generations; ++g) {
#pragma omp parallel for schedule(static) if (worthATeam(cells_.size()))
      for (int y = 0; y < height_; ++y) {
        for (int x = 0; x < width_; ++x) {
          int n = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              if (dx || dy) n += neighbour(x + dx, y + dy, torus);
          next_[std::size_t(y) * width_ + x] = (table >> (n + 9 * cell(x, y))) & 1u;
        }
      }
      cells_.swap(next_);
      age_.update(width_, height_, [this](int x, int y) { return cell(x, y) != 0; });
    }
    const double cellsDone = double(width_) * height_ * generations;
    timings_.step->record(watch.elapsedMs(), cellsDone, cellsDone * bytesPerCell());
  }

  std::uint64_t population() override {
    std::uint64_t total = 0;
#pragma omp parallel for reduction(+ : total)
    for (std::size_t i = 0; i < cells_.size(); ++i) total += cells_[i];
    return total;
  }

  void trackAge(bool on) override {
    age_.on = on;
    age_.ages.assign(on ? cells_.size() : 0, 0);
  }

  void render(LifeView view, const FieldRequest& request, FieldImage& image) override {
    struct Reader {
      const ReferenceEngine* e;
      LifeView view;
      float value(int x, int y) const {
        const std::size_t i = std::size_t(y) * e->width_ + x;
        return view == LifeView::Age ? float(e->age_.ages[i]) : float(e->cells_[i]);
      }
    };
    renderOnHost(Reader{this, view}, width_, height_, view, request, image, *timings_.view);
  }

  double bytesPerCell() const override {
    return 2.0;
  }
  std::string configuration() const override {
    return "1 byte per cell, OpenMP rows";
  }

 private:
  std::uint8_t& cell(int x, int y) {
    return cells_[std::size_t(y) * width_ + x];
  }
  std::uint8_t cell(int x, int y) const {
    return cells_[std::size_t(y) * width_ + x];
  }
  int neighbour(int x, int y, bool torus) const {
    if (x < 0 || x >= width_ || y < 0 || y >= height_) {
      if (!torus) return 0;
      x = (x + width_) % width_;
      y = (y + height_) % height_;
    }
    return cell(x, y);
  }

  LifeTimings timings_;
  int width_ = 0, height_ = 0;
  std::vector<std::uint8_t> cells_, next_;
  AgeTracker age_;
};

// ---- Bit-packed: 64 cells per word ------------------------------------------------------------

class BitPackedEngine final : public LifeEngine {
 public:
  explicit BitPackedEngine(LifeTimings timings) : timings_(timings) {}

  void reshape(int width, int height) override {
    requireHostMemory(double(width) * height * 0.25,
                      "a " + std::to_string(width) + "x" + std::to_string(height) + " grid");
    grid_ = LifeGrid(width, height);
    next_ = LifeGrid(width, height);
    age_.ages.assign(age_.on ? std::size_t(width) * height : 0, 0);
  }
  int width() const override { return grid_.width; }
  int height() const override { return grid_.height; }

  void clear() override { std::fill(grid_.words.begin(), grid_.words.end(), 0); }
  void fillRandom(std::uint64_t seed, double density) override {
    const std::uint64_t threshold = soupThreshold(density);
    const int stride = grid_.stride();
#pragma omp parallel for schedule(static)
    for (int y = 0; y < grid_.height; ++y)
      for (int j = 0; j < stride; ++j) {
        Word w = 0;
        for (int b = 0; b < kWordBits && j * kWordBits + b < grid_.width; ++b)
          w |= Word(soupCell(seed, threshold, j * kWordBits + b, y)) << b;
        grid_.words[std::size_t(y) * stride + j] = w;
      }
  }
  std::vector<CellEdit> setCells(std::span<const CellEdit> edits) override {
    std::vector<CellEdit> before;
    before.reserve(edits.size());
    for (const auto& e : edits) {
      before.push_back({e.x, e.y, grid_.get(e.x, e.y)});
      grid_.set(e.x, e.y, e.alive);
    }
    return before;
  }
  void load(const LifeGrid& grid) override {
    grid_ = grid;
  }
  LifeGrid save() override {
    return grid_;
  }

  void step(int generations, const LifeRule& rule, Boundary boundary) override {
    const CpuStopwatch watch;
    const BitGeometry g = makeBitGeometry(grid_.width, grid_.height, boundary);
    constexpr int kRowsPerTask = 16;
    const int rowGroups = (g.height + kRowsPerTask - 1) / kRowsPerTask;
    for (int gen = 0; gen < generations; ++gen) {
#pragma omp parallel for collapse(2) schedule(static) if (worthATeam(grid_.words.size()))
      for (int group = 0; group < rowGroups; ++group)
        for (int j = 0; j < g.words; ++j) {
          const int first = group * kRowsPerTask;
          const int end = std::min(first + kRowsPerTask, g.height);
          if (rule.isConway())
            stepWordColumn<true>(grid_.words.data(), next_.words.data(), j, first, end, g, 0, 0);
          else
            stepWordColumn<false>(grid_.words.data(), next_.words.data(), j, first, end, g,
                                  rule.birthByBlock(), rule.surviveByBlock());
        }
      std::swap(grid_, next_);
      age_.update(grid_.width, grid_.height, [this](int x, int y) { return grid_.get(x, y); });
    }
    const double cellsDone = double(grid_.width) * grid_.height * generations;
    timings_.step->record(watch.elapsedMs(), cellsDone, cellsDone * bytesPerCell());
  }

  std::uint64_t population() override {
    return grid_.population();
  }

  void trackAge(bool on) override {
    age_.on = on;
    age_.ages.assign(on ? std::size_t(grid_.width) * grid_.height : 0, 0);
  }

  void render(LifeView view, const FieldRequest& request, FieldImage& image) override {
    struct Reader {
      const BitPackedEngine* e;
      LifeView view;
      float value(int x, int y) const {
        if (view == LifeView::Age) return float(e->age_.ages[std::size_t(y) * e->grid_.width + x]);
        return float(e->grid_.get(x, y));
      }
    };
    renderOnHost(Reader{this, view}, grid_.width, grid_.height, view, request, image,
                 *timings_.view);
  }

  double bytesPerCell() const override {
    return 0.25;
  }
  std::string configuration() const override {
    return "64 cells per word, OpenMP word columns";
  }

 private:
  LifeTimings timings_;
  LifeGrid grid_, next_;
  AgeTracker age_;
};

}  // namespace

void referenceStep(const LifeGrid& current, LifeGrid& next, const LifeRule& rule,
                   Boundary boundary) {
  TimingScope unused("reference", "cells/s", false);
  ReferenceEngine engine({&unused, &unused});
  engine.reshape(current.width, current.height);
  engine.load(current);
  engine.step(1, rule, boundary);
  next = engine.save();
}

std::unique_ptr<LifeEngine> makeCpuEngine(const std::string& variant, LifeTimings timings) {
  if (variant == "bitpacked") return std::make_unique<BitPackedEngine>(timings);
  return std::make_unique<ReferenceEngine>(timings);
}

}  // namespace ws::life
