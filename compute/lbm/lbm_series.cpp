#include "compute/lbm/lbm_series.h"

#include <algorithm>
#include <cmath>

namespace ws::lbm {

void FlowSeries::restart(std::vector<std::string> columns) {
  columns_ = std::move(columns);
  steps_.clear();
  values_.clear();
  spacing_ = 1;
}

void FlowSeries::append(std::uint64_t firstStep, const std::vector<double>& records) {
  const std::size_t stride = columns_.size();
  if (stride == 0) return;
  // A state restored from before the last rows (the last good state) goes on from there.
  while (!steps_.empty() && steps_.back() >= firstStep) {
    steps_.pop_back();
    values_.resize(values_.size() - stride);
  }
  for (std::size_t r = 0; r * stride < records.size(); ++r) {
    const std::uint64_t step = firstStep + r;
    if (step % spacing_) continue;
    if (steps_.size() == kRows) {  // keep every second row
      std::size_t kept = 0;
      for (std::size_t k = 0; k < steps_.size(); ++k) {
        if (steps_[k] % (2 * spacing_)) continue;
        steps_[kept] = steps_[k];
        std::copy_n(values_.begin() + k * stride, stride, values_.begin() + kept * stride);
        ++kept;
      }
      steps_.resize(kept);
      values_.resize(kept * stride);
      spacing_ *= 2;
      if (step % spacing_) continue;
    }
    steps_.push_back(step);
    values_.insert(values_.end(), records.begin() + r * stride, records.begin() + (r + 1) * stride);
  }
}

std::optional<Period> findPeriod(const FlowSeries& series, std::size_t column) {
  const std::size_t rows = series.rows();
  if (rows < 16) return std::nullopt;
  // The mean and swing of the later half: the start is the flow settling.
  const std::size_t from = rows / 2;
  double mean = 0, low = INFINITY, high = -INFINITY;
  for (std::size_t r = from; r < rows; ++r) {
    const double v = series.value(r, column);
    if (!std::isfinite(v)) return std::nullopt;
    mean += v;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  mean /= double(rows - from);
  const double swing = high - low;
  if (!(swing > 1e-9 * std::max(1.0, std::abs(mean)))) return std::nullopt;
  // Upward crossings of the mean, each after the signal was a tenth of its swing below it (so that
  // noise about the mean does not count), placed between rows by linear interpolation.
  std::vector<double> crossings;
  bool armed = false;
  for (std::size_t r = from; r < rows; ++r) {
    const double v = series.value(r, column) - mean;
    if (v < -0.1 * swing) armed = true;
    if (armed && v >= 0 && r > from) {
      const double before = series.value(r - 1, column) - mean;
      const double t0 = double(series.step(r - 1)), t1 = double(series.step(r));
      crossings.push_back(before < 0 ? t0 + (t1 - t0) * (-before) / (v - before) : t1);
      armed = false;
    }
  }
  if (crossings.size() < 4) return std::nullopt;
  // The latest periods that agree with the last one.
  const std::size_t last = crossings.size() - 1;
  const double latest = crossings[last] - crossings[last - 1];
  std::size_t first = last - 1;
  while (first > 0 && std::abs(crossings[first] - crossings[first - 1] - latest) <= 0.02 * latest)
    --first;
  const int periods = int(last - first);
  if (periods < 3) return std::nullopt;
  return Period{(crossings[last] - crossings[first]) / periods, periods};
}

std::optional<double> meanOverLast(const FlowSeries& series, std::size_t column,
                                   std::uint64_t span) {
  const std::size_t rows = series.rows();
  if (rows == 0 || series.step(rows - 1) < series.step(0) + span) return std::nullopt;
  const std::uint64_t after = series.step(rows - 1) - span;
  double sum = 0;
  std::size_t count = 0;
  for (std::size_t row = rows; row-- > 0 && series.step(row) > after; ++count)
    sum += series.value(row, column);
  return sum / double(count);
}

}  // namespace ws::lbm
