#pragma once
// One implementation of the LBM state and step: the OpenMP engine (lbm_cpu) and the CUDA engine
// (lbm_cuda) run the same storage variants through the same cell update (lbm_cell.h).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/timing.h"
#include "compute/lbm/lbm_cell.h"
#include "compute/lbm/lbm_view.h"
#include "compute/lbm/lbm_volume.h"
#include "compute/views/field.h"

namespace ws::lbm {

enum class LatticeKind { D2Q9, D3Q19 };

// A storage variant: propagation pattern, layout and precision ("aa-soa-fp32").
struct Variant {
  Propagation propagation = Propagation::AA;
  Layout layout = Layout::SoA;
  bool half = false;  // FP16 storage, FP32 arithmetic

  std::string name() const;  // "ab-soa-fp32"; every variant: storageCatalog() (lbm_catalog.h)
};

int latticeQ(LatticeKind lattice);

// Bytes one cell update moves at least: every population read once and written once, plus the
// flag byte.
double bytesPerCellUpdate(LatticeKind lattice, const Variant& variant);

struct LbmTimings {
  TimingScope* step;
  TimingScope* view;
};

// What a frame reports: total mass (in double), the largest speed, the fluid cells.
struct Totals {
  double mass = 0;
  float maxSpeed = 0;
  std::uint64_t fluidCells = 0;
};

// What an engine measures after every step: the force the fluid puts on each obstacle (momentum
// exchange over its links, lbm_cell.h) and the density and velocity at probe cells. A step's
// record is stride() numbers: Fx, Fy, Fz of each obstacle, then rho, ux, uy, uz of each probe
// (rho NaN where a probe is in a wall).
struct Monitor {
  std::vector<ForceLink> links;          // grouped by obstacle
  std::vector<std::uint32_t> linkStart;  // obstacle k's links: [linkStart[k], linkStart[k + 1])
  std::vector<std::uint32_t> probes;     // cells
  int obstacles() const { return linkStart.empty() ? 0 : int(linkStart.size()) - 1; }
  std::size_t stride() const { return 3 * std::size_t(obstacles()) + 4 * probes.size(); }
};

// What a lattice's walls and outlets need besides the step (lbm_cell.h).
struct BoundaryLinks {
  // Links whose wall is not half-way (q != 1/2: curved walls), whose populations return by
  // interpolated bounce-back. Each link's cell n must be next to a stationary wall along its
  // direction i, with n - c_i not solid; curvedLinks() (lbm_scene.h) finds such links.
  std::vector<ForceLink> curved;
  // One link of each pair of reflections off free-slip walls (lbm_cell.h): from a cell n to a
  // kSlipWall along i, n + (0, c_iy, 0) free-slip too and n + (c_ix, 0, c_iz) not solid:
  // slipLinks(), in the order of directions, then cells.
  std::vector<ForceLink> slip;
  // Open outlet cells (kOpenOutlet) whose neighbour before them along x is neither solid nor an
  // open outlet: openOutlets().
  std::vector<std::uint32_t> openOutlets;
};

// The free-slip links and open outlets of a flag field, as BoundaryLinks wants them.
std::vector<ForceLink> slipLinks(LatticeKind lattice, const Grid& g,
                                 const std::vector<std::uint8_t>& flags);
std::vector<std::uint32_t> openOutlets(const Grid& g, const std::vector<std::uint8_t>& flags);

// A scene's starting flow as a formula of the cell's position, so that an engine can set every
// cell to equilibrium at it where the lattice lives (on the device for CUDA) rather than build
// the state on the host and copy it over: at rest; the cylinder scene's inflow everywhere (its
// parabola between walls at rows 0 and ny - 1, `channel` = ny - 2 across, or uniform where
// `channel` is 0); or Taylor-Green vortices of wave numbers kx, ky. In double, the same on both.
struct InitialFlow {
  enum Kind : std::uint8_t { kRest, kInflow, kTaylorGreen } kind = kRest;
  double speed = 0;       // the inflow's maximum, the vortices' amplitude
  double channel = 0;     // kInflow
  double kx = 0, ky = 0;  // kTaylorGreen
  int x0 = 0, y0 = 0;     // the lattice's coordinates of the grid's cell (0, 0) (lbm_split.h)
};

// The density and velocity the flow starts with at cell (x, y).
WS_HD void initialMoments(const InitialFlow& f, int x, int y, float& rho, float u[3]) {
  rho = 1;
  u[0] = u[1] = u[2] = 0;
  if (f.kind == InitialFlow::kInflow) {
    const double s = y - 0.5, h = f.channel;
    u[0] = float(h > 0 ? 4 * f.speed * s * (h - s) / (h * h) : f.speed);
  } else if (f.kind == InitialFlow::kTaylorGreen) {
    // u = (-U sqrt(ky/kx) cos kx x sin ky y, U sqrt(kx/ky) sin kx x cos ky y), divergence free;
    // the pressure that balances it gives the density.
    const double X = f.kx * (x + 0.5), Y = f.ky * (y + 0.5);
    const double ax = sqrt(f.ky / f.kx), ay = sqrt(f.kx / f.ky), u0 = f.speed;
    u[0] = float(-u0 * ax * cos(X) * sin(Y));
    u[1] = float(u0 * ay * sin(X) * cos(Y));
    const double p = -0.25 * u0 * u0 * (f.ky / f.kx * cos(2 * X) + f.kx / f.ky * cos(2 * Y));
    rho = float(1 + 3 * p);
  }
}

// Sets fluid cell n of storage f (zeroed) to equilibrium at the initial flow, as the state after 0
// steps.
template <typename Lat, Propagation P, typename S>
WS_HD void initializeCell(const Grid& g, const std::uint8_t* flags, S f, std::size_t n,
                          const InitialFlow& flow, const StepParams& p) {
  if (isSolid(flags[n])) return;
  float rho, u[3], s[Lat::Q];
  initialMoments(flow, int(n % g.nx) + flow.x0, int(n / g.nx % g.ny) + flow.y0, rho, u);
  equilibrium<Lat>(rho, u, s);
  for (int i = 0; i < Lat::Q; ++i) storePostCollision<Lat, P>(g, flags, f, n, i, false, p, s[i]);
}

// A lattice split over ranks (lbm_split.h) as the views and notes show it: along each axis where
// each part begins (and, last, the lattice's extent; {0, extent} along an axis not split), and a
// step's times in the last step() call, the whole's and each rank's (ranks numbered x fastest).
struct SplitState {
  std::array<std::vector<int>, 3> first;
  bool overlapped = false;  // the exchange runs while the inside steps
  double stepMs = 0;        // a step of the whole lattice, as rank 0 saw it
  bool peer = false;        // the halo goes from GPU to GPU (not through the host)
  struct Rank {
    double borderMs = 0, insideMs = 0;  // the update of the border layers, of the rest
    double packMs = 0, waitMs = 0;      // the halo's packing and unpacking, the wait for it
    double haloBytes = 0;               // sent
  };
  std::vector<Rank> ranks;
};

class LbmEngine {
 public:
  virtual ~LbmEngine() = default;

