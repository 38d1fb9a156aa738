// The OpenMP engine: every storage variant, through the cell update the CUDA kernels use.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "compute/core/memory.h"
#include "compute/core/parallel.h"
#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

namespace {

template <typename Lat, typename T, Layout L, Propagation P>
class CpuEngine final : public LbmEngine {
 public:
  CpuEngine(const Variant& variant, LbmTimings timings) : variant_(variant), timings_(timings) {}

  void reshape(const Grid& g) override {
    const double copies = P == Propagation::AB ? 2 : 1;
    requireHostMemory(double(g.cells()) * (copies * Lat::Q * sizeof(T) + 1),
                      "a " + std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" +
                          std::to_string(g.nz) + " lattice");
    changed();
    grid_ = g;
    a_.assign(g.cells() * Lat::Q, T(0.0f));
    if (P == Propagation::AB) b_.assign(a_.size(), T(0.0f));
    flags_.assign(g.cells(), kFluid);
    moves_ = {};
    volume_ = {};
    quantity_ = speed_ = {};
    steps_ = 0;
  }
  const Grid& grid() const override { return grid_; }

  void setFlags(const std::vector<std::uint8_t>& flags, std::size_t first,
                std::size_t count) override {
    changed();
    std::copy_n(flags.begin() + first, count, flags_.begin() + first);
  }
  void restCells(const std::vector<std::size_t>& cells) override {
    changed();
    for (std::size_t n : cells)
      for (int i = 0; i < Lat::Q; ++i) store(a_).store(n, i, 0.0f);
  }
  void setParams(const StepParams& params) override {
    changed();
    params_ = withForceTerms<Lat>(params, Codec<T>::kUnit);
  }

  void initialize(const InitialFlow& flow) override {
    changed();
    steps_ = 0;
    const auto f = store(a_);
    const std::size_t cells = grid_.cells();
#pragma omp parallel for schedule(static)
    for (std::size_t n = 0; n < cells; ++n)
      for (int i = 0; i < Lat::Q; ++i) f.store(n, i, 0.0f);
#pragma omp parallel for schedule(static)
    for (std::size_t n = 0; n < cells; ++n)
      initializeCell<Lat, P>(grid_, flags_.data(), f, n, flow, params_);
  }
  void importState(const std::vector<float>& state, std::uint64_t steps) override {
    changed();
    steps_ = steps;
    canonicalToRaw<Lat, T, L, P>(grid_, flags_.data(), params_, steps_ & 1, state, a_.data());
  }
  std::vector<float> exportState() override {
    return rawToCanonical<Lat, T, L, P>(grid_, flags_.data(), params_, steps_ & 1, a_.data());
  }

  void step(int count) override {
    const CpuStopwatch watch;
    for (int c = 0; c < count; ++c) {
      beginStep();
      stepBox(CellBox(grid_));
      endStep();
    }
    const double updates = double(grid_.cells()) * count;
    timings_.step->record(watch.elapsedMs(), updates,
                          updates * bytesPerCellUpdate(lattice(), variant_));
  }
  void beginStep() override {
    changed();
    returnFromWalls(store(a_), steps_ & 1);
    stepping_ = true;
    outletSteps_.assign(moves_.outletCells.size(), 0);
  }
  void stepBox(const CellBox& box) override {
    changed();
    // Rows along x, each row's cells contiguous.
    const int width = box.extent(0), height = box.extent(1);
    const std::ptrdiff_t rows = box.empty() ? 0 : std::ptrdiff_t(height) * box.extent(2);
    const auto src = store(a_), dst = written();
    const bool odd = steps_ & 1;
    status_ |= withStepKind(odd, hasForce(params_), [&]<bool kOdd, bool kForce>() {
      std::uint32_t bits = 0;
#pragma omp parallel for schedule(static) \
    reduction(|                           \
              : bits) if (worthATeam(std::size_t(rows) * width))
      for (std::ptrdiff_t r = 0; r < rows; ++r) {
        const std::size_t row =
            (std::size_t(box.lo[2] + r / height) * grid_.ny + box.lo[1] + r % height) * grid_.nx;
        for (int x = box.lo[0]; x < box.hi[0]; ++x)
          bits |= streamCollide<Lat, P, kOdd, kForce>(grid_, flags_.data(), src, dst,
                                                      Neighbourhood(grid_, row + x), params_);
      }
      return bits;
    });
    // The open outlets as the step left them, each once both it and the cell before it have
    // stepped (one thread an outlet: the counts need no atomics).
    const std::vector<SlotPair>& pairs = moves_.outlets[!odd];
    const std::vector<std::uint32_t>& cells = moves_.outletCells;
    const auto outlets = std::ptrdiff_t(cells.size());
#pragma omp parallel for schedule(static) if (worthATeam(pairs.size()))
    for (std::ptrdiff_t k = 0; k < outlets; ++k) {
      const int now = outletCellsIn(grid_, box, cells[k]);
      if (now && (outletSteps_[k] += now) == 2)
        extrapolateOutlet<Lat>(dst, &pairs[std::size_t(k)], cells.size());
    }
  }
  void endStep() override {
    changed();
    if (P == Propagation::AB) std::swap(a_, b_);
    ++steps_;
    stepping_ = false;
    if (monitor_.stride() && !deferRecords_) record();
  }
  void setBoundaryLinks(const BoundaryLinks& links) override {
    moves_ = boundaryMoves<Lat, T, L, P>(grid_, flags_.data(), links);
  }
  void setMonitor(const Monitor& monitor) override {
    monitor_ = monitor;
    records_.clear();
  }
  std::vector<double> takeRecords() override {
    return std::exchange(records_, {});
  }

