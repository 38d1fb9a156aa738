#pragma once
// The Compare section's two measured views. The roofline: every kernel variant of the module as a
// point (operations per byte from its op and byte models, operations per second achieved) under
// this machine's measured ceilings. The scaling sweep: the module's step over a range of sizes on
// the CPU and the GPU, with a straight line fitted to each on log-log axes and where they cross.
// Both measure copies of the running module, which they leave alone.
#include <optional>
#include <string>
#include <vector>

#include "compute/core/module.h"

namespace ws::app {

struct RooflinePoint {
  std::string backend, variant;
  OpKind kind = OpKind::Fp32;
  double intensity = 0;       // operations per byte of the byte model
  double opsPerSecond = 0;    // work units per second x the op model
  double bytesPerSecond = 0;  // as the timing overlay shows it
  // The median sample's model bytes (a step or a few over the same data): what a cache must hold
  // for the point to sit under the cache's roof rather than memory's (bandwidthFor).
  double workingSet = 0;
  bool live = false;  // from the running module's own timings
};

// The module's point from its own step timing; none before a timing or without an op model.
std::optional<RooflinePoint> rooflinePoint(const Module& module);
// Measures every variant of the module's backend, one at a time (the GUI measures one per
// frame), each on a copy at the module's parameters, as the benchmark does (fewer samples). A
// variant that does not fit beside the running module is left out.
class RooflineRunner {
 public:
  explicit RooflineRunner(const Module& module, int samples = 5, int stepsPerSample = 4);
  bool done() const { return next_ >= variants_.size(); }
  // Measures the next variant; false when there was none left. Throws what the module throws.
  bool step();
  const std::vector<RooflinePoint>& points() const { return points_; }
  std::size_t planned() const { return variants_.size(); }
  std::size_t measured() const { return next_; }
  const std::string& moduleName() const { return module_; }
  Backend backend() const { return backend_; }

 private:
  std::string module_;
  nlohmann::json preset_;
  Backend backend_;
  std::vector<std::string> variants_;
  int samples_, stepsPerSample_;
  std::size_t next_ = 0;
  std::vector<RooflinePoint> points_;
};

struct SweepPoint {
  Backend backend;
  std::string size;
  double work = 0;       // work units per step (cells, elements)
  double msPerStep = 0;  // median
};

// log10(ms) = intercept + slope * log10(work), fitted over the larger half of a backend's sizes
// (below it a step's fixed cost hides the growth): slope 1 is linear time, below 1 a fixed cost
// still dominating.
struct SweepLine {
  double slope = 0, intercept = 0;
  double fromWork = 0, toWork = 0;  // the sizes it was fitted over
  double msAt(double work) const;
};
std::optional<SweepLine> fitSweep(const std::vector<SweepPoint>& points, Backend backend);
// Where the GPU starts to win: between the last size at which the CPU is as fast or faster and the
// next (from which the GPU wins at every size), interpolated on the log-log axes. None where the
// GPU wins at every size measured, or not at the largest.
std::optional<double> sweepCrossover(const std::vector<SweepPoint>& points);

// Runs a sweep one point at a time (the GUI measures one per frame). Each backend runs the
// module's variant where it offers it, else its default, at the module's other parameters. A
// backend stops growing once a step takes longer than `slowStepMs`.
class SweepRunner {
 public:
  SweepRunner(const Module& module, std::vector<Backend> backends, double slowStepMs = 150);
  bool done() const { return next_ >= plan_.size(); }
  // Measures the next point; false when there was none left. Throws what the module throws.
  bool step();
  const std::vector<SweepPoint>& points() const { return points_; }
  std::size_t planned() const { return plan_.size(); }
  std::size_t measured() const { return next_; }
  const std::string& moduleName() const { return module_; }

 private:
  std::string module_, variant_;
  nlohmann::json preset_;
  std::vector<std::pair<Backend, std::string>> plan_;
  std::size_t next_ = 0;
  std::vector<Backend> stopped_;
  double slowStepMs_;
  std::vector<SweepPoint> points_;
};

}  // namespace ws::app