  // Storage for a grid; throws OutOfMemoryError (before releasing the current one) if it won't fit.
  virtual void reshape(const Grid& grid) = 0;
  virtual const Grid& grid() const = 0;
  // The flag field of the cells [first, first + count) (types and near-wall bits).
  virtual void setFlags(const std::vector<std::uint8_t>& flags, std::size_t first,
                        std::size_t count) = 0;
  // Cells that became fluid start at rest (density 1, no velocity: all shifted populations 0).
  virtual void restCells(const std::vector<std::size_t>& cells) = 0;
  virtual void setParams(const StepParams& params) = 0;

  // Every fluid cell at equilibrium with the initial flow, walls zero: the state after 0 steps.
  // The flags and parameters must be set.
  virtual void initialize(const InitialFlow& flow) = 0;
  // The state: post-collision populations, shifted, FP32, q-major (q * cells + n), after `steps`.
  virtual void importState(const std::vector<float>& state, std::uint64_t steps) = 0;
  virtual std::vector<float> exportState() = 0;

  virtual void step(int count) = 0;
  // The boundaries a step's bounce-back and inlet/outlet equilibria leave to moves around it
  // (lbm_cell.h), from the next step on. Changing the flags makes them stale: set them again
  // before stepping.
  virtual void setBoundaryLinks(const BoundaryLinks& links) = 0;
  // What to measure after each step from now on; an empty monitor measures nothing (and costs
  // nothing). Records not yet taken are dropped.
  virtual void setMonitor(const Monitor& monitor) = 0;
  // The records of the steps since the last call, in step order (stride() numbers each).
  virtual std::vector<double> takeRecords() = 0;
  // Status bits (kStatusNonFinite, kStatusFast) raised since the last call.
  virtual std::uint32_t takeStatus() = 0;
  virtual Totals totals() = 0;

