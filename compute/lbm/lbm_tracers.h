#pragma once
// Tracer particles: massless points carried by the in-plane velocity of the plane shown, the way
// dye or smoke shows a flow. Each lives for a random number of steps, then reappears at a random
// fluid position, so the swarm stays spread over the plane; it also reappears when it stalls in a
// wall. The per-tracer update below is shared by the CPU and CUDA swarms.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "compute/core/hd.h"
#include "compute/core/timing.h"
#include "compute/lbm/lbm_view.h"
#include "compute/views/field.h"
#include "compute/views/points.h"

namespace ws::lbm {

// Position in plane coordinates (cell (a, b) covers [a, a+1) x [b, b+1)), and age and lifetime in
// steps.
struct Tracer {
  float a, b, age, life;
};

// What the tracers move through: the plane's moments (rows of width), in the swarm's memory.
struct TracerField {
  const PlaneSample* moments = nullptr;
  int width = 1, height = 1;
  int first = 0, second = 1;  // the velocity components along a and b
  float meanLife = 3000;      // steps
};

// A random float in [0, 1) from a counter (PCG-style hash): the CPU and the GPU draw the same.
WS_HD float tracerRandom(std::uint32_t seed, std::uint32_t index, std::uint32_t draw) {
  std::uint32_t h = seed * 747796405u + index * 2891336453u + draw * 1181783497u + 12345u;
  h = ((h >> ((h >> 28) + 4)) ^ h) * 277803737u;
  h = (h >> 22) ^ h;
  return float(h >> 8) * (1.0f / 16777216.0f);
}

WS_HD bool tracerInFluid(const TracerField& f, float a, float b) {
  const int i = int(a), j = int(b);
  if (!(a >= 0 && b >= 0) || i >= f.width || j >= f.height) return false;
  const float rho = f.moments[std::size_t(j) * f.width + i].rho;
  return rho == rho;  // walls have NaN density
}

// The in-plane velocity at (a, b), bilinear between cell centres; walls count as at rest, and the
// plane wraps like the lattice.
WS_HD void tracerVelocity(const TracerField& f, float a, float b, float& ua, float& ub) {
  const float x = a - 0.5f, y = b - 0.5f;
  const float fx = floorf(x), fy = floorf(y);
  const float tx = x - fx, ty = y - fy;
  ua = ub = 0;
  for (int dj = 0; dj < 2; ++dj)
    for (int di = 0; di < 2; ++di) {
      int i = int(fx) + di, j = int(fy) + dj;
      i = i < 0 ? i + f.width : i >= f.width ? i - f.width : i;
      j = j < 0 ? j + f.height : j >= f.height ? j - f.height : j;
      const PlaneSample& c = f.moments[std::size_t(j) * f.width + i];
      if (!(c.rho == c.rho)) continue;
      const float weight = (di ? tx : 1 - tx) * (dj ? ty : 1 - ty);
      ua += weight * c.u[f.first];
      ub += weight * c.u[f.second];
    }
}

WS_HD float tracerWrap(float v, int extent) {
  if (v < 0) v += float(extent);
  if (v >= float(extent)) v -= float(extent);
  return v < float(extent) ? v : 0.0f;  // v just below 0 can round up to extent
}

// A fresh tracer at a random fluid position (up to eight tries; a tracer that finds none waits
// out one lifetime unseen). With `randomAge` it starts at a random age, so that the first
// lifetimes are staggered.
WS_HD Tracer spawnTracer(const TracerField& f, std::uint32_t seed, std::uint32_t index,
                         std::uint32_t generation, bool randomAge) {
  Tracer t{0, 0, 0, 0};
  const std::uint32_t draw = generation * 32u;
  t.life = f.meanLife * (0.5f + tracerRandom(seed, index, draw));
  for (int attempt = 0; attempt < 8; ++attempt) {
    t.a = tracerWrap(tracerRandom(seed, index, draw + 2 + 2 * attempt) * f.width, f.width);
    t.b = tracerWrap(tracerRandom(seed, index, draw + 3 + 2 * attempt) * f.height, f.height);
    if (tracerInFluid(f, t.a, t.b)) {
      if (randomAge) t.age = t.life * tracerRandom(seed, index, draw + 1);
      return t;
    }
  }
  t.age = t.life;  // invisible until it respawns
  return t;
}

// Moves a tracer `steps` lattice steps along the flow (midpoint rule, in sub-steps of at most
// half a cell), ages it, and respawns it when it has lived out its life or sits in a wall.
WS_HD void advectTracer(Tracer& t, const TracerField& f, float steps, std::uint32_t seed,
                        std::uint32_t index, std::uint32_t generation) {
  float ua, ub;
  tracerVelocity(f, t.a, t.b, ua, ub);
  const float travel = sqrtf(ua * ua + ub * ub) * steps;
  const int substeps = travel > 32.0f ? 64 : 1 + int(2.0f * travel);
  const float dt = steps / float(substeps);
  for (int k = 0; k < substeps; ++k) {
    if (k > 0) tracerVelocity(f, t.a, t.b, ua, ub);
    float ma, mb;
    tracerVelocity(f, tracerWrap(t.a + 0.5f * dt * ua, f.width),
                   tracerWrap(t.b + 0.5f * dt * ub, f.height), ma, mb);
    t.a = tracerWrap(t.a + dt * ma, f.width);
    t.b = tracerWrap(t.b + dt * mb, f.height);
  }
  t.age += steps;
  if (t.age >= t.life || !tracerInFluid(f, t.a, t.b))
    t = spawnTracer(f, seed, index, generation, false);
}

// Opacity: fades in over the first tenth of the life and out over the last.
WS_HD float tracerOpacity(const Tracer& t) {
  const float x = t.age / t.life;
  const float fade = fminf(x, 1.0f - x) * 10.0f;
  return fade <= 0 ? 0.0f : fade >= 1 ? 1.0f : fade;
}

// The point drawn for a tracer: world x, world y (b upwards, like the field), opacity.
WS_HD void tracerPoint(const Tracer& t, int height, float* out) {
  out[0] = t.a;
  out[1] = float(height) - t.b;
  out[2] = tracerOpacity(t);
}

// A swarm on one backend. `field.moments` must be in the swarm's memory (device memory for CUDA).
class TracerSwarm {
 public:
  virtual ~TracerSwarm() = default;
  // `count` tracers at random fluid positions with staggered ages.
  virtual void seed(std::size_t count, const TracerField& field, std::uint32_t seed) = 0;
  virtual void advect(const TracerField& field, float steps) = 0;
  // Writes count() points (see tracerPoint) to `points` (a device pointer when onDevice).
  virtual void draw(int planeHeight, PointImage& points) = 0;
  virtual std::size_t count() const = 0;
  // Copies, for tests.
  virtual std::vector<Tracer> tracers() const = 0;
  virtual void setTracers(const std::vector<Tracer>& tracers, std::uint32_t seed) = 0;
  virtual void pollTimings() {}
  virtual void drainTimings() {}
};

std::unique_ptr<TracerSwarm> makeCpuTracers(TimingScope& timing);
std::unique_ptr<TracerSwarm> makeCudaTracers(TimingScope& timing);

}  // namespace ws::lbm
