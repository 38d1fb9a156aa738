#pragma once
// One lattice cell's update, shared by the CPU engine and the CUDA kernels so that the two agree:
// cell types, the storage variants (layout, precision), streaming (two lattices or one in place),
// bounce-back, the BGK/TRT collision with a body force, and the macroscopic moments.
//
// Populations are stored shifted by their weight, s_i = f_i - w_i (FluidX3D's trick): the values
// stay near zero, which keeps FP16 storage accurate and the density sum exact in FP32.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "compute/core/hd.h"
#include "compute/lbm/lbm_lattice.h"
#if WS_WITH_CUDA
// __half with host conversions too, so the CPU stores FP16 exactly as the GPU does.
#include <cuda_fp16.h>
#endif

namespace ws::lbm {

// FP16 storage: CUDA's __half, or in a build without CUDA the compiler's IEEE binary16, whose
// conversions round to nearest even as __float2half_rn does.
#if WS_WITH_CUDA
using Half = __half;
WS_HD float halfToFloat(Half v) {
  return __half2float(v);
}
WS_HD Half floatToHalf(float v) {
  return __float2half_rn(v);
}
#else
using Half = _Float16;
inline float halfToFloat(Half v) {
  return static_cast<float>(v);
}
inline Half floatToHalf(float v) {
  return static_cast<Half>(v);
}
#endif

// ---- cell types (the flag field) --------------------------------------------------------------

enum CellType : std::uint8_t {
  kFluid = 0,
  kWall = 1,        // bounce-back, at rest
  kMovingWall = 2,  // bounce-back with the wall velocity (the lid)
  kInlet = 3,       // velocity inlet (flow along +x): equilibrium at the inlet velocity
  kOutlet = 4,      // pressure outlet (flow along +x): equilibrium at density 1
  kSlipWall = 5,    // free-slip wall of a lattice's top or bottom row: reflects specularly in y
  kOpenOutlet = 6,  // open outlet (flow along +x): extrapolated from the cell before it
};
constexpr std::uint8_t kLastCellType = kOpenOutlet;
constexpr std::uint8_t kTypeMask = 7;
constexpr std::uint8_t kNearWall = 8;  // a fluid cell with a wall among its neighbours
// A cell of a neighbouring subdomain held beside a subdomain's own (its halo, lbm_split.h): its
// type is the cell's, so that the step beside it streams and bounces as in the whole lattice, but
// the CPU engine does not update it (its owner does) nor count it.
constexpr std::uint8_t kHalo = 16;

WS_HD bool isSolid(std::uint8_t flag) {
  const int type = flag & kTypeMask;
  return type == kWall || type == kMovingWall || type == kSlipWall;
}

// Status bits a step raises (OR-ed over all cells).
constexpr std::uint32_t kStatusNonFinite = 1;  // density not positive and finite, or u NaN
constexpr std::uint32_t kStatusFast = 2;       // |u| above kFastSpeed somewhere
constexpr float kFastSpeed = 0.3f;             // lattice units; Mach 0.52

// ---- parameters of a step ---------------------------------------------------------------------

// The Guo forcing terms of the TRT collision that depend on the parameters alone, per pair k of
// opposite directions (2k+1, 2k+2): the even part gains cu * cu[k] - uF * uF[k], the odd part
// odd[k], the rest population -uF * restUF (c: the direction, u: velocity, F: force). Worked out
// once per parameter change rather than in every cell.
struct ForceTerms {
  float cu[9] = {}, uF[9] = {}, odd[9] = {}, restUF = 0;
};

struct StepParams {
  float omegaPlus = 1, omegaMinus = 1;  // BGK: equal; TRT: omegaMinus from the magic parameter
  float force[3] = {0, 0, 0};           // body force density (Guo forcing)
  float wallVelocity[3] = {0, 0, 0};    // of every moving-wall cell
  float inletVelocity[3] = {0, 0, 0};   // at the centre of a parabolic inlet
  bool parabolicInlet = false;          // Poiseuille profile between walls at y = 0 and y = ny - 1
  // Where the grid stepped is a slab of a larger lattice (lbm_split.h): the lattice's row of the
  // grid's row 0, and the lattice's rows (0: the grid's), which the inlet's parabola follows.
  int firstRow = 0, rows = 0;
  ForceTerms forcing;  // from the above by withForceTerms(), which engines call
};

// ---- the grid: periodic indexing everywhere, walls are cell types -----------------------------

// Cell indices are 32-bit (cheaper address arithmetic in the kernels), so a lattice holds fewer
// than 2^31 cells; the module refuses larger ones.
constexpr std::size_t kMaxCells = 2147483647;

struct Grid {
  int nx = 1, ny = 1, nz = 1;
  WS_HD std::size_t cells() const { return std::size_t(nx) * ny * nz; }
  WS_HD int extent(int axis) const { return axis == 0 ? nx : axis == 1 ? ny : nz; }
};

// A box of cells, [lo, hi) along each axis: what a step taken in pieces steps at a time
// (LbmEngine::stepBox).
struct CellBox {
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  CellBox() = default;
  WS_HD explicit CellBox(const Grid& g) : hi{g.nx, g.ny, g.nz} {}
  WS_HD int extent(int axis) const { return hi[axis] - lo[axis]; }
  WS_HD bool empty() const { return extent(0) <= 0 || extent(1) <= 0 || extent(2) <= 0; }
  WS_HD bool holds(int axis, int at) const { return at >= lo[axis] && at < hi[axis]; }
};

// The indices of a cell's neighbourhood along each axis (previous, self, next), wrapped.
struct Neighbourhood {
  std::uint32_t x[3], y[3], z[3];
  int row;  // the cell's y coordinate
  WS_HD Neighbourhood(const Grid& g, int i, int j, int k) : row(j) {
    const std::uint32_t nx = g.nx, plane = nx * std::uint32_t(g.ny);
    x[0] = i == 0 ? nx - 1 : i - 1;
    x[1] = i;
    x[2] = i == g.nx - 1 ? 0 : i + 1;
    y[0] = (j == 0 ? g.ny - 1 : j - 1) * nx;
    y[1] = j * nx;
    y[2] = (j == g.ny - 1 ? 0 : j + 1) * nx;
    z[0] = (k == 0 ? g.nz - 1 : k - 1) * plane;
    z[1] = k * plane;
    z[2] = (k == g.nz - 1 ? 0 : k + 1) * plane;
  }
  WS_HD Neighbourhood(const Grid& g, std::size_t n)
      : Neighbourhood(g, int(n % g.nx), int(n / g.nx % g.ny), int(n / g.nx / g.ny)) {}
  // The cell at offset (dx, dy, dz), each in -1..1.
  WS_HD std::uint32_t at(int dx, int dy, int dz) const { return x[dx + 1] + y[dy + 1] + z[dz + 1]; }
  WS_HD std::uint32_t self() const { return at(0, 0, 0); }
};

// ---- storage: layout and precision ------------------------------------------------------------

enum class Layout { SoA, AoS };
enum class Propagation { AB, AA };

// FP16 storage keeps s_i scaled by 2^15 (kUnit) so that small values stay normal numbers; the
// arithmetic is FP32 either way. The stream-collide works in these storage units throughout (raw
// loads and stores, constants scaled at compile time), which saves the scaling multiply of each
// load and store; as the scale is a power of two the results are the same.
template <typename T>
struct Codec;
template <>
struct Codec<float> {
  static constexpr float kUnit = 1.0f;
  WS_HD static float raw(float v) { return v; }
  WS_HD static float fromRaw(float v) { return v; }
};
template <>
struct Codec<Half> {
  static constexpr float kUnit = 32768.0f;
  WS_HD static float raw(Half v) { return halfToFloat(v); }
  WS_HD static Half fromRaw(float v) { return floatToHalf(v); }
};

template <typename T, int Q, Layout L>
struct Store {
  // SoA: where each population's array starts, so that the address of a population is one
  // multiply-add of the 32-bit cell index onto a kernel parameter, rather than a 64-bit product
  // i x cells worked out for each access (which made up a fifth of the FP16 kernel's
  // instructions). AoS: the one array.
  T* base[L == Layout::SoA ? Q : 1];
  WS_HD Store(T* f, std::size_t cells) {
    for (int i = 0; i < (L == Layout::SoA ? Q : 1); ++i) base[i] = f + std::size_t(i) * cells;
  }
  WS_HD T& at(std::size_t n, int i) const {
    if constexpr (L == Layout::SoA)
      return base[i][n];
    else
      return base[0][n * Q + i];
  }
  // Where population i of cell n lies from the storage's start, for work lists made ahead: an
  // access through it needs no per-population pointer picked at run time (which a kernel would
  // copy to local memory to index).
  static std::size_t element(std::size_t n, int i, std::size_t cells) {
    return L == Layout::SoA ? std::size_t(i) * cells + n : n * Q + i;
  }
  WS_HD T& atElement(std::size_t element) const { return base[0][element]; }
  WS_HD float loadRawAt(std::size_t element) const { return Codec<T>::raw(base[0][element]); }
  WS_HD void storeRawAt(std::size_t element, float v) const {
    base[0][element] = Codec<T>::fromRaw(v);
  }
  static constexpr float kUnit = Codec<T>::kUnit;
  // In storage units (kUnit for 1), for the stream-collide.
  WS_HD float loadRaw(std::size_t n, int i) const { return Codec<T>::raw(at(n, i)); }
  WS_HD void storeRaw(std::size_t n, int i, float v) const { at(n, i) = Codec<T>::fromRaw(v); }
  // In lattice units.
  WS_HD float load(std::size_t n, int i) const { return loadRaw(n, i) * (1.0f / kUnit); }
  WS_HD void store(std::size_t n, int i, float v) const { storeRaw(n, i, v * kUnit); }
};

// ---- physics ----------------------------------------------------------------------------------

// sum + c v for a lattice coefficient c in {-1, 0, 1}, spelled out: a compiler may not drop 0 v
// or x + 0 by itself (IEEE NaN and signed-zero rules), while after unrolling c is a constant and
// only an add or a subtract remains. Sums start at -0, which x + -0 = x lets it drop too.
WS_HD float addTimes(float sum, int c, float v) {
  return c > 0 ? sum + v : c < 0 ? sum - v : sum;
}

template <typename Lat>
WS_HD float dot(int i, const float v[3]) {
  return addTimes(addTimes(addTimes(-0.0f, Lat::cx(i), v[0]), Lat::cy(i), v[1]), Lat::cz(i), v[2]);
}

// What a population gains when it bounces off a wall moving at `wall` and then travels along c_i
// (Ladd; wall density taken as 1), in units of `unit`.
template <typename Lat>
WS_HD float movingWallGain(int i, std::uint8_t wallFlag, const StepParams& p, float unit = 1.0f) {
  return (wallFlag & kTypeMask) == kMovingWall
             ? 6.0f * Lat::w(i) * unit * dot<Lat>(i, p.wallVelocity)
             : 0.0f;
}

struct Moments {
  float rho, u[3];
};

// Density and velocity from populations s in units of `unit` (pre-collision, Guo:
// u = (sum f c + F/2) / rho). For post-collision populations pass forceSign = -1; with
// forceSign = 0 (a constant) the force costs nothing.
template <typename Lat>
WS_HD Moments moments(const float* s, const StepParams& p, float forceSign, float unit = 1.0f) {
  float drho = -0.0f, j[3] = {-0.0f, -0.0f, -0.0f};
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i) {
    drho += s[i];
    j[0] = addTimes(j[0], Lat::cx(i), s[i]);
    j[1] = addTimes(j[1], Lat::cy(i), s[i]);
    j[2] = addTimes(j[2], Lat::cz(i), s[i]);
  }
  Moments m;
  m.rho = 1.0f + drho * (1.0f / unit);
  const float inv = 1.0f / m.rho;
  for (int a = 0; a < 3; ++a) {
    const float momentum = j[a] * (1.0f / unit);
    m.u[a] = (forceSign == 0.0f ? momentum : momentum + forceSign * 0.5f * p.force[a]) * inv;
  }
  return m;
}

