#pragma once
// Streamlines of the 3-D view: curves everywhere tangent to the velocity at one instant, traced
// through the moments of every cell from seed points, each frame anew. A line follows the unit
// direction of the velocity (so its points lie half a cell apart whatever the speed) by
// fourth-order Runge-Kutta, the velocity trilinear between cell centres with walls at rest, and
// stops where it would leave the lattice or enter a wall, or where the flow stands still or turns
// back. Seeds lie
// spread evenly (an additive recurrence, Roberts' R2 and R3 sequences) through the fluid, a line
// running both ways from its seed, or over the inlet plane, a line running downstream. The
// per-line code below is shared by the CPU and CUDA tracers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "compute/core/hd.h"
#include "compute/core/timing.h"
#include "compute/lbm/lbm_view.h"
#include "compute/views/surface.h"

namespace ws::lbm {

// What the lines run through: the moments of every cell (x fastest; walls NaN density), in the
// tracer's memory. Cell (x, y, z) has its centre at (x, y, z) + 0.5, like the isosurfaces.
struct StreamField {
  const PlaneSample* moments = nullptr;
  Grid grid;
};

struct StreamSpec {
  int lines = 0;
  int points = 2;          // per line, so points - 1 segments; at least 2
  bool fromInlet = false;  // seeds over the plane x = 1.5, lines downstream; else throughout
  static constexpr float kStep = 0.5f;  // cells between a line's points
  WS_HD std::size_t segments() const { return std::size_t(lines) * std::size_t(points - 1); }
};

// Below this speed the flow counts as standing still.
constexpr float kStagnantSpeed = 1e-7f;

// Whether `p` lies in a fluid cell of the lattice.
WS_HD bool streamInFluid(const StreamField& f, const float p[3]) {
  const Grid& g = f.grid;
  if (!(p[0] >= 0 && p[1] >= 0 && p[2] >= 0 && p[0] < g.nx && p[1] < g.ny && p[2] < g.nz))
    return false;
  const float rho = f.moments[(std::size_t(int(p[2])) * g.ny + int(p[1])) * g.nx + int(p[0])].rho;
  return rho == rho;
}

// The velocity at `p`, trilinear between the eight cell centres around it (held to the lattice
// at its border); walls count as at rest. False where `p` is not in a fluid cell. Every read is
// unconditional, the cell that holds `p` read with the eight, so that the GPU issues them
// together and a lookup waits for memory once. (streamInFluid's test is written again here, not
// shared: finding the holding cell in one helper cost 17% of the tracing on an H100.)
WS_HD bool streamVelocity(const StreamField& f, const float p[3], float u[3]) {
  u[0] = u[1] = u[2] = 0;
  const Grid& g = f.grid;
  if (!(p[0] >= 0 && p[1] >= 0 && p[2] >= 0 && p[0] < g.nx && p[1] < g.ny && p[2] < g.nz))
    return false;
  const int size[3] = {g.nx, g.ny, g.nz};
  int lo[3];
  float t[3];
  for (int k = 0; k < 3; ++k) {
    const float x = p[k] - 0.5f, base = floorf(x);
    lo[k] = int(base);
    t[k] = x - base;
  }
  for (int corner = 0; corner < 8; ++corner) {
    int at[3];
    float weight = 1;
    for (int k = 0; k < 3; ++k) {
      const int side = corner >> k & 1;
      at[k] = lo[k] + side;
      at[k] = at[k] < 0 ? 0 : at[k] >= size[k] ? size[k] - 1 : at[k];
      weight *= side ? t[k] : 1 - t[k];
    }
    const PlaneSample c = f.moments[(std::size_t(at[2]) * g.ny + at[1]) * g.nx + at[0]];
    const bool fluid = c.rho == c.rho;
    for (int k = 0; k < 3; ++k) u[k] += fluid ? weight * c.u[k] : 0.0f;
  }
  const float rho = f.moments[(std::size_t(int(p[2])) * g.ny + int(p[1])) * g.nx + int(p[0])].rho;
  return rho == rho;
}

// The unit direction of the flow at `p`, and its speed; false where there is none.
WS_HD bool streamDirection(const StreamField& f, const float p[3], float d[3], float& speed) {
  if (!streamVelocity(f, p, d)) return false;
  speed = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (!(speed > kStagnantSpeed)) return false;
  for (int k = 0; k < 3; ++k) d[k] /= speed;
  return true;
}

// One step of `h` cells along the flow's direction from p to q (classical Runge-Kutta), k1 the
// direction at p; false where a stage finds no flow, or where the stages disagree so much that
// the step gets less than half its length (the flow turns back within it: a point where it stands
// still, or a wall's corner). q itself may lie outside the fluid: the direction there says.
WS_HD bool streamStep(const StreamField& f, const float p[3], const float k1[3], float h,
                      float q[3]) {
  float k2[3], k3[3], k4[3], at[3], speed;
  for (int k = 0; k < 3; ++k) at[k] = p[k] + 0.5f * h * k1[k];
  if (!streamDirection(f, at, k2, speed)) return false;
  for (int k = 0; k < 3; ++k) at[k] = p[k] + 0.5f * h * k2[k];
  if (!streamDirection(f, at, k3, speed)) return false;
  for (int k = 0; k < 3; ++k) at[k] = p[k] + h * k3[k];
  if (!streamDirection(f, at, k4, speed)) return false;
  float length2 = 0;
  for (int k = 0; k < 3; ++k) {
    const float d = h / 6 * (k1[k] + 2 * k2[k] + 2 * k3[k] + k4[k]);
    q[k] = p[k] + d;
    length2 += d * d;
  }
  return length2 >= 0.25f * h * h;
}

// The fractional part of 0.5 + n a: an additive recurrence, evenly spread for these `a`.
WS_HD float streamRecurrence(std::uint32_t n, float a) {
  const float v = 0.5f + float(n % 16777216u) * a;
  return v - floorf(v);
}

// Line `line`'s seed: the first of its candidates (the sequence's points line, line + lines, ...,
// eight at most) in a fluid cell; false where none is.
WS_HD bool streamSeed(const StreamField& f, const StreamSpec& s, int line, float p[3]) {
  const Grid& g = f.grid;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const std::uint32_t n = std::uint32_t(line) + std::uint32_t(attempt) * std::uint32_t(s.lines);
    if (s.fromInlet) {  // R2: the plastic number's powers
      p[0] = g.nx > 1 ? 1.5f : 0.5f;
      p[1] = streamRecurrence(n, 0.7548776662f) * g.ny;
      p[2] = streamRecurrence(n, 0.5698402910f) * g.nz;
    } else {  // R3
      p[0] = streamRecurrence(n, 0.8191725134f) * g.nx;
      p[1] = streamRecurrence(n, 0.6710436067f) * g.ny;
      p[2] = streamRecurrence(n, 0.5497004779f) * g.nz;
    }
    if (streamInFluid(f, p)) return true;
  }
  return false;
}