  std::uint32_t takeStatus() override {
    return std::exchange(status_, 0u);
  }

  // Kept until the populations, flags or parameters change: the window asks every frame, and a
  // paused 3-D lattice on the CPU took most of each frame to add up again.
  Totals totals() override {
    if (!totals_) totals_ = addUpTotals();
    return *totals_;
  }

  std::vector<PlaneSample> planeRows(const Plane& plane, int first, int count) override {
    const int w = plane.width(grid_);
    std::vector<PlaneSample> samples(std::size_t(w) * count);
    const auto f = store(a_);
    const bool odd = steps_ & 1;
#pragma omp parallel for schedule(static)
    for (int b = 0; b < count; ++b)
      for (int a = 0; a < w; ++a) {
        const Moments m = cellMoments<Lat, P>(grid_, flags_.data(), f,
                                              plane.cell(grid_, a, first + b), odd, params_);
        samples[std::size_t(b) * w + a] = {m.rho, {m.u[0], m.u[1], m.u[2]}};
      }
    return samples;
  }
  const PlaneSample* planeMomentsInPlace(const Plane& plane) override {
    plane_ = planeMoments(plane);
    return plane_.data();
  }

  VolumeFields volumeInPlace(VolumeQuantity quantity) override {
    const Grid& g = grid_;
    const std::size_t cells = g.cells();
    if (volume_.size() != cells) {
      requireHostMemory(double(cells) * (sizeof(PlaneSample) + 2 * sizeof(float)),
                        "the 3-D view's fields");
      volume_.resize(cells);
      quantity_.resize(cells);
      speed_.resize(cells);
    }
    const auto f = store(a_);
    const bool odd = steps_ & 1;
#pragma omp parallel for schedule(static)
    for (std::size_t n = 0; n < cells; ++n) {
      const Moments m = cellMoments<Lat, P>(g, flags_.data(), f, n, odd, params_);
      volume_[n] = {m.rho, {m.u[0], m.u[1], m.u[2]}};
    }
    const float largest =
        volumeFromMoments(quantity, g, volume_.data(), quantity_.data(), speed_.data());
    return {quantity_.data(), speed_.data(), largest, volume_.data()};
  }

  void render(LbmView view, const Plane& plane, const FieldRequest& request,
              FieldImage& image) override {
    const CpuStopwatch watch;
    renderFromMoments(view, plane, grid_, request, planeMoments(plane), image);
    const double pixels = double(image.width) * image.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }

  std::string configuration() const override {
    return std::string(Lat::name) + ", " + variant_.name() + ", OpenMP over cells";
  }

  void deferRecords(bool deferred) override {
    deferRecords_ = deferred;
  }
  void recordNow() override {
    if (monitor_.stride()) record();
  }

  std::size_t bytesPerSlot() const override {
    return sizeof(T);
  }
  void setSlotLists(const std::vector<std::vector<std::uint64_t>>& lists) override {
    slotLists_ = lists;
    slotBuffers_.resize(lists.size());
    for (std::size_t k = 0; k < lists.size(); ++k) slotBuffers_[k].resize(lists[k].size());
  }
  std::byte* slotBuffer(int list) override {
    return reinterpret_cast<std::byte*>(slotBuffers_.at(list).data());
  }
  void readSlots(int list) override {
    const T* raw = written().base[0];
    const std::vector<std::uint64_t>& elements = slotLists_.at(list);
    T* out = slotBuffers_[list].data();
    const auto count = std::ptrdiff_t(elements.size());
#pragma omp parallel for schedule(static) if (worthATeam(elements.size()))
    for (std::ptrdiff_t k = 0; k < count; ++k) out[k] = raw[elements[k]];
  }
  void writeSlots(int list) override {
    changed();
    T* raw = written().base[0];
    const std::vector<std::uint64_t>& elements = slotLists_.at(list);
    const T* in = slotBuffers_[list].data();
    const auto count = std::ptrdiff_t(elements.size());
#pragma omp parallel for schedule(static) if (worthATeam(elements.size()))
    for (std::ptrdiff_t k = 0; k < count; ++k) raw[elements[k]] = in[k];
  }