// The inlet speed at row y relative to its centre: 1, or the parabola of a channel whose walls are
// rows 0 and ny - 1 (so that the inflow meets the walls without a jump).
WS_HD float inletProfile(const StepParams& p, const Grid& g, int row) {
  if (!p.parabolicInlet) return 1.0f;
  const float h = float((p.rows ? p.rows : g.ny) - 2), s = float(row + p.firstRow) - 0.5f;
  return 4.0f * s * (h - s) / (h * h);
}

// Equilibrium populations (shifted) for density rho and velocity u, in units of `unit`.
template <typename Lat>
WS_HD void equilibrium(float rho, const float u[3], float* s, float unit = 1.0f) {
  const float uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  for (int i = 0; i < Lat::Q; ++i) {
    const float cu = dot<Lat>(i, u);
    s[i] = Lat::w(i) * unit * (rho - 1.0f + rho * (3.0f * cu + 4.5f * cu * cu - 1.5f * uu));
  }
}

// The parameters with their forcing terms worked out for lattice Lat and storage units `unit`
// (Store::kUnit).
template <typename Lat>
StepParams withForceTerms(StepParams p, float unit) {
  const float fp = 1.0f - 0.5f * p.omegaPlus, fm = 1.0f - 0.5f * p.omegaMinus;
  p.forcing = {};
  p.forcing.restUF = 3.0f * fp * Lat::w(0) * unit;
  for (int a = 1; a < Lat::Q; a += 2) {
    const int k = a / 2;
    const float w = Lat::w(a) * unit, cF = dot<Lat>(a, p.force);
    p.forcing.cu[k] = 9.0f * fp * w * cF;
    p.forcing.uF[k] = 3.0f * fp * w;
    p.forcing.odd[k] = 3.0f * fm * w * cF;
  }
  return p;
}