// Writes `segments` segments (compute/views/surface.h) from `from` on in steps of `h`, as far as
// the line goes, the rest empty.
WS_HD void traceStreamHalf(const StreamField& f, const float from[3], bool alive, float h,
                           int segments, float* out) {
  float p[3] = {from[0], from[1], from[2]}, d[3] = {0, 0, 0}, speed = 0;
  if (alive) alive = streamDirection(f, p, d, speed);
  for (int s = 0; s < segments; ++s) {
    float* v = out + std::size_t(s) * 2 * kLineVertexFloats;
    float q[3], qSpeed = 0;
    if (alive) alive = streamStep(f, p, d, h, q) && streamDirection(f, q, d, qSpeed);
    if (!alive) {
      for (int k = 0; k < 2 * kLineVertexFloats; ++k) v[k] = 0;
      v[3] = v[3 + kLineVertexFloats] = -1;
      continue;
    }
    for (int k = 0; k < 3; ++k) v[k] = p[k], v[kLineVertexFloats + k] = q[k];
    v[3] = speed;
    v[kLineVertexFloats + 3] = qSpeed;
    for (int k = 0; k < 3; ++k) p[k] = q[k];
    speed = qSpeed;
  }
}

// Writes one half of line `line`'s points - 1 segments at its place in `out`: from a seed
// throughout the flow, the first half runs upstream of it and the second (the rest) downstream;
// from the inlet, the first is empty and the second all of it. The halves are independent, so
// two threads can trace a line.
WS_HD void traceStreamlineHalf(const StreamField& f, const StreamSpec& s, int line, bool downstream,
                               float* out) {
  const int segments = s.points - 1, upstream = s.fromInlet ? 0 : segments / 2;
  if (!downstream && upstream == 0) return;
  float seed[3];
  const bool found = streamSeed(f, s, line, seed);
  float* first = out + std::size_t(line) * segments * 2 * kLineVertexFloats;
  if (downstream)
    traceStreamHalf(f, seed, found, StreamSpec::kStep, segments - upstream,
                    first + std::size_t(upstream) * 2 * kLineVertexFloats);
  else
    traceStreamHalf(f, seed, found, -StreamSpec::kStep, upstream, first);
}

// The bytes tracing moves at least, for the timings: each point's eight cells read four times
// (the stages) and its vertex written.
inline double streamlineBytes(std::size_t points) {
  return double(points) * (4 * 8 * sizeof(PlaneSample) + kLineVertexFloats * sizeof(float));
}

// One backend's tracer. The field's moments must be in its memory (device memory for CUDA).
class StreamlineTracer {
 public:
  virtual ~StreamlineTracer() = default;
  // Writes spec.segments() segments (2 kLineVertexFloats vertices each) into `out` (device
  // memory where onDevice).
  virtual void trace(const StreamField& field, const StreamSpec& spec, float* out,
                     bool onDevice) = 0;
  virtual void pollTimings() {}
  virtual void drainTimings() {}
};

// `timing` records the points traced a second.
std::unique_ptr<StreamlineTracer> makeCpuStreamlines(TimingScope& timing);
std::unique_ptr<StreamlineTracer> makeCudaStreamlines(TimingScope& timing);

}  // namespace ws::lbm
