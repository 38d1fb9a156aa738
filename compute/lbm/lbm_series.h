#pragma once
// The monitor's records over time (lbm_engine.h): the forces on each obstacle and the flow at
// each probe, one row per recorded step, and what a periodic signal among them says.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws::lbm {

class FlowSeries {
 public:
  // Every step is kept up to kRows rows; then every second one of them, and so on, so that a long
  // run keeps its whole history at a coarser spacing.
  static constexpr std::size_t kRows = 1 << 16;

  // Starts an empty series of these columns.
  void restart(std::vector<std::string> columns);
  // The records of steps firstStep, firstStep + 1... (columns().size() numbers each). Rows of
  // firstStep or later are replaced (a state restored from before them goes on).
  void append(std::uint64_t firstStep, const std::vector<double>& records);

  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rows() const { return steps_.size(); }
  std::uint64_t step(std::size_t row) const { return steps_[row]; }
  const double& value(std::size_t row, std::size_t column) const {
    return values_[row * columns_.size() + column];
  }
  std::uint64_t spacing() const { return spacing_; }  // steps between rows

 private:
  std::vector<std::string> columns_;
  std::vector<std::uint64_t> steps_;
  std::vector<double> values_;
  std::uint64_t spacing_ = 1;
};

// The period of a signal that has become periodic: the mean time between its upward crossings of
// its mean, over the latest periods that agree with the last one within 2%.
struct Period {
  double steps = 0;  // the period in steps
  int periods = 0;   // how many it was measured over
};
// Needs at least three periods; none while the signal is not (yet) periodic or is flat.
std::optional<Period> findPeriod(const FlowSeries& series, std::size_t column);

// The mean of a column over the last `span` steps (the rows after the last step - span); none
// while the series reaches back fewer steps. A swing whose period divides `span` cancels out.
std::optional<double> meanOverLast(const FlowSeries& series, std::size_t column,
                                   std::uint64_t span);

}  // namespace ws::lbm