inline bool hasForce(const StepParams& p) {
  return p.force[0] != 0.0f || p.force[1] != 0.0f || p.force[2] != 0.0f;
}

// Calls f.template operator()<kOddStep, kForce>() for a step's parity and whether a body force
// acts: the compile-time choices a step kernel is built for.
template <typename F>
decltype(auto) withStepKind(bool odd, bool force, F&& f) {
  if (odd) {
    if (force) return f.template operator()<true, true>();
    return f.template operator()<true, false>();
  }
  if (force) return f.template operator()<false, true>();
  return f.template operator()<false, false>();
}

// Relaxes s (in units of `unit`, with p.forcing worked out for it) towards equilibrium in place
// (TRT; BGK is TRT with omegaMinus == omegaPlus). Inlet and outlet cells are set to their
// equilibrium instead; `inletScale` scales the inlet velocity. Returns status bits. Without a body
// force (kForce false; the force must then be zero) the forcing terms are left out: adding zeros
// would be exact but not free, as the compiler may not drop them by itself.
template <typename Lat, bool kForce>
WS_HD std::uint32_t collide(float* s, int type, const StepParams& p, float inletScale, float unit) {
  Moments m = moments<Lat>(s, p, kForce ? 1.0f : 0.0f, unit);
  const bool boundary = type == kInlet || type == kOutlet;
  if (boundary) {
    // Flow enters along +x at inlets and leaves along +x at outlets. The populations that come
    // from outside the domain are unknown; those that arrive from inside fix what the boundary
    // leaves free (Zou and He 1997): the inlet's density, the outlet's normal velocity.
    float still = 0, backward = 0, forward = 0;  // sums of f = w + s by the sign of c_x
    for (int i = 0; i < Lat::Q; ++i) {
      const float f = Lat::w(i) * unit + s[i];
      if (Lat::cx(i) == 0)
        still += f;
      else if (Lat::cx(i) < 0)
        backward += f;
      else
        forward += f;
    }
    if (type == kInlet) {
      for (int a = 0; a < 3; ++a) m.u[a] = inletScale * p.inletVelocity[a];
      m.rho = (still + 2.0f * backward) * (1.0f / unit) / (1.0f - m.u[0]);
    } else {
      m.rho = 1.0f;
      m.u[0] = (still + 2.0f * forward) * (1.0f / unit) - 1.0f;
    }
  }
  const float uu = m.u[0] * m.u[0] + m.u[1] * m.u[1] + m.u[2] * m.u[2];
  std::uint32_t status = 0;
  if (!(m.rho > 0.0f && m.rho < 1e3f) || !(uu == uu)) status |= kStatusNonFinite;
  if (uu > kFastSpeed * kFastSpeed) status |= kStatusFast;
  if (boundary) {
    equilibrium<Lat>(m.rho, m.u, s, unit);
    return status;
  }

  const float wp = p.omegaPlus, wm = p.omegaMinus;
  const float uF = kForce ? m.u[0] * p.force[0] + m.u[1] * p.force[1] + m.u[2] * p.force[2] : 0.0f;
  const float drho = m.rho - 1.0f;
  {  // rest population
    const float eq = Lat::w(0) * unit * (drho - 1.5f * m.rho * uu);
    const float relaxed = wp * (eq - s[0]);
    s[0] += kForce ? relaxed - uF * p.forcing.restUF : relaxed;
  }
  WS_UNROLL
  for (int a = 1; a < Lat::Q; a += 2) {
    const int b = a + 1, k = a / 2;
    const float w = Lat::w(a) * unit;
    const float cu = dot<Lat>(a, m.u);
    const float eqPlus = w * (drho + m.rho * (4.5f * cu * cu - 1.5f * uu));
    const float eqMinus = w * m.rho * 3.0f * cu;
    const float plus = 0.5f * (s[a] + s[b]), minus = 0.5f * (s[a] - s[b]);
    float newPlus = plus + wp * (eqPlus - plus), newMinus = minus + wm * (eqMinus - minus);
    if (kForce) {
      newPlus = newPlus + cu * p.forcing.cu[k] - uF * p.forcing.uF[k];
      newMinus = newMinus + p.forcing.odd[k];
    }
    s[a] = newPlus + newMinus;
    s[b] = newPlus - newMinus;
  }
  return status;
}

