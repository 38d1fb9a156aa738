#pragma once
// One implementation of Life's state and step: the CPU engines (life_cpu) and the CUDA engine
// (life_cuda) with its kernel variants. LifeModule drives whichever is selected.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compute/core/timing.h"
#include "compute/life/life_grid.h"
#include "compute/life/life_rule.h"
#include "compute/life/life_view.h"
#include "compute/views/field.h"

namespace ws::life {

// Where an engine records its timings: the generations it steps and the field views it samples.
struct LifeTimings {
  TimingScope* step;
  TimingScope* view;
};

class LifeEngine {
 public:
  virtual ~LifeEngine() = default;

  // A new, empty grid. Throws OutOfMemoryError before touching the current one when it won't fit.
  virtual void reshape(int width, int height) = 0;
  virtual int width() const = 0;
  virtual int height() const = 0;

  virtual void clear() = 0;
  virtual void fillRandom(std::uint64_t seed, double density) = 0;
  // Sets each cell as the edit says and returns what the cells held before, in the same order
  // (the edit that puts them back). A cell is named at most once.
  virtual std::vector<CellEdit> setCells(std::span<const CellEdit> cells) = 0;
  virtual void load(const LifeGrid& grid) = 0;  // same size as the engine's grid
  virtual LifeGrid save() = 0;

  virtual void step(int generations, const LifeRule& rule, Boundary boundary) = 0;
  virtual std::uint64_t population() = 0;

  // Age tracking (generations each cell has been alive, capped at 255) costs a pass per
  // generation, so it runs only while the age view is shown.
  virtual void trackAge(bool on) = 0;
  virtual void render(LifeView view, const FieldRequest& request, FieldImage& image) = 0;

  virtual void pollTimings() {}
  virtual void drainTimings() {}
  virtual void synchronize() {}
  // The launch configuration in words ("block 64x4, 2 cells/thread"), for the UI and the tests.
  virtual std::string configuration() const = 0;
  // Compulsory bytes per cell update (read the grid once, write it once) of this layout.
  virtual double bytesPerCell() const = 0;
};

std::unique_ptr<LifeEngine> makeCpuEngine(const std::string& variant, LifeTimings timings);

}  // namespace ws::life