  virtual void render(LbmView view, const Plane& plane, const FieldRequest& request,
                      FieldImage& image) = 0;
  // The moments of rows [first, first + count) of a plane, row by row (0 <= first, first + count
  // <= the plane's height).
  virtual std::vector<PlaneSample> planeRows(const Plane& plane, int first, int count) = 0;
  // The moments of a whole plane (for the probe line, exports and tests).
  std::vector<PlaneSample> planeMoments(const Plane& plane) {
    return planeRows(plane, 0, plane.height(grid()));
  }
  // The same in the engine's own memory (device memory where fieldsOnDevice()), valid until the
  // next call; what the tracers move through.
  virtual const PlaneSample* planeMomentsInPlace(const Plane& plane) = 0;
  // The whole lattice's `quantity` and speed (lbm_volume.h), likewise in the engine's own memory
  // until the next call: what the 3-D view's isosurfaces follow. Throws OutOfMemoryError where
  // they won't fit (24 bytes a cell).
  virtual VolumeFields volumeInPlace(VolumeQuantity quantity) = 0;
  // Whether those two give device memory (a GPU engine's own), so that what reads them (tracers,
  // isosurfaces, streamlines) must run on the device too. A lattice split over ranks gathers
  // them into host memory, whichever engines step its slabs.
  virtual bool fieldsOnDevice() const { return false; }
  // Every cell's moments, in host memory (volumeInPlace()'s, copied from the device where they
  // are there).
  virtual std::vector<PlaneSample> volumeMoments();

  // A step in parts, so that a lattice split over ranks can send what crossed its box's borders
  // while the inside still steps (Riesinger 2017, Figure 14.4): beginStep(), then stepBox() over
  // boxes that hold every cell once (in any order and any number of pieces), then endStep().
  // step(1) is the same. Engines without them throw InputError.
  virtual void beginStep();
  virtual void stepBox(const CellBox& box);
  virtual void endStep();
  // Whether stepBox() and readSlots() only queue their work (a GPU's stream), so that a split
  // lattice queues the inside's update before it waits for the border's halo to be read; such an
  // engine measures the device time of each stepBox() call of the last step, in call order.
  virtual bool queuesWork() const { return false; }
  virtual std::vector<float> pieceTimesMs() { return {}; }
  // Such an engine's device time of the last step's readSlots() and writeSlots() copies.
  virtual double haloCopiesMs() { return 0; }

  // Raw storage, for the halo exchange between the subdomains of a lattice split over ranks
  // (lbm_split.h): lists of Store::element indices (set again whenever they change), each with a
  // buffer of host memory (pinned, for a GPU) for its values as stored, bytesPerSlot() each.
  // readSlots() copies the values at a list's slots into its buffer, from the storage the next
  // step reads or, between beginStep() and endStep(), the one the step writes; slotsRead() returns
  // once every such copy is in its buffer. writeSlots() copies a buffer back into the slots.
  virtual std::size_t bytesPerSlot() const;
  virtual void setSlotLists(const std::vector<std::vector<std::uint64_t>>& lists);
  virtual std::byte* slotBuffer(int list);
  virtual void readSlots(int list);
  virtual void slotsRead() {}
  virtual void writeSlots(int list);
  // Device to device between the processes of one host (CUDA IPC, over NVLink where the GPUs
  // have it), where the engine can: shareSlots() gives handles to a receive list's two device
  // buffers (empty where the engine cannot share); another process's openPeerSlots() opens them
  // for its send list (false where it cannot). Once every rank could, peerSlots(true) has
  // readSlots() gather each opened send list straight into the receiver's buffers and
  // writeSlots() scatter each shared receive list from its own, the two buffers in turn (so that
  // a list's next exchange never writes what its last is still scattering); the host buffers are
  // then unused. peerSlots(false) closes what was opened. setSlotLists() ends it too.
  static constexpr std::size_t kPeerHandleBytes = 128;  // shareSlots()'s, when it can
  virtual std::vector<std::byte> shareSlots(int list);
  virtual bool openPeerSlots(int list, const std::vector<std::byte>& handles);
  virtual void peerSlots(bool on);
  // A split lattice's slab measures only once its halo is refreshed after a step: with
  // `deferred`, step() leaves the monitor's record to recordNow(), which records the state now.
  virtual void deferRecords(bool deferred);
  virtual void recordNow();