// ---- one fused stream-collide update ----------------------------------------------------------
//
// A-B (two lattices, pull): read the populations streaming in from the neighbours of src, collide,
// write them to this cell of dst. The lattices swap after each step. Memory holds post-collision
// values.
//
// A-A (one lattice, in place; Bailey et al. 2009): steps alternate. Even steps (alpha) read this
// cell's slots i, collide and write back to the opposite slots: nothing moves. Odd steps (beta)
// read from the neighbours' opposite slots, collide and write to the neighbours' slots: both
// streams of the pair at once. Each step reads and writes the same locations, so no second lattice
// is needed. After an even step the slots are swapped (the erratum in the source's section 13.3);
// postCollision() undoes that for whoever reads the state.

// The populations streaming in from the neighbours, loaded as if every neighbour were fluid
// (bounceBackFromWalls corrects the cells next to walls).
template <typename Lat, Propagation P, typename S>
WS_HD void pullFromNeighbours(const Neighbourhood& nb, S src, float* s) {
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i)
    s[i] = src.loadRaw(nb.at(-Lat::cx(i), -Lat::cy(i), -Lat::cz(i)),
                       P == Propagation::AB ? i : opposite(i));
}

// For a cell next to a wall: what each wall neighbour sends instead, the population this cell sent
// towards it, reflected (bounce-back).
template <typename Lat, Propagation P, typename S>
WS_HD void bounceBackFromWalls(const Neighbourhood& nb, const std::uint8_t* flags, S src,
                               const StepParams& p, float* s) {
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i) {
    const std::uint8_t from = flags[nb.at(-Lat::cx(i), -Lat::cy(i), -Lat::cz(i))];
    if (isSolid(from))
      s[i] = src.loadRaw(nb.self(), P == Propagation::AB ? opposite(i) : i) +
             movingWallGain<Lat>(i, from, p, S::kUnit);
  }
}

