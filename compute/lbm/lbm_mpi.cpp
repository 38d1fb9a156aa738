#include "compute/lbm/lbm_mpi.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/errors.h"
#include "compute/core/ranks.h"
#include "compute/lbm/lbm_cuda.h"
#include "compute/lbm/lbm_split.h"

namespace ws::lbm::mpi {

namespace {

enum class Op : std::uint8_t {
  Make,
  Drop,
  Reshape,
  SetFlags,
  RestCells,
  SetParams,
  Initialize,
  ImportState,
  ExportState,
  Step,
  SetBoundaryLinks,
  SetMonitor,
  TakeRecords,
  TakeStatus,
  Totals,
  PlaneRows,
  Render,
  VolumeInPlace
};

// What steps each rank's slab: the CPU, or the rank's GPU.
MakeEngine slabEngines(const SplitPlan& plan) {
  if (plan.cudaBlock == 0) return makeCpuEngine;
  return [block = plan.cudaBlock](LatticeKind lattice, const Variant& variant, LbmTimings timings) {
    return makeCudaEngine(lattice, variant, block, timings);
  };
}

// Rank 0's engine: each call goes to the other ranks, then is made here.
class Leader final : public LbmEngine {
 public:
  Leader(LatticeKind lattice, const Variant& variant, LbmTimings timings, SplitPlan plan)
      : id_(nextId_++), timings_(timings) {
    ranks::send(call(Op::Make).put(lattice).put(variant).put(plan));
    split_ = makeSplitEngine(lattice, variant, timings, plan, slabEngines(plan), &ranks::wire());
  }
  ~Leader() override { ranks::send(call(Op::Drop)); }

  void reshape(const Grid& grid) override {
    send(Op::Reshape, grid);
    planeKept_.reset();
    split_->reshape(grid);
  }
  const Grid& grid() const override { return split_->grid(); }
  void setFlags(const std::vector<std::uint8_t>& flags, std::size_t first,
                std::size_t count) override {
    Call m = call(Op::SetFlags);
    m.put(first);
    m.put(std::vector<std::uint8_t>(flags.begin() + first, flags.begin() + first + count));
    ranks::send(m);
    planeKept_.reset();
    split_->setFlags(flags, first, count);
  }
  void restCells(const std::vector<std::size_t>& cells) override {
    send(Op::RestCells, cells);
    planeKept_.reset();
    split_->restCells(cells);
  }
  void setParams(const StepParams& params) override {
    send(Op::SetParams, params);
    planeKept_.reset();
    split_->setParams(params);
  }
  void initialize(const InitialFlow& flow) override {
    send(Op::Initialize, flow);
    planeKept_.reset();
    split_->initialize(flow);
  }
  void importState(const std::vector<float>& state, std::uint64_t steps) override {
    send(Op::ImportState, steps);
    planeKept_.reset();
    split_->importState(state, steps);
  }
  std::vector<float> exportState() override {
    ranks::send(call(Op::ExportState));
    return split_->exportState();
  }
  void step(int count) override {
    send(Op::Step, count);
    planeKept_.reset();
    split_->step(count);
  }
  void setBoundaryLinks(const BoundaryLinks& links) override {
    Call m = call(Op::SetBoundaryLinks);
    m.put(links.curved);
    m.put(links.slip);
    m.put(links.openOutlets);
    ranks::send(m);
    split_->setBoundaryLinks(links);
  }
  void setMonitor(const Monitor& monitor) override {
    Call m = call(Op::SetMonitor);
    m.put(monitor.links);
    m.put(monitor.linkStart);
    m.put(monitor.probes);
    ranks::send(m);
    split_->setMonitor(monitor);
  }
  std::vector<double> takeRecords() override {
    ranks::send(call(Op::TakeRecords));
    return split_->takeRecords();
  }
  std::uint32_t takeStatus() override {
    ranks::send(call(Op::TakeStatus));
    return split_->takeStatus();
  }
  Totals totals() override {
    ranks::send(call(Op::Totals));
    return split_->totals();
  }
  // The view draws from the plane's moments where they were gathered since the state last changed
  // (for the tracers, or a picture of the same state before); otherwise each rank sends only the
  // cells the picture reads (SplitEngine's PlaneWindow): a cell in every few of a large lattice
  // zoomed out, the cells in sight zoomed in.
  void render(LbmView view, const Plane& plane, const FieldRequest& request,
              FieldImage& image) override {
    if (!planeKept_ || plane.axis != planeKept_->axis || plane.index != planeKept_->index) {
      Call m = call(Op::Render);
      m.put(view).put(plane).put(request).put(image.width).put(image.height);
      ranks::send(m);
      split_->render(view, plane, request, image);
      return;
    }
    const CpuStopwatch watch;
    renderFromMoments(view, plane, grid(), request, plane_, image);
    const double pixels = double(image.width) * image.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }
  std::vector<PlaneSample> planeRows(const Plane& plane, int first, int count) override {
    Call m = call(Op::PlaneRows);
    m.put(plane);
    m.put(first);
    m.put(count);
    ranks::send(m);
    return split_->planeRows(plane, first, count);
  }
  const PlaneSample* planeMomentsInPlace(const Plane& plane) override {
    if (!planeKept_ || plane.axis != planeKept_->axis || plane.index != planeKept_->index) {
      plane_ = planeMoments(plane);
      planeKept_ = plane;
    }
    return plane_.data();
  }
  VolumeFields volumeInPlace(VolumeQuantity quantity) override {
    send(Op::VolumeInPlace, quantity);
    return split_->volumeInPlace(quantity);
  }
  const SplitState* split() const override { return split_->split(); }
  void pollTimings() override { split_->pollTimings(); }
  void drainTimings() override { split_->drainTimings(); }
  void synchronize() override { split_->synchronize(); }
  std::string configuration() const override {
    return split_->configuration() + " (MPI processes)";
  }