  // Where the lattice is split over ranks; none for a lattice in one piece.
  virtual const SplitState* split() const { return nullptr; }

  virtual void pollTimings() {}
  virtual void drainTimings() {}
  virtual void synchronize() {}
  virtual std::string configuration() const = 0;
};

// A view of a plane of grid g into an image (in host or device memory: image.onDevice), from the
// plane's moments in host memory.
void renderFromMoments(LbmView view, const Plane& plane, const Grid& g, const FieldRequest& request,
                       const std::vector<PlaneSample>& moments, FieldImage& image);

// The cells of a plane that a picture of it reads: the rows and columns under its pixels and, for
// the vorticity, their neighbours, with those cells' moments. What a lattice split over ranks
// gathers for its view instead of the whole plane: a picture of a large plane, zoomed out, shows
// a cell in every few, and zoomed in only the cells in sight.
struct PlaneWindow {
  std::vector<int> rows, columns;    // plane coordinates b and a, ascending
  std::vector<int> rowAt, columnAt;  // for each b (a): its place in rows (columns), or -1
  // The moments of rows x columns, row by row: filled by whoever gathers them.
  std::vector<PlaneSample> samples;

  // The window of a width x height plane under the pixels of an image of the request.
  static PlaneWindow under(LbmView view, int width, int height, const FieldRequest& request,
                           int imageWidth, int imageHeight);
  std::size_t index(int a, int b) const {
    return std::size_t(rowAt[b]) * columns.size() + std::size_t(columnAt[a]);
  }
};

// The same picture as renderFromMoments', from the window's moments.
void renderFromWindow(LbmView view, const Plane& plane, const Grid& g, const FieldRequest& request,
                      const PlaneWindow& window, FieldImage& image);

// The 3-D view's `quantity` and the speed at every cell of grid g from the cells' moments, on the
// host; returns the quantity's largest value.
float volumeFromMoments(VolumeQuantity quantity, const Grid& g, const PlaneSample* moments,
                        float* values, float* speeds);

std::unique_ptr<LbmEngine> makeCpuEngine(LatticeKind lattice, const Variant& variant,
                                         LbmTimings timings);

// Calls f.template operator()<Lattice, StorageType, Layout, Propagation>() for a runtime choice.
template <typename F>
decltype(auto) dispatch(LatticeKind lattice, const Variant& v, F&& f) {
  auto withLattice = [&]<typename T, Layout L, Propagation P>() -> decltype(auto) {
    if (lattice == LatticeKind::D2Q9) return f.template operator()<D2Q9, T, L, P>();
    return f.template operator()<D3Q19, T, L, P>();
  };
  auto withPropagation = [&]<typename T, Layout L>() -> decltype(auto) {
    if (v.propagation == Propagation::AA)
      return withLattice.template operator()<T, L, Propagation::AA>();
    return withLattice.template operator()<T, L, Propagation::AB>();
  };
  auto withLayout = [&]<typename T>() -> decltype(auto) {
    if (v.layout == Layout::SoA) return withPropagation.template operator()<T, Layout::SoA>();
    return withPropagation.template operator()<T, Layout::AoS>();
  };
  if (v.half) return withLayout.template operator()<Half>();
  return withLayout.template operator()<float>();
}

// Moves the canonical state (see importState) into raw storage of one variant, or back. Host
// code, used by the CPU engine directly and by the CUDA engine on a staging copy.
template <typename Lat, typename T, Layout L, Propagation P>
void canonicalToRaw(const Grid& g, const std::uint8_t* flags, const StepParams& p, bool odd,
                    const std::vector<float>& state, T* raw) {
  const Store<T, Lat::Q, L> store{raw, g.cells()};
  const std::size_t cells = g.cells();
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < cells; ++n)
    for (int i = 0; i < Lat::Q; ++i) store.store(n, i, 0.0f);
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < cells; ++n) {
    if (isSolid(flags[n])) continue;
    for (int i = 0; i < Lat::Q; ++i)
      storePostCollision<Lat, P>(g, flags, store, n, i, odd, p, state[i * cells + n]);
  }
}