template <typename Lat, bool kWalls, typename S>
WS_HD void pushToNeighbours(const Neighbourhood& nb, const std::uint8_t* flags, S dst,
                            const StepParams& p, const float* s) {
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i) {
    const std::uint32_t to = nb.at(Lat::cx(i), Lat::cy(i), Lat::cz(i));
    if (kWalls && isSolid(flags[to]))
      dst.storeRaw(nb.self(), opposite(i),
                   s[i] + movingWallGain<Lat>(opposite(i), flags[to], p, S::kUnit));
    else
      dst.storeRaw(to, i, s[i]);
  }
}

// Bounce-back and collision of a fluid, inlet or outlet cell whose populations s are in (streamed
// in from the neighbours as if all were fluid, or its own slots in A-A even steps). Returns status
// bits.
template <typename Lat, Propagation P, bool kOddStep, bool kForce, typename S>
WS_HD std::uint32_t relax(const Grid& g, const std::uint8_t* flags, S src, const Neighbourhood& nb,
                          std::uint8_t flag, const StepParams& p, float* s) {
  if ((P == Propagation::AB || kOddStep) && (flag & kNearWall))
    bounceBackFromWalls<Lat, P>(nb, flags, src, p, s);
  const int type = flag & kTypeMask;
  return collide<Lat, kForce>(s, type, p, type == kInlet ? inletProfile(p, g, nb.row) : 1.0f,
                              S::kUnit);
}

// Where a relaxed cell's populations go: to this cell of the other lattice (A-B), to this cell's
// opposite slots (A-A even steps) or to the neighbours (A-A odd steps).
template <typename Lat, Propagation P, bool kOddStep, typename S>
WS_HD void storeRelaxed(const std::uint8_t* flags, S dst, const Neighbourhood& nb,
                        std::uint8_t flag, const StepParams& p, const float* s) {
  if (P == Propagation::AB) {
    WS_UNROLL
    for (int i = 0; i < Lat::Q; ++i) dst.storeRaw(nb.self(), i, s[i]);
  } else if (!kOddStep) {
    WS_UNROLL
    for (int i = 0; i < Lat::Q; ++i) dst.storeRaw(nb.self(), opposite(i), s[i]);
  } else if (flag & kNearWall) {
    pushToNeighbours<Lat, true>(nb, flags, dst, p, s);
  } else {
    pushToNeighbours<Lat, false>(nb, flags, dst, p, s);
  }
}

