#pragma once
// Plots a module draws beside the simulation: histograms, curves of its own, a dendrogram.
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// Counts in labelled bins (the cuckoo tables' eviction chain lengths), drawn as a bar chart; with
// a reference (the same bins at the start), both on one scale.
struct Histogram {
  std::string name;
  std::vector<std::string> labels;
  std::vector<float> values;
  std::string referenceName;
  std::vector<float> reference;
};

// A series the module records itself, one value per step() call that ran (the mesh's smallest
// angle per pass), where a per-frame plot would also count paused frames. `x` says what a point
// is ("pass").
struct Curve {
  std::string name, x;
  std::deque<float> values;
};

// A tree drawn as line segments in the unit square (Girvan-Newman's dendrogram: x across the
// communities, y down the splits), with one level marked (the one shown).
struct Dendrogram {
  std::string name;
  std::vector<float> segments;  // x0, y0, x1, y1 per segment, in [0, 1], y growing downwards
  float marked = -1;            // y of the marked level, or -1
  std::string caption;
};

// Named series of (x, y) points on shared axes, each in its own colour (the Poisson solvers'
// residual against time, one series a solver): `x` and `y` say what the axes are.
struct SeriesPlot {
  struct Series {
    std::string name;
    std::vector<float> x, y;
  };
  std::string name, x, y;
  std::vector<Series> series;
};

// What a module with plots offers; each kind is empty where it has none.
class PlotSource {
 public:
  virtual ~PlotSource() = default;
  virtual std::vector<Histogram> histograms() const { return {}; }
  virtual std::vector<Curve> curves() const { return {}; }
  virtual std::optional<Dendrogram> dendrogram() const { return std::nullopt; }
  virtual std::vector<SeriesPlot> seriesPlots() const { return {}; }
};

}  // namespace ws