 private:
  void changed() {
    totals_.reset();
  }
  Totals addUpTotals() {
    const std::size_t cells = grid_.cells();
    double mass = 0;
    float maxSpeed = 0;
    std::uint64_t fluid = 0;
    const auto f = store(a_);
    const bool odd = steps_ & 1;
#pragma omp parallel for schedule(static) reduction(+ : mass, fluid) reduction(max : maxSpeed) \
    if (worthATeam(cells))
    for (std::size_t n = 0; n < cells; ++n) {
      if (isSolid(flags_[n]) || (flags_[n] & kHalo)) continue;
      const Moments m = cellMoments<Lat, P>(grid_, flags_.data(), f, n, odd, params_);
      mass += m.rho;
      ++fluid;
      const float speed = std::sqrt(m.u[0] * m.u[0] + m.u[1] * m.u[1] + m.u[2] * m.u[2]);
      maxSpeed = std::isnan(speed) ? INFINITY : std::max(maxSpeed, speed);
    }
    return {mass, maxSpeed, fluid};
  }

  static constexpr LatticeKind lattice() {
    return Lat::Q == 9 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
  }
  // Applies `move` to each of `moves` (BoundaryMoves), in parallel.
  template <typename M, typename F>
  static void each(const std::vector<M>& moves, F move) {
    const auto count = std::ptrdiff_t(moves.size());
#pragma omp parallel for schedule(static) if (worthATeam(moves.size()))
    for (std::ptrdiff_t k = 0; k < count; ++k) move(moves[k]);
  }
  // What the walls send back that the step's bounce-back does not: curved and free-slip walls.
  void returnFromWalls(Store<T, Lat::Q, L> f, bool odd) {
    each(moves_.curved[odd], [f](const CurvedReturn& m) { bounceBackCurved(f, m); });
    each(moves_.swaps[odd], [f](const SlotPair& m) { swapSlots(f, m); });
  }

  // Appends the monitor's record of the current state.
  void record() {
    const auto f = store(a_);
    const bool odd = steps_ & 1;
    for (int k = 0; k < monitor_.obstacles(); ++k) {
      double fx = 0, fy = 0, fz = 0;
      const std::ptrdiff_t first = monitor_.linkStart[k], last = monitor_.linkStart[k + 1];
#pragma omp parallel for schedule(static) reduction(+ : fx, fy, fz) if (worthATeam(last - first))
      for (std::ptrdiff_t l = first; l < last; ++l) {
        float m[3];
        linkMomentum<Lat, P>(grid_, flags_.data(), f, monitor_.links[l], odd, params_, m);
        fx += m[0];
        fy += m[1];
        fz += m[2];
      }
      records_.insert(records_.end(), {fx, fy, fz});
    }
    for (std::uint32_t n : monitor_.probes) {
      const Moments m = cellMoments<Lat, P>(grid_, flags_.data(), f, n, odd, params_);
      records_.insert(records_.end(), {m.rho, m.u[0], m.u[1], m.u[2]});
    }
  }
  Store<T, Lat::Q, L> store(std::vector<T>& v) const {
    return {v.data(), grid_.cells()};
  }
  // The storage a step in progress writes, or the state between steps.
  Store<T, Lat::Q, L> written() {
    return store(P == Propagation::AB && stepping_ ? b_ : a_);
  }

  Variant variant_;
  LbmTimings timings_;
  Grid grid_;
  std::vector<std::uint8_t> flags_;
  std::vector<T> a_, b_;
  std::vector<PlaneSample> plane_;   // for planeMomentsInPlace
  std::vector<PlaneSample> volume_;  // for volumeInPlace, with:
  std::vector<float> quantity_, speed_;
  BoundaryMoves moves_;
  Monitor monitor_;
  std::vector<double> records_;
  StepParams params_;
  std::uint64_t steps_ = 0;
  std::uint32_t status_ = 0;
  std::optional<Totals> totals_;  // totals() since the last change
  bool deferRecords_ = false;
  std::vector<std::vector<std::uint64_t>> slotLists_;  // setSlotLists, with:
  std::vector<std::vector<T>> slotBuffers_;
  bool stepping_ = false;  // between beginStep() and endStep()
  // In the step in progress, how many of each open outlet's two cells have stepped
  // (outletCellsIn).
  std::vector<std::uint8_t> outletSteps_;
};

}  // namespace

std::unique_ptr<LbmEngine> makeCpuEngine(LatticeKind lattice, const Variant& variant,
                                         LbmTimings timings) {
  return dispatch(
      lattice, variant,
      [&]<typename Lat, typename T, Layout L, Propagation P>() -> std::unique_ptr<LbmEngine> {
        return std::make_unique<CpuEngine<Lat, T, L, P>>(variant, timings);
      });
}

}  // namespace ws::lbm