// One cell's update. Its flag and its populations are loaded together (the populations need no
// flag, so there is one round trip to memory before the collision rather than two in a row); a
// wall then drops what it loaded and is left alone. Returns status bits.
template <typename Lat, Propagation P, bool kOddStep, bool kForce, typename S>
WS_HD std::uint32_t streamCollide(const Grid& g, const std::uint8_t* flags, S src, S dst,
                                  const Neighbourhood& nb, const StepParams& p) {
  const std::uint8_t flag = flags[nb.self()];
#ifndef __CUDA_ARCH__
  // In A-A odd steps a wall's loads read slots that fluid neighbours are writing: harmless on the
  // GPU, but a data race in C++, so the CPU, which gains nothing from loading early, looks at the
  // flag first. It leaves a subdomain's halo to the subdomain that owns it.
  if (isSolid(flag) || (flag & kHalo)) return 0;
#endif
  float s[Lat::Q];
  if (P == Propagation::AA && !kOddStep) {
    WS_UNROLL
    for (int i = 0; i < Lat::Q; ++i) s[i] = src.loadRaw(nb.self(), i);
  } else {
    pullFromNeighbours<Lat, P>(nb, src, s);
  }
  if (isSolid(flag)) return 0;
  const std::uint32_t status = relax<Lat, P, kOddStep, kForce>(g, flags, src, nb, flag, p, s);
  storeRelaxed<Lat, P, kOddStep>(flags, dst, nb, flag, p, s);
  return status;
}

// Where post-collision population i of cell n is stored at the current step, whatever the
// propagation and parity (stepsDoneOdd: whether the steps taken so far are odd): a slot of a cell,
// and the flag of the wall the population was reflected off on the way (kFluid where it was not):
// after an A-A odd step (or a fresh import) a population that streamed into a wall is back in the
// cell's opposite slot, with a moving wall's gain.
struct Slot {
  std::uint32_t cell;
  int i;
  std::uint8_t bouncedOff;
};

template <typename Lat, Propagation P>
WS_HD Slot postCollisionSlot(const Grid& g, const std::uint8_t* flags, std::size_t n, int i,
                             bool stepsDoneOdd) {
  const auto self = std::uint32_t(n);
  if (P == Propagation::AB) return {self, i, kFluid};
  if (stepsDoneOdd) return {self, opposite(i), kFluid};  // after alpha: swapped slots
  // After beta (or a fresh import): the population already streamed to the neighbour.
  const std::uint32_t to = Neighbourhood(g, n).at(Lat::cx(i), Lat::cy(i), Lat::cz(i));
  if (flags[n] & kNearWall && isSolid(flags[to])) return {self, opposite(i), flags[to]};
  return {to, i, kFluid};
}

// Post-collision population i of cell n at the current step. This is the state the module saves
// and shows.
template <typename Lat, Propagation P, typename S>
WS_HD float postCollision(const Grid& g, const std::uint8_t* flags, S f, std::size_t n, int i,
                          bool stepsDoneOdd, const StepParams& p) {
  const Slot at = postCollisionSlot<Lat, P>(g, flags, n, i, stepsDoneOdd);
  return f.load(at.cell, at.i) - movingWallGain<Lat>(opposite(i), at.bouncedOff, p);
}

// The inverse: stores post-collision population i of cell n so that the next step sees it.
template <typename Lat, Propagation P, typename S>
WS_HD void storePostCollision(const Grid& g, const std::uint8_t* flags, S f, std::size_t n, int i,
                              bool stepsDoneOdd, const StepParams& p, float value) {
  const Slot at = postCollisionSlot<Lat, P>(g, flags, n, i, stepsDoneOdd);
  f.store(at.cell, at.i, value + movingWallGain<Lat>(opposite(i), at.bouncedOff, p));
}

// Density and velocity of cell n at the current step; NaN density for walls.
template <typename Lat, Propagation P, typename S>
WS_HD Moments cellMoments(const Grid& g, const std::uint8_t* flags, S f, std::size_t n,
                          bool stepsDoneOdd, const StepParams& p) {
  if (isSolid(flags[n])) return {NAN, {0, 0, 0}};
  float s[Lat::Q];
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i) s[i] = postCollision<Lat, P>(g, flags, f, n, i, stepsDoneOdd, p);
  return moments<Lat>(s, p, -1.0f);
}