// The moves at the boundaries (lbm_cell.h) in storage of one variant, for each parity of the
// steps taken (index 0: even), in the order they run: open outlets' extrapolation right after a
// step (so that whatever reads the state then sees it), curved returns and free-slip swaps right
// before the next. Each pass touches disjoint slots.
struct BoundaryMoves {
  // Each open outlet's pairs of slots (extrapolateOutlet), population-major: outlet k's pair of
  // population i at i * (outlets) + k, so that neighbouring threads read neighbouring pairs.
  std::vector<SlotPair> outlets[2];
  std::vector<std::uint32_t> outletCells;  // outlet k's cell
  std::vector<CurvedReturn> curved[2];
  std::vector<SlotPair> swaps[2];
};

template <typename Lat, typename T, Layout L, Propagation P>
BoundaryMoves boundaryMoves(const Grid& g, const std::uint8_t* flags, const BoundaryLinks& links) {
  using S = Store<T, Lat::Q, L>;
  const std::size_t cells = g.cells();
  const auto slot = [&](std::size_t n, int i, bool odd) {
    const Slot at = postCollisionSlot<Lat, P>(g, flags, n, i, odd);
    return std::uint64_t(S::element(at.cell, at.i, cells));
  };
  // A-A keeps a population that went into a moving wall with the wall's gain added, which an
  // outlet's moments would count: outlets next to one (or upstream of one) are left as they
  // relaxed, in every variant alike.
  const auto nearMovingWall = [&](std::uint32_t n) {
    const Neighbourhood nb(g, n);
    for (int i = 1; i < Lat::Q; ++i)
      if ((flags[nb.at(Lat::cx(i), Lat::cy(i), Lat::cz(i))] & kTypeMask) == kMovingWall)
        return true;
    return false;
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> outlets;  // each with its upstream cell
  for (const std::uint32_t n : links.openOutlets) {
    const std::uint32_t upstream = Neighbourhood(g, n).at(-1, 0, 0);
    if (!nearMovingWall(n) && !nearMovingWall(upstream)) outlets.push_back({n, upstream});
  }
  BoundaryMoves moves;
  for (const auto& outlet : outlets) moves.outletCells.push_back(outlet.first);
  for (int odd = 0; odd < 2; ++odd) {
    for (int i = 0; i < Lat::Q; ++i)
      for (const auto& [n, upstream] : outlets)
        moves.outlets[odd].push_back({slot(n, i, odd), slot(upstream, i, odd)});
    for (const ForceLink& link : links.curved) {
      const Interpolation r = interpolation<Lat, P>(g, flags, link, odd);
      moves.curved[odd].push_back({S::element(r.own.cell, r.own.i, cells),
                                   S::element(r.other.cell, r.other.i, cells), r.ownWeight,
                                   r.otherWeight});
    }
    for (const ForceLink& link : links.slip) {
      const int i = int(link.direction);
      const std::uint32_t partner = Neighbourhood(g, link.cell).at(Lat::cx(i), 0, Lat::cz(i));
      moves.swaps[odd].push_back(
          {slot(link.cell, i, odd), slot(partner, opposite(mirrorY<Lat>(i)), odd)});
    }
  }
  return moves;
}

template <typename Lat, typename T, Layout L, Propagation P>
std::vector<float> rawToCanonical(const Grid& g, const std::uint8_t* flags, const StepParams& p,
                                  bool odd, T* raw) {
  const Store<T, Lat::Q, L> store{raw, g.cells()};
  const std::size_t cells = g.cells();
  std::vector<float> state(cells * Lat::Q, 0.0f);
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < cells; ++n) {
    if (isSolid(flags[n])) continue;
    for (int i = 0; i < Lat::Q; ++i)
      state[i * cells + n] = postCollision<Lat, P>(g, flags, store, n, i, odd, p);
  }
  return state;
}

}  // namespace ws::lbm
