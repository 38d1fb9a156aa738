#include "compute/lbm/lbm_wake.h"

#include <cmath>

namespace ws::lbm {

namespace {

// The moments on the cylinder's axis line, interpolated between the rows either side of it (the
// rows of wakeRows); none at a column where either is a wall.
class AxisLine {
 public:
  AxisLine(const Grid& g, const std::vector<PlaneSample>& rows, double y)
      : g_(g), rows_(rows), weight_(y - 0.5 - std::floor(y - 0.5)) {}
  int columns() const { return g_.nx; }
  std::optional<PlaneSample> at(int i) const {
    if (i < 0 || i >= g_.nx) return std::nullopt;
    const PlaneSample& a = rows_[std::size_t(i)];
    if (weight_ == 0) return fluid(a) ? std::optional(a) : std::nullopt;
    const PlaneSample& b = rows_[std::size_t(g_.nx) + i];
    if (!fluid(a) || !fluid(b)) return std::nullopt;
    const auto mix = [&](float lo, float hi) { return float((1 - weight_) * lo + weight_ * hi); };
    return PlaneSample{mix(a.rho, b.rho), {mix(a.u[0], b.u[0]), mix(a.u[1], b.u[1]), 0}};
  }
  static double pressure(const PlaneSample& s) { return (s.rho - 1.0) / 3.0; }

 private:
  static bool fluid(const PlaneSample& s) { return std::isfinite(s.rho); }
  const Grid& g_;
  const std::vector<PlaneSample>& rows_;
  double weight_;
};

// The pressure at x on the line, extrapolated from the first two fluid columns met going from x
// in direction `step` (-1 or +1; a column's centre may be at x itself); none if there are none.
std::optional<double> pressureAtWall(const AxisLine& line, double x, int step) {
  int i = step < 0 ? int(std::floor(x - 0.5)) : int(std::ceil(x - 0.5));
  for (; i >= 0 && i < line.columns(); i += step) {
    const std::optional<PlaneSample> near = line.at(i), far = line.at(i + step);
    if (!near || !far) continue;
    const double pNear = AxisLine::pressure(*near), pFar = AxisLine::pressure(*far);
    const double distance = std::abs(i + 0.5 - x);  // from x to the near column
    return pNear + (pNear - pFar) * distance;
  }
  return std::nullopt;
}

}  // namespace

RowSpan wakeRows(const Grid& g, const Cylinder& cylinder) {
  const double below = std::floor(cylinder.y - 0.5);
  const int count = cylinder.y - 0.5 == below ? 1 : 2;
  if (below < 0 || below + count > g.ny) return {};
  return {int(below), count};
}

std::optional<Wake> measureWake(const Grid& g, const std::vector<PlaneSample>& rows,
                                const Cylinder& cylinder) {
  if (rows.size() != std::size_t(g.nx) * wakeRows(g, cylinder).count || rows.empty())
    return std::nullopt;
  const AxisLine line(g, rows, cylinder.y);
  const double r = cylinder.diameter / 2, front = cylinder.x - r, back = cylinder.x + r;
  const std::optional<double> pFront = pressureAtWall(line, front, -1);
  const std::optional<double> pBack = pressureAtWall(line, back, +1);
  if (!pFront || !pBack) return std::nullopt;
  Wake wake;
  wake.pressureDrop = *pFront - *pBack;
  // Behind the cylinder: the first fluid column, then on until u_x, negative somewhere, is
  // positive again.
  int i = int(std::ceil(back - 0.5));
  while (i < g.nx && !line.at(i)) ++i;
  bool backward = false;
  std::optional<PlaneSample> previous;
  for (; i < g.nx; ++i) {
    const std::optional<PlaneSample> here = line.at(i);
    if (!here) break;
    const float u = here->u[0];
    if (u < 0) backward = true;
    if (backward && u >= 0 && previous) {
      const double uPrev = previous->u[0];
      wake.recirculation = (i - 0.5) + uPrev / (uPrev - u) - back;
      return wake;
    }
    if (!backward && previous && u >= 0) break;  // never backward by its back
    previous = here;
  }
  if (!backward) wake.recirculation = 0.0;
  return wake;
}

}  // namespace ws::lbm