// ---- what a step measures: the force on walls, the flow at probes -----------------------------

// A link between a fluid cell and its solid neighbour along direction i: where the monitor sums
// the momentum exchange, and where a curved wall's interpolated bounce-back acts. q is the
// fraction of the way from the cell's centre to the neighbour's where the wall lies: 1/2 for
// plain bounce-back (a wall half-way, as drawn walls are).
struct ForceLink {
  std::uint32_t cell, direction;
  float q = 0.5f;
};

// ---- curved walls: interpolated bounce-back ---------------------------------------------------
//
// Plain bounce-back puts every wall half-way along its links, so a curved wall is a staircase and
// forces on it converge at first order. Bouzidi, Firdaouss and Lallemand (2001) interpolate
// instead, with the wall a fraction q of the way from fluid cell n to its solid neighbour along
// c_i: what returns to n along the opposite direction i' is, from post-collision populations,
//   q < 1/2:   2q f_i(n) + (1 - 2q) f_i(n - c_i)
//   q >= 1/2:  f_i(n) / 2q + (1 - 1/2q) f_i'(n)
// which is f_i(n), plain bounce-back, at q = 1/2. The weights sum to 1, so the shifted populations
// (and FP16's scaled ones) interpolate as they are. Needs n - c_i not solid: links without one are
// left at q = 1/2 (curvedLinks, lbm_scene.h), which also keeps any two links of a step from
// writing what the other reads.

// Where the population that returns to a curved link's cell from its wall comes from at the
// current step: two slots of the post-collision state (the second the upstream cell's f_i or the
// cell's own f_i') and their weights. Neither slot holds a population reflected off a moving wall
// (curved links are of stationary walls, with a fluid upstream), so the slots' values are the
// populations themselves.
struct Interpolation {
  Slot own, other;
  float ownWeight, otherWeight;
};

template <typename Lat, Propagation P>
WS_HD Interpolation interpolation(const Grid& g, const std::uint8_t* flags, const ForceLink& link,
                                  bool stepsDoneOdd) {
  const int i = int(link.direction);
  const float q = link.q;
  Interpolation r;
  r.own = postCollisionSlot<Lat, P>(g, flags, link.cell, i, stepsDoneOdd);
  if (q < 0.5f) {
    const std::uint32_t upstream =
        Neighbourhood(g, link.cell).at(-Lat::cx(i), -Lat::cy(i), -Lat::cz(i));
    r.other = postCollisionSlot<Lat, P>(g, flags, upstream, i, stepsDoneOdd);
    r.ownWeight = 2.0f * q;
    r.otherWeight = 1.0f - 2.0f * q;
  } else {
    r.other = postCollisionSlot<Lat, P>(g, flags, link.cell, opposite(i), stepsDoneOdd);
    r.ownWeight = 0.5f / q;
    r.otherWeight = 1.0f - 0.5f / q;
  }
  return r;
}

// The interpolated return in lattice units (shifted).
template <typename S>
WS_HD float interpolate(S f, const Interpolation& r) {
  return r.ownWeight * f.load(r.own.cell, r.own.i) +
         r.otherWeight * f.load(r.other.cell, r.other.i);
}

// An Interpolation worked out ahead for one storage (Store::element): what the engines apply.
struct CurvedReturn {
  std::uint64_t own, other;
  float ownWeight, otherWeight;
};

// Applies a curved link before a step: puts the interpolated return where the step reads the
// population the wall sends back, the slot that holds f_i(n), which nothing else reads. The
// state is then no longer the post-collision state until the step has run. Engines work out each
// link's CurvedReturn once for each parity (it depends on the flags alone).
template <typename S>
WS_HD void bounceBackCurved(S f, const CurvedReturn& r) {
  f.storeRawAt(r.own, r.ownWeight * f.loadRawAt(r.own) + r.otherWeight * f.loadRawAt(r.other));
}