 private:
  Call call(Op op) const {
    Call c;
    c.put(op).put(id_);
    return c;
  }
  template <typename T>
  void send(Op op, const T& argument) const {
    ranks::send(call(op).put(argument));
  }

  static inline int nextId_ = 1;
  int id_;
  LbmTimings timings_;
  std::unique_ptr<LbmEngine> split_;
  // The plane last gathered and which plane it is, until a call changes the state (each such
  // call resets planeKept_), as the CUDA engine keeps its planeDone_.
  std::vector<PlaneSample> plane_;
  std::optional<Plane> planeKept_;
};

// A call from rank 0 made on this rank's engine.
void serveCall(Op op, LbmEngine& engine, Call& m) {
  switch (op) {
    case Op::Reshape:
      engine.reshape(m.get<Grid>());
      break;
    case Op::SetFlags: {
      const auto first = m.get<std::size_t>();
      std::vector<std::uint8_t> flags = m.getVector<std::uint8_t>();
      const std::size_t count = flags.size();
      flags.insert(flags.begin(), first, kFluid);
      engine.setFlags(flags, first, count);
      break;
    }
    case Op::RestCells:
      engine.restCells(m.getVector<std::size_t>());
      break;
    case Op::SetParams:
      engine.setParams(m.get<StepParams>());
      break;
    case Op::Initialize:
      engine.initialize(m.get<InitialFlow>());
      break;
    case Op::ImportState:
      engine.importState({}, m.get<std::uint64_t>());
      break;
    case Op::ExportState:
      engine.exportState();
      break;
    case Op::Step:
      engine.step(m.get<int>());
      break;
    case Op::SetBoundaryLinks: {
      BoundaryLinks links;
      links.curved = m.getVector<ForceLink>();
      links.slip = m.getVector<ForceLink>();
      links.openOutlets = m.getVector<std::uint32_t>();
      engine.setBoundaryLinks(links);
      break;
    }
    case Op::SetMonitor: {
      Monitor monitor;
      monitor.links = m.getVector<ForceLink>();
      monitor.linkStart = m.getVector<std::uint32_t>();
      monitor.probes = m.getVector<std::uint32_t>();
      engine.setMonitor(monitor);
      break;
    }
    case Op::TakeRecords:
      engine.takeRecords();
      break;
    case Op::TakeStatus:
      engine.takeStatus();
      break;
    case Op::Totals:
      engine.totals();
      break;
    case Op::PlaneRows: {
      const auto plane = m.get<Plane>();
      const int first = m.get<int>();
      engine.planeRows(plane, first, m.get<int>());
      break;
    }
    case Op::Render: {
      const auto view = m.get<LbmView>();
      const auto plane = m.get<Plane>();
      const auto request = m.get<FieldRequest>();
      FieldImage image;  // drawn on rank 0 only
      image.width = m.get<int>();
      image.height = m.get<int>();
      engine.render(view, plane, request, image);
      break;
    }
    case Op::VolumeInPlace:
      engine.volumeInPlace(m.get<VolumeQuantity>());
      break;
    case Op::Make:
    case Op::Drop:
      break;
  }
}

// The other ranks' side: their slabs of rank 0's lattices, by engine.
void serve(Call& call) {
  static std::map<int, std::unique_ptr<LbmEngine>> engines;
  static TimingScope step("step", "", false), view("view", "", false);
  const auto op = call.get<Op>();
  const int id = call.get<int>();
  if (op == Op::Make) {
    const auto lattice = call.get<LatticeKind>();
    const auto variant = call.get<Variant>();
    const auto plan = call.get<SplitPlan>();
    engines[id] =
        makeSplitEngine(lattice, variant, {&step, &view}, plan, slabEngines(plan), &ranks::wire());
  } else if (op == Op::Drop) {
    engines.erase(id);
  } else if (const auto found = engines.find(id); found != engines.end()) {
    serveCall(op, *found->second, call);
  }
}

// Set in every process as the program starts (rank 0's LbmModule links this file in).
[[maybe_unused]] const bool serving = (ranks::handleCalls(serve), true);

}  // namespace

std::unique_ptr<LbmEngine> makeEngine(LatticeKind lattice, const Variant& variant,
                                      LbmTimings timings, SplitPlan plan) {
  plan.ranks = ranks::count();
  plan.peer = plan.peer && plan.cudaBlock > 0 && ranks::countOnHost() == ranks::count();
  return std::make_unique<Leader>(lattice, variant, timings, plan);
}

}  // namespace ws::lbm::mpi