// ---- free-slip walls and open outlets: moves around a step ------------------------------------
//
// A free-slip wall (kSlipWall, rows of the lattice's top or bottom) reflects what reaches it
// specularly: the population f_i(n) that leaves fluid cell n towards it returns, a step later, to
// n' = n + (c_ix, 0, c_iz) along mirror(c_i) = (c_ix, -c_iy, c_iz), keeping its tangential
// momentum. The step bounces back instead, delivering to n' along mirror(c_i) what holds
// f_-mirror(i)(n'), and to n along -c_i what holds f_i(n) (the reflection of f_-mirror(i)(n')
// off the same wall). Swapping the two slots before the step turns both bounce-backs into the
// reflections. Each slot belongs to one pair, so the swaps of a step touch disjoint slots; the
// normal links (c_ix = c_iz = 0) need none. Links whose n' is solid stay plain bounce-back
// (slipLinks, lbm_engine.h).
//
// An open outlet (kOpenOutlet) relaxes as a fluid cell does; after the step it is set from the
// cell before it along x by extrapolation (Guo, Zheng and Shi 2002): density 1 (the pressure is
// held, so the mass cannot drift), the velocity and the non-equilibrium part of that cell (so the
// wake leaves with its shape, shear included). The pressure outlet (kOutlet) instead sets the
// equilibrium at density 1 and the speed the flow brings, which drops the shear.
//
// Both are worked out ahead as slots of the post-collision state (Store::element) for each parity
// of the steps taken, as curved returns are: a free-slip pair's two slots; an outlet's Q pairs of
// its own slot and the upstream cell's, population by population. Outlets write only their own
// slots and read only their upstream cells', so they are disjoint too.
struct SlotPair {
  std::uint64_t a, b;
};

template <typename S>
WS_HD void swapSlots(S f, const SlotPair& pair) {
  const auto held = f.atElement(pair.a);
  f.atElement(pair.a) = f.atElement(pair.b);
  f.atElement(pair.b) = held;
}

// `pairs[i * stride]`: the outlet's slot (a) and the upstream cell's (b) of population i. The
// moments are the post-collision ones, without a body force's half step (the cylinder scene has
// none).
template <typename Lat, typename S>
WS_HD void extrapolateOutlet(S f, const SlotPair* pairs, std::size_t stride) {
  float s[Lat::Q], atRest[Lat::Q], held[Lat::Q];
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i) s[i] = f.loadRawAt(pairs[i * stride].b);
  const Moments m = moments<Lat>(s, StepParams{}, 0.0f, S::kUnit);
  equilibrium<Lat>(m.rho, m.u, atRest, S::kUnit);
  equilibrium<Lat>(1.0f, m.u, held, S::kUnit);
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i) f.storeRawAt(pairs[i * stride].a, held[i] + (s[i] - atRest[i]));
}

// How many of an open outlet's two cells the box holds: the outlet n and the cell before it (along
// x), whose step the outlet takes up. A step taken in pieces (LbmEngine::stepBox) extrapolates the
// outlet in the piece that brings the count of them stepped to 2.
WS_HD int outletCellsIn(const Grid& g, const CellBox& box, std::uint32_t n) {
  const int x = int(n % g.nx), y = int(n / g.nx % g.ny), z = int(n / g.nx / g.ny);
  if (!box.holds(1, y) || !box.holds(2, z)) return 0;
  return int(box.holds(0, x)) + int(box.holds(0, x == 0 ? g.nx - 1 : x - 1));
}

// The momentum that one step moves from the fluid into a wall across a link: the population f_i
// that leaves fluid cell n towards its solid neighbour along c_i, and the one that comes back,
// f_i' (plain bounce-back: f_i plus a moving wall's gain, Ladd 1994; interpolated on a curved
// wall), counted in the wall's frame so that a moving wall's force does not depend on its speed
// (Wen et al. 2014): (c_i - u_w) f_i - (c_i' - u_w) f_i'. Read from the post-collision state after
// a step.
template <typename Lat, Propagation P, typename S>
WS_HD void linkMomentum(const Grid& g, const std::uint8_t* flags, S f, const ForceLink& link,
                        bool stepsDoneOdd, const StepParams& p, float out[3]) {
  const std::size_t n = link.cell;
  const int i = int(link.direction);
  const std::uint8_t wall = flags[Neighbourhood(g, n).at(Lat::cx(i), Lat::cy(i), Lat::cz(i))];
  const float leaving = Lat::w(i) + postCollision<Lat, P>(g, flags, f, n, i, stepsDoneOdd, p);
  const float back =
      link.q == 0.5f
          ? leaving + movingWallGain<Lat>(opposite(i), wall, p)
          : Lat::w(i) + interpolate(f, interpolation<Lat, P>(g, flags, link, stepsDoneOdd));
  const bool moving = (wall & kTypeMask) == kMovingWall;
  const int c[3] = {Lat::cx(i), Lat::cy(i), Lat::cz(i)};
  for (int a = 0; a < 3; ++a)
    out[a] =
        float(c[a]) * (leaving + back) - (moving ? p.wallVelocity[a] * (leaving - back) : 0.0f);
}

}  // namespace ws::lbm
