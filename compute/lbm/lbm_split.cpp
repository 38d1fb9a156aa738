#include "compute/lbm/lbm_split.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <span>
#include <string>
#include <utility>

#include "compute/core/errors.h"
#include "compute/core/memory.h"

namespace ws::lbm {

namespace {

constexpr const char* kAxisNames[3] = {"x", "y", "z"};

void coordinatesOf(const Grid& g, std::size_t n, int c[3]) {
  c[0] = int(n % g.nx);
  c[1] = int(n / g.nx % g.ny);
  c[2] = int(n / g.nx / g.ny);
}

std::size_t cellAt(const Grid& g, const int c[3]) {
  return (std::size_t(c[2]) * g.ny + c[1]) * g.nx + c[0];
}

// Rank r's flag field: the lattice's flags of the cells it holds, its halo marked.
std::vector<std::uint8_t> localFlags(const Split& split, const std::vector<std::uint8_t>& flags,
                                     int rank) {
  std::vector<std::uint8_t> local(split.local(rank).cells());
  for (const Split::Run& run : split.runs(rank))
    for (int k = 0; k < run.count; ++k)
      local[run.local + k] = flags[run.global + k] | (run.own ? 0 : kHalo);
  return local;
}

}  // namespace

// ---- where the cells lie ----------------------------------------------------------------------

namespace {
// A split along one axis as a grid of ranks; refuses an axis the lattice does not have.
std::array<int, 3> alongOneAxis(const Grid& lattice, int axis, int ranks) {
  if (axis < 0 || axis > 2 || (axis == 2 && lattice.nz == 1))
    throw InputError("a " + std::string(lattice.nz == 1 ? "2-D" : "3-D") +
                     " lattice cannot be split along " +
                     (axis >= 0 && axis <= 2 ? kAxisNames[axis] : "that axis"));
  std::array<int, 3> parts{1, 1, 1};
  parts[axis] = ranks;
  return parts;
}
}  // namespace

Split::Split(const Grid& lattice, int axis, int ranks)
    : Split(lattice, alongOneAxis(lattice, axis, ranks)) {}

Split::Split(const Grid& lattice, const std::array<int, 3>& parts)
    : lattice_(lattice), parts_(parts), extents_{lattice.nx, lattice.ny, lattice.nz} {
  if (lattice.nz == 1 && parts[2] > 1) throw InputError("a 2-D lattice cannot be split along z");
  for (int a = 0; a < 3; ++a)
    if (parts[a] < 1 || (parts[a] > 1 && extents_[a] < 2 * parts[a])) {
      const bool one = parts[(a + 1) % 3] == 1 && parts[(a + 2) % 3] == 1;
      throw InputError("the lattice's " + std::to_string(extents_[a]) + " cells along " +
                       kAxisNames[a] + " cannot be split over " + std::to_string(parts[a]) +
                       " ranks: each rank needs at least 2 cells along the axis it is split on " +
                       (one ? "(run fewer processes, or split along another axis: "
                              "lbm.split_axis)"
                            : "(run fewer processes, or split it less along " +
                                  std::string(kAxisNames[a]) + ": lbm.split_grid)"));
    }
  ranks_ = parts[0] * parts[1] * parts[2];
}

int Split::axis() const {
  int axis = -1;
  for (int a = 0; a < 3; ++a)
    if (parts_[a] > 1) {
      if (axis >= 0) return -1;
      axis = a;
    }
  return axis;
}

std::array<int, 3> Split::place(int rank) const {
  return {rank % parts_[0], rank / parts_[0] % parts_[1], rank / parts_[0] / parts_[1]};
}
int Split::rankAt(const std::array<int, 3>& place) const {
  return (place[2] * parts_[1] + place[1]) * parts_[0] + place[0];
}

int Split::first(int axis, int part) const {
  return int(std::int64_t(extents_[axis]) * part / parts_[axis]);
}

int Split::partOf(int axis, int coordinate) const {
  int part = int(std::int64_t(coordinate) * parts_[axis] / extents_[axis]);
  while (first(axis, part + 1) <= coordinate) ++part;
  while (first(axis, part) > coordinate) --part;
  return part;
}

Grid Split::local(int rank) const {
  const std::array<int, 3> at = place(rank);
  int extent[3];
  for (int a = 0; a < 3; ++a) extent[a] = first(a, at[a] + 1) - first(a, at[a]) + 2 * halo(a);
  Grid g = lattice_;
  g.nx = extent[0];
  g.ny = extent[1];
  g.nz = extent[2];
  return g;
}

std::size_t Split::global(int rank, std::size_t n) const {
  int c[3];
  coordinatesOf(local(rank), n, c);
  for (int a = 0; a < 3; ++a) c[a] = (c[a] + origin(rank, a) + extents_[a]) % extents_[a];
  return cellAt(lattice_, c);
}

std::int64_t Split::local(int rank, std::size_t cell) const {
  const Grid g = local(rank);
  int c[3];
  coordinatesOf(lattice_, cell, c);
  for (int a = 0; a < 3; ++a) {
    const int layer = ((c[a] - origin(rank, a)) % extents_[a] + extents_[a]) % extents_[a];
    if (layer >= g.extent(a)) return -1;
    c[a] = layer;
  }
  return std::int64_t(cellAt(g, c));
}

int Split::owner(std::size_t cell) const {
  int c[3];
  coordinatesOf(lattice_, cell, c);
  return rankAt({partOf(0, c[0]), partOf(1, c[1]), partOf(2, c[2])});
}

bool Split::ownsLocal(int rank, std::size_t n) const {
  const Grid g = local(rank);
  int c[3];
  coordinatesOf(g, n, c);
  for (int a = 0; a < 3; ++a)
    if (c[a] < halo(a) || c[a] >= g.extent(a) - halo(a)) return false;
  return true;
}

std::vector<Split::Run> Split::runs(int rank) const {
  const Grid g = local(rank);
  const auto own = [&](int a, int layer) {
    return layer >= halo(a) && layer < g.extent(a) - halo(a);
  };
  // Split along x, a row changes owner at the halo's layers, where the lattice wraps too.
  const int own0 = halo(0), own1 = g.nx - halo(0);
  const int origins[3] = {origin(rank, 0), origin(rank, 1), origin(rank, 2)};
  std::vector<Run> runs;
  for (int z = 0; z < g.nz; ++z)
    for (int y = 0; y < g.ny; ++y)
      for (int x = 0; x < g.nx;) {
        int c[3] = {x, y, z};
        const int end = x < own0 ? own0 : x < own1 ? own1 : g.nx;
        const std::size_t first = cellAt(g, c);
        for (int a = 0; a < 3; ++a) c[a] = (c[a] + origins[a] + extents_[a]) % extents_[a];
        runs.push_back({first, cellAt(lattice_, c), end - x, own(0, x) && own(1, y) && own(2, z)});
        x = end;
      }
  return runs;
}

Split::Pieces Split::pieces(int rank) const {
  const Grid g = local(rank);
  CellBox rest(g);  // what is left of the own cells once the faces before are taken
  for (int a = 0; a < 3; ++a) {
    rest.lo[a] = halo(a);
    rest.hi[a] = g.extent(a) - halo(a);
  }
  Pieces pieces;
  const auto take = [&](int a, int lo, int hi) {
    CellBox face = rest;
    face.lo[a] = lo;
    face.hi[a] = hi;
    if (!face.empty()) pieces.border.push_back(face);
  };
  for (int a = 0; a < 3; ++a) {
    if (!halo(a)) continue;
    const int lo = rest.lo[a], hi = rest.hi[a];
    const int upper = std::max(lo + 1, hi - (a == 0 ? 2 : 1));
    take(a, lo, lo + 1);
    take(a, upper, hi);
    rest.lo[a] = lo + 1;
    rest.hi[a] = upper;
  }
  pieces.inside = rest;
  return pieces;
}

std::array<int, 3> parseRankGrid(const std::string& text) {
  const InputError unreadable(
      "a grid of ranks is written as parts along x, y (and z) joined by x, e.g. 2x2 or 2x1x2");
  std::array<int, 3> parts{1, 1, 1};
  std::size_t at = 0;
  int count = 0;
  while (true) {
    std::size_t end = at;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == at || end - at > 4 || count == 3) throw unreadable;
    parts[count++] = std::stoi(text.substr(at, end - at));
    if (parts[count - 1] < 1) throw InputError("each part of a grid of ranks is at least 1");
    if (end == text.size()) break;
    if (text[end] != 'x') throw unreadable;
    at = end + 1;
  }
  if (count < 2) throw unreadable;
  return parts;
}

// ---- the halo ---------------------------------------------------------------------------------

// Every population that a rank's step streams out of its own cells into another rank's: from its
// own cells beside a border, in each direction that leaves its box, to the rank that owns the
// cell it streams into, in the direction that rank lies in (and, where it streams into a
// free-slip wall, to the owner of the cell it reflects to).
std::vector<HaloChannel> haloChannels(LatticeKind lattice, const Variant& variant,
                                      const Split& split, const std::vector<std::uint8_t>& flags,
                                      bool odd, int only) {
  std::vector<HaloChannel> channels;
  if (split.ranks() == 1) return channels;
  std::vector<std::vector<std::uint8_t>> local(split.ranks());  // made as needed
  const auto flagsOf = [&](int rank) -> const std::vector<std::uint8_t>& {
    if (local[rank].empty()) local[rank] = localFlags(split, flags, rank);
    return local[rank];
  };
  dispatch(lattice, variant, [&]<typename Lat, typename T, Layout L, Propagation P>() {
    using S = Store<T, Lat::Q, L>;
    for (int from = 0; from < split.ranks(); ++from) {
      const std::array<int, 3> at = split.place(from);
      // This rank's channels by direction, made as it first sends that way.
      std::array<int, kDirections> index;
      index.fill(-1);
      std::vector<HaloChannel> mine;
      const Grid gf = split.local(from);
      const std::vector<std::uint8_t>& flagsFrom = flagsOf(from);
      int c[3];
      for (c[2] = split.halo(2); c[2] < gf.nz - split.halo(2); ++c[2])
        for (c[1] = split.halo(1); c[1] < gf.ny - split.halo(1); ++c[1])
          for (c[0] = split.halo(0); c[0] < gf.nx - split.halo(0); ++c[0]) {
            // Which sides of its box the cell lies beside: -1, 0 or 1 along each axis.
            int beside[3];
            bool border = false;
            for (int a = 0; a < 3; ++a) {
              const int extent = gf.extent(a), h = split.halo(a);
              beside[a] = !h ? 0 : c[a] == h ? -1 : c[a] == extent - 1 - h ? 1 : 0;
              border = border || beside[a];
            }
            if (!border) continue;
            const std::size_t n = cellAt(gf, c);
            if (isSolid(flagsFrom[n])) continue;
            const std::size_t cell = split.global(from, n);  // the lattice's
            const Neighbourhood near(gf, n);
            for (int i = 1; i < Lat::Q; ++i) {
              // Where population i goes: the cell it streams into, and, where that is a free-slip
              // wall, the cell it reflects to (n + (c_ix, 0, c_iz)), whose owner swaps it in
              // before the next step (BoundaryLinks::slip): a third rank's, across an edge.
              const int streams[3] = {Lat::cx(i), Lat::cy(i), Lat::cz(i)};
              const int reflects[3] = {Lat::cx(i), 0, Lat::cz(i)};
              const bool slip = (flagsFrom[near.at(streams[0], streams[1], streams[2])] &
                                 kTypeMask) == kSlipWall &&
                                (reflects[0] || reflects[2]) &&
                                !isSolid(flagsFrom[near.at(reflects[0], 0, reflects[2])]);
              int sentThat = -1;  // the direction it went in already
              for (const int* toward : {streams, reflects}) {
                if (toward == reflects && !slip) break;
                int d[3];
                bool leaves = false;
                for (int a = 0; a < 3; ++a) {
                  d[a] = toward[a] && toward[a] == beside[a] ? toward[a] : 0;
                  leaves = leaves || d[a];
                }
                const int direction = (d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1);
                if (!leaves || direction == sentThat) continue;
                sentThat = direction;
                if (index[direction] < 0) {
                  std::array<int, 3> to;
                  for (int a = 0; a < 3; ++a)
                    to[a] = (at[a] + d[a] + split.parts(a)) % split.parts(a);
                  HaloChannel channel;
                  channel.from = from;
                  channel.to = split.rankAt(to);
                  channel.direction = direction;
                  index[direction] = int(mine.size());
                  mine.push_back(std::move(channel));
                }
                HaloChannel& channel = mine[index[direction]];
                if (only >= 0 && from != only && channel.to != only) continue;
                const Grid gt = split.local(channel.to);
                const auto m = std::size_t(split.local(channel.to, cell));
                const Slot sent = postCollisionSlot<Lat, P>(gf, flagsFrom.data(), n, i, odd);
                const Slot received =
                    postCollisionSlot<Lat, P>(gt, flagsOf(channel.to).data(), m, i, odd);
                channel.sent.push_back(S::element(sent.cell, sent.i, gf.cells()));
                channel.received.push_back(S::element(received.cell, received.i, gt.cells()));
              }
            }
          }
      // In the order of the directions, the same in every process.
      std::sort(mine.begin(), mine.end(), [](const HaloChannel& a, const HaloChannel& b) {
        return a.direction < b.direction;
      });
      for (HaloChannel& channel : mine)
        if (only < 0 || channel.from == only || channel.to == only)
          channels.push_back(std::move(channel));
    }
  });
  return channels;
}

// ---- the split lattice as one engine ----------------------------------------------------------

namespace {

class SplitEngine final : public LbmEngine {
 public:
  SplitEngine(LatticeKind lattice, const Variant& variant, LbmTimings timings, SplitPlan plan,
              MakeEngine make, Wire* wire)
      : lattice_(lattice),
        variant_(variant),
        timings_(timings),
        axis_(plan.axis),
        grid_(plan.grid),
        ranks_(plan.grid[0] > 0 ? plan.grid[0] * plan.grid[1] * plan.grid[2] : plan.ranks),
        overlap_(plan.overlap),
        peerWanted_(plan.peer && wire),
        wire_(wire) {
    if (wire && wire->ranks() != ranks_ && grid_[0] > 0)
      throw InputError("a " + std::to_string(grid_[0]) + "x" + std::to_string(grid_[1]) + "x" +
                       std::to_string(grid_[2]) + " grid of ranks needs " + std::to_string(ranks_) +
                       " processes, not " + std::to_string(wire->ranks()) + " (lbm.split_grid)");
    if (wire && wire->ranks() != ranks_)
      throw InputError("a lattice split over " + std::to_string(ranks_) + " ranks needs as many " +
                       "processes, not " + std::to_string(wire->ranks()));
    for (int r = 0; r < ranks_; ++r) {
      if (wire && r != wire->rank()) continue;
      auto part = std::make_unique<Part>();
      part->rank = r;
      part->engine = make(lattice, variant, {&part->step, &part->view});
      part->engine->deferRecords(true);
      parts_.push_back(std::move(part));
    }
  }

  void reshape(const Grid& grid) override {
    // Refuses before anything changes.
    const Split split = grid_[0] > 0 ? Split(grid, grid_) : Split(grid, axis_, ranks_);
    if (!wire_) {
      // Every slab at once, so that none is released where the rest would not fit.
      const double copies = variant_.propagation == Propagation::AB ? 2 : 1;
      double cells = 0;
      for (int r = 0; r < ranks_; ++r) cells += double(split.local(r).cells());
      requireHostMemory(cells * (copies * latticeQ(lattice_) * (variant_.half ? 2 : 4) + 1),
                        "the lattice's slabs");
    }
    for (auto& part : parts_) {
      part->engine->reshape(split.local(part->rank));
      part->pieces = split.pieces(part->rank);
    }
    split_ = std::make_unique<Split>(split);
    whole_ = grid;
    state_ = {.overlapped = overlap_};
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k <= split.parts(a); ++k) state_.first[a].push_back(split.first(a, k));
    flags_.assign(grid.cells(), kFluid);
    steps_ = 0;
    sendFlags();
    setParams(params_);
  }
  const Grid& grid() const override { return whole_; }

  void setFlags(const std::vector<std::uint8_t>& flags, std::size_t first,
                std::size_t count) override {
    std::copy_n(flags.begin() + first, count, flags_.begin() + first);
    sendFlags();
  }
  void restCells(const std::vector<std::size_t>& cells) override {
    for (auto& part : parts_) {
      std::vector<std::size_t> local;
      for (std::size_t cell : cells)
        if (const std::int64_t n = split_->local(part->rank, cell); n >= 0)
          local.push_back(std::size_t(n));
      part->engine->restCells(local);
    }
  }
  void setParams(const StepParams& params) override {
    params_ = params;
    if (!split_) return;
    for (auto& part : parts_) {
      StepParams local = params;
      local.rows = split_->lattice().ny;
      local.firstRow = split_->origin(part->rank, 1);
      part->engine->setParams(local);
    }
  }

  void initialize(const InitialFlow& flow) override {
    steps_ = 0;
    for (auto& part : parts_) {
      InitialFlow local = flow;
      local.x0 = split_->origin(part->rank, 0);
      local.y0 = split_->origin(part->rank, 1);
      part->engine->initialize(local);
    }
    exchange(false);  // the halo's cells as their owners set them
  }

  void importState(const std::vector<float>& state, std::uint64_t steps) override {
    steps_ = steps;
    const int q = latticeQ(lattice_);
    const std::size_t cells = grid().cells();
    for (int r = 0; r < ranks_; ++r) {
      Part* part = held(r);
      if (wire_ && wire_->rank() != 0 && !part) continue;
      const std::size_t localCells = split_->local(r).cells();
      std::vector<float> local(localCells * q);
      if (!wire_ || wire_->rank() == 0)
        for (const Split::Run& run : split_->runs(r))
          for (int i = 0; i < q; ++i)
            std::copy_n(state.begin() + long(i * cells + run.global), run.count,
                        local.begin() + long(i * localCells + run.local));
      if (wire_ && r != 0) {
        if (wire_->rank() == 0)
          wire_->post(r, kStateTag, bytesOf(local), local.size() * 4);
        else
          wire_->expect(0, kStateTag, bytesOf(local), local.size() * 4);
        wire_->finish();
      }
      if (part) part->engine->importState(local, steps);
    }
    exchange(steps & 1);
  }
  std::vector<float> exportState() override {
    const int q = latticeQ(lattice_);
    const std::size_t cells = grid().cells();
    std::vector<float> state;
    if (!wire_ || wire_->rank() == 0) state.assign(cells * q, 0.0f);
    const auto place = [&](int rank, const std::vector<float>& local) {
      const std::size_t localCells = split_->local(rank).cells();
      for (const Split::Run& run : split_->runs(rank))
        if (run.own)
          for (int i = 0; i < q; ++i)
            std::copy_n(local.begin() + long(i * localCells + run.local), run.count,
                        state.begin() + long(i * cells + run.global));
    };
    if (!wire_) {
      for (auto& part : parts_) place(part->rank, part->engine->exportState());
      return state;
    }
    const std::vector<float> mine = parts_[0]->engine->exportState();
    const auto gathered = gatherValues(*wire_, mine.data(), mine.size());
    for (int r = 0; r < int(gathered.size()); ++r) place(r, gathered[r]);
    return state;
  }

  // A step as Riesinger et al. (2017, Figure 14.4) take it: each rank's border first, then, with
  // the exchange overlapped, what it sent moves while the inside steps; without, after it.
  void step(int count) override {
    if (count <= 0) return;
    const CpuStopwatch watch;
    for (auto& part : parts_) part->last = {};
    for (int c = 0; c < count; ++c) {
      const bool odd = !(steps_ & 1);  // the parity the step leaves
      for (auto& part : parts_) part->engine->beginStep();
      stepPieces(&SplitState::Rank::borderMs,
                 [](const Part& part) { return std::span(part.pieces.border); });
      // Overlapped, the border's halo is read now; a CPU sends it before the inside steps, a GPU
      // once the inside is queued behind the copies. Else all of it after the step.
      const bool queued = parts_.front()->engine->queuesWork();
      if (overlap_) packHalo(odd);
      if (overlap_ && !queued) postHalo(odd);
      stepPieces(&SplitState::Rank::insideMs,
                 [](const Part& part) { return std::span(&part.pieces.inside, 1); });
      if (!overlap_) packHalo(odd);
      if (!overlap_ || queued) postHalo(odd);
      finishHalo(odd);
      for (auto& part : parts_) part->engine->endStep();
      pieceTimes();
      ++steps_;
      for (auto& part : parts_) part->engine->recordNow();
    }
    const double updates = double(grid().cells()) * count;
    const double ms = watch.elapsedMs();
    timings_.step->record(ms, updates, updates * bytesPerCellUpdate(lattice_, variant_));
    state_.stepMs = ms / count;
    gatherRankTimes(count);
  }
  const SplitState* split() const override { return split_ ? &state_ : nullptr; }

  void setBoundaryLinks(const BoundaryLinks& links) override {
    // An open outlet takes the cell before it as that cell's step left it, which only the slab
    // that owns the cell has.
    for (std::uint32_t cell : links.openOutlets)
      if (split_->owner(Neighbourhood(grid(), cell).at(-1, 0, 0)) != split_->owner(cell))
        throw InputError("an open outlet at x = " + std::to_string(cell % grid().nx) +
                         " has the cell before it in another rank's slab: split along y or z");
    for (auto& part : parts_) {
      const int r = part->rank;
      BoundaryLinks local;
      for (ForceLink link : links.curved)
        if (split_->owner(link.cell) == r) local.curved.push_back(localLink(r, link));
      // A pair of free-slip reflections swaps two cells' populations: each rank that owns
      // either cell swaps them in its own storage.
      for (const ForceLink& link : links.slip)
        if (split_->owner(link.cell) == r || split_->owner(slipPartner(link)) == r)
          local.slip.push_back(localLink(r, link));
      for (std::uint32_t cell : links.openOutlets)
        if (split_->owner(cell) == r) local.openOutlets.push_back(localCell(r, cell));
      part->engine->setBoundaryLinks(local);
    }
  }

  void setMonitor(const Monitor& monitor) override {
    monitor_ = monitor;
    for (auto& part : parts_) {
      const int r = part->rank;
      Monitor local;
      local.linkStart.push_back(0);
      for (int k = 0; k < monitor.obstacles(); ++k) {
        for (std::uint32_t l = monitor.linkStart[k]; l < monitor.linkStart[k + 1]; ++l)
          if (split_->owner(monitor.links[l].cell) == r)
            local.links.push_back(localLink(r, monitor.links[l]));
        local.linkStart.push_back(std::uint32_t(local.links.size()));
      }
      if (monitor.obstacles() == 0) local.linkStart.clear();
      part->probes.clear();
      for (std::size_t p = 0; p < monitor.probes.size(); ++p)
        if (split_->owner(monitor.probes[p]) == r) {
          part->probes.push_back(p);
          local.probes.push_back(localCell(r, monitor.probes[p]));
        }
      part->engine->setMonitor(local);
    }
  }
  std::vector<double> takeRecords() override {
    const std::size_t stride = monitor_.stride();
    if (stride == 0) return {};
    const int obstacles = monitor_.obstacles();
    std::vector<double> records;
    // Each rank's records: per step, its share of each obstacle's force, then its probes.
    const auto add = [&](const std::vector<std::size_t>& probes, const std::vector<double>& mine) {
      const std::size_t own = 3 * std::size_t(obstacles) + 4 * probes.size();
      const std::size_t steps = own ? mine.size() / own : 0;
      if (records.empty() && steps) records.assign(steps * stride, 0.0);
      for (std::size_t s = 0; s < steps; ++s) {
        const double* from = mine.data() + s * own;
        double* to = records.data() + s * stride;
        for (int k = 0; k < 3 * obstacles; ++k) to[k] += from[k];
        for (std::size_t p = 0; p < probes.size(); ++p)
          std::copy_n(from + 3 * obstacles + 4 * p, 4, to + 3 * obstacles + 4 * probes[p]);
      }
    };
    if (!wire_) {
      for (auto& part : parts_) add(part->probes, part->engine->takeRecords());
      return records;
    }
    // Each process sends its probes' indices and its records.
    const std::vector<double> mine = parts_[0]->engine->takeRecords();
    std::vector<double> message(parts_[0]->probes.begin(), parts_[0]->probes.end());
    message.insert(message.begin(), double(parts_[0]->probes.size()));
    message.insert(message.end(), mine.begin(), mine.end());
    for (const std::vector<double>& from : gatherValues(*wire_, message.data(), message.size())) {
      const auto probes = std::size_t(from.at(0));
      const std::vector<std::size_t> indices(from.begin() + 1, from.begin() + 1 + long(probes));
      add(indices, std::vector<double>(from.begin() + 1 + long(probes), from.end()));
    }
    return records;
  }

  std::uint32_t takeStatus() override {
    std::uint32_t status = 0;
    for (auto& part : parts_) status |= part->engine->takeStatus();
    if (wire_) {
      std::vector<double> bits = {double(status & kStatusNonFinite), double(status & kStatusFast)};
      wire_->max(bits);
      status = (bits[0] > 0 ? kStatusNonFinite : 0) | (bits[1] > 0 ? kStatusFast : 0);
    }
    return status;
  }

  Totals totals() override {
    std::vector<double> sums = {0, 0}, largest = {0};
    for (auto& part : parts_) {
      const Totals t = part->engine->totals();
      sums[0] += t.mass;
      sums[1] += double(t.fluidCells);
      largest[0] = std::max(largest[0], double(t.maxSpeed));
    }
    if (wire_) {
      wire_->sum(sums);
      wire_->max(largest);
    }
    return {sums[0], float(largest[0]), std::uint64_t(sums[1])};
  }

  void render(LbmView view, const Plane& plane, const FieldRequest& request,
              FieldImage& image) override {
    const CpuStopwatch watch;
    const PlaneWindow window = windowMoments(view, plane, request, image);  // on rank 0
    if (wire_ && wire_->rank() != 0) return;
    renderFromWindow(view, plane, grid(), request, window, image);
    const double pixels = double(image.width) * image.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }

  std::vector<PlaneSample> planeRows(const Plane& plane, int first, int count) override {
    const int w = plane.width(grid());
    std::vector<PlaneSample> rows;
    if (!wire_ || wire_->rank() == 0) rows.resize(std::size_t(w) * count);
    if (!wire_) {
      for (auto& part : parts_) {
        const Piece piece = planePiece(part->rank, plane, first, count);
        placePiece(piece, pieceRows(*part, piece), first, w, rows);
      }
      return rows;
    }
    const std::vector<PlaneSample> mine =
        pieceRows(*parts_[0], planePiece(parts_[0]->rank, plane, first, count));
    const auto gathered = gatherValues(*wire_, mine.data(), mine.size());
    for (int r = 0; r < int(gathered.size()); ++r)
      placePiece(planePiece(r, plane, first, count), gathered[r], first, w, rows);
    return rows;
  }
  const PlaneSample* planeMomentsInPlace(const Plane& plane) override {
    plane_ = planeMoments(plane);
    return plane_.data();
  }

  VolumeFields volumeInPlace(VolumeQuantity quantity) override {
    const Grid& g = grid();
    const std::size_t cells = g.cells();
    const bool root = !wire_ || wire_->rank() == 0;
    if (root && volume_.size() != cells) {
      requireHostMemory(double(cells) * (sizeof(PlaneSample) + 2 * sizeof(float)),
                        "the 3-D view's fields");
      volume_.resize(cells);
      quantity_.resize(cells);
      speed_.resize(cells);
    }
    // Each slab's moments, by planes across the split axis where the lattice is 3-D.
    const auto place = [&](int rank, const PlaneSample* local) {
      for (const Split::Run& run : split_->runs(rank))
        if (run.own) std::copy_n(local + run.local, run.count, volume_.begin() + long(run.global));
    };
    if (!wire_) {
      for (auto& part : parts_) place(part->rank, part->engine->volumeMoments().data());
    } else {
      const Part& part = *parts_[0];
      const std::vector<PlaneSample> local = part.engine->volumeMoments();
      const auto gathered = gatherValues(*wire_, local.data(), local.size());
      for (int r = 0; r < int(gathered.size()); ++r) place(r, gathered[r].data());
    }
    if (!root) return {};
    const float largest =
        volumeFromMoments(quantity, g, volume_.data(), quantity_.data(), speed_.data());
    return {quantity_.data(), speed_.data(), largest, volume_.data()};
  }

  void pollTimings() override {
    for (auto& part : parts_) part->engine->pollTimings();
  }
  void drainTimings() override {
    for (auto& part : parts_) part->engine->drainTimings();
  }
  void synchronize() override {
    for (auto& part : parts_) part->engine->synchronize();
  }
  std::string configuration() const override {
    const std::string engine = parts_.front()->engine->configuration();
    if (grid_[0] == 0)
      return engine + ", split over " + std::to_string(ranks_) + " ranks along " +
             kAxisNames[axis_];
    return engine + ", split over a " + std::to_string(grid_[0]) + "x" + std::to_string(grid_[1]) +
           "x" + std::to_string(grid_[2]) + " grid of ranks";
  }

 private:
  struct Part {
    int rank = 0;
    TimingScope step{"step", "", false}, view{"view", "", false};
    std::unique_ptr<LbmEngine> engine;
    std::vector<std::size_t> probes;  // the monitor's probes this rank holds
    SplitState::Rank last;            // of the step() call in progress or last made
    // By parity, channel: its engine's slot list this part sends from, receives into (or -1).
    std::vector<int> sendList[2], receiveList[2];
    Split::Pieces pieces;                            // its own cells as a step takes them
    std::vector<double SplitState::Rank::*> phases;  // of each piece of the step in progress
  };
  // The part of a plane's rows [first, first + count) a rank owns: plane coordinates [aLo, aHi)
  // x [bLo, bHi), which its storage's plane `local` holds shifted by aShift, bShift.
  struct Piece {
    int rank = 0;
    Plane local;
    int aLo = 0, aHi = 0, bLo = 0, bHi = 0, aShift = 0, bShift = 0;
  };
  static constexpr int kStateTag = (1 << 20) - 1;  // above every halo channel's (27 a rank)
  static constexpr int kHandleTag = 1 << 19;       // + 54 a rank: its channels' shared buffers

  Part* held(int rank) {
    for (auto& part : parts_)
      if (part->rank == rank) return part.get();
    return nullptr;
  }
  std::uint32_t localCell(int rank, std::size_t cell) const {
    return std::uint32_t(split_->local(rank, cell));
  }
  ForceLink localLink(int rank, ForceLink link) const {
    link.cell = localCell(rank, link.cell);
    return link;
  }
  // The cell a free-slip link's reflection comes back to (BoundaryLinks::slip).
  std::size_t slipPartner(const ForceLink& link) const {
    const int i = int(link.direction);
    const int d[3] = {latticeCx(i), 0, latticeCz(i)};
    const Grid& g = grid();
    int c[3];
    coordinatesOf(g, link.cell, c);
    const int extents[3] = {g.nx, g.ny, g.nz};
    for (int a = 0; a < 3; ++a) c[a] = (c[a] + d[a] + extents[a]) % extents[a];
    return cellAt(g, c);
  }
  int latticeCx(int i) const { return lattice_ == LatticeKind::D2Q9 ? D2Q9::cx(i) : D3Q19::cx(i); }
  int latticeCz(int i) const { return lattice_ == LatticeKind::D2Q9 ? D2Q9::cz(i) : D3Q19::cz(i); }

  Piece planePiece(int rank, const Plane& plane, int first, int count) const {
    Piece piece;
    piece.rank = rank;
    piece.local = plane;
    // The rank's own cells along an axis, [own0, own1), and its storage's first layer.
    const std::array<int, 3> at = split_->place(rank);
    const auto own0 = [&](int a) { return split_->first(a, at[a]); };
    const auto own1 = [&](int a) { return split_->first(a, at[a] + 1); };
    const int across = plane.axis == 0 ? 1 : 0, up = plane.axis == 2 ? 1 : 2;
    piece.local.index = plane.index - split_->origin(rank, plane.axis);
    piece.aLo = own0(across);
    piece.aHi = own1(across);
    piece.aShift = split_->origin(rank, across);
    piece.bLo = std::max(first, own0(up));
    piece.bHi = std::max(piece.bLo, std::min(first + count, own1(up)));
    piece.bShift = split_->origin(rank, up);
    if (plane.index < own0(plane.axis) || plane.index >= own1(plane.axis))
      piece.bHi = piece.bLo;  // not this rank's
    return piece;
  }
  // A part's rows of a piece. A part is asked only for rows it holds: a plane outside its slab is
  // not a plane of its own lattice, and a GPU engine moments the whole plane it is given.
  static std::vector<PlaneSample> pieceRows(Part& part, const Piece& piece) {
    if (piece.bHi <= piece.bLo) return {};
    return part.engine->planeRows(piece.local, piece.bLo - piece.bShift, piece.bHi - piece.bLo);
  }

  // The moments of the cells a picture reads (PlaneWindow), on rank 0: each rank sends only the
  // window's cells it owns, in one message. A rank reads its rows in spans of consecutive rows (on
  // a GPU, gaps of up to a 64th of the plane bridged, so that a zoomed-out picture launches a few
  // dozen moment kernels, not one a row), and both sides go through the cells in the same order:
  // span by span, row by row, column by column.
  PlaneWindow windowMoments(LbmView view, const Plane& plane, const FieldRequest& request,
                            const FieldImage& image) {
    const int h = plane.height(grid());
    PlaneWindow window =
        PlaneWindow::under(view, plane.width(grid()), h, request, image.width, image.height);
    if (!wire_ || wire_->rank() == 0)
      window.samples.resize(window.rows.size() * window.columns.size());
    std::vector<std::pair<int, int>> spans;  // (first, count)
    const int bridged = parts_[0]->engine->queuesWork() ? std::max(1, h / 64) : 0;
    for (int b : window.rows)
      if (!spans.empty() && b - (spans.back().first + spans.back().second) <= bridged)
        spans.back().second = b + 1 - spans.back().first;
      else
        spans.emplace_back(b, 1);
    // The window's cells in a part's piece: cell(place in the window, place in the piece's rows).
    const auto eachCell = [&](const Piece& piece, const auto& cell) {
      const int width = piece.local.width(split_->local(piece.rank));
      for (int b = piece.bLo; b < piece.bHi; ++b) {
        if (window.rowAt[b] < 0) continue;
        for (int a : window.columns)
          if (a >= piece.aLo && a < piece.aHi)
            cell(window.index(a, b), std::size_t(b - piece.bLo) * width + (a - piece.aShift));
      }
    };
    std::vector<PlaneSample> mine;  // over the wire: this rank's cells
    for (auto& part : parts_)
      for (const auto& [first, count] : spans) {
        const Piece piece = planePiece(part->rank, plane, first, count);
        const std::vector<PlaneSample> rows = pieceRows(*part, piece);
        eachCell(piece, [&](std::size_t at, std::size_t k) {
          if (wire_)
            mine.push_back(rows[k]);
          else
            window.samples[at] = rows[k];
        });
      }
    if (!wire_) return window;
    const auto gathered = gatherValues(*wire_, mine.data(), mine.size());
    for (int r = 0; r < int(gathered.size()); ++r) {
      std::size_t next = 0;
      for (const auto& [first, count] : spans)
        eachCell(planePiece(r, plane, first, count),
                 [&](std::size_t at, std::size_t) { window.samples[at] = gathered[r].at(next++); });
    }
    return window;
  }

  void placePiece(const Piece& piece, const std::vector<PlaneSample>& samples, int first, int w,
                  std::vector<PlaneSample>& rows) const {
    if (piece.bHi <= piece.bLo) return;
    const int width = piece.local.width(split_->local(piece.rank));
    for (int b = piece.bLo; b < piece.bHi; ++b)
      for (int a = piece.aLo; a < piece.aHi; ++a)
        rows[std::size_t(b - first) * w + a] =
            samples[std::size_t(b - piece.bLo) * width + (a - piece.aShift)];
  }

  // Each part's update of some of its own cells, timed into `phase`: `boxes` gives a part's.
  // (An engine that queues its work is timed on its device after the step: pieceTimes().)
  template <typename Boxes>
  void stepPieces(double SplitState::Rank::*phase, Boxes boxes) {
    for (auto& part : parts_) {
      const CpuStopwatch update;
      for (const CellBox& box : boxes(*part))
        if (!box.empty()) {
          part->engine->stepBox(box);
          part->phases.push_back(phase);
        }
      if (!part->engine->queuesWork()) part->last.*phase += update.elapsedMs();
    }
  }
  // Each queuing part's device time of the step's pieces, to the phases they were of.
  void pieceTimes() {
    for (auto& part : parts_) {
      const std::vector<float> times = part->engine->pieceTimesMs();
      for (std::size_t k = 0; k < times.size() && k < part->phases.size(); ++k)
        part->last.*part->phases[k] += times[k];
      part->phases.clear();
      part->last.packMs += part->engine->haloCopiesMs();
    }
  }

  // What streamed across in a step (or was set), so that between calls every slot that a rank's
  // own cells read holds what the whole lattice holds there: the next step, the moves around it
  // and a measurement read only the current state, whatever the flags have become. The sends are
  // packed and posted, then finished and unpacked; each part's times add to its `last`.
  void exchange(bool odd) {
    packHalo(odd);
    postHalo(odd);
    finishHalo(odd);
  }
  // Each held sender's values read into its buffers (a GPU queues the copies).
  void packHalo(bool odd) {
    const std::size_t slot = parts_.front()->engine->bytesPerSlot();
    for (std::size_t k = 0; k < channels_[odd].size(); ++k)
      if (Part* from = held(channels_[odd][k].from)) {
        const CpuStopwatch pack;
        from->engine->readSlots(from->sendList[odd][k]);
        hostCopyTime(*from, pack);
        from->last.haloBytes += double(channels_[odd][k].sent.size() * slot);
      }
  }
  // Once the buffers hold them, each channel's values go to the receiver's buffer: posted to
  // another process, or copied within this one.
  void postHalo(bool odd) {
    for (auto& part : parts_) {
      const CpuStopwatch copies;
      part->engine->slotsRead();
      hostCopyTime(*part, copies);
    }
    const std::size_t slot = parts_.front()->engine->bytesPerSlot();
    for (std::size_t k = 0; k < channels_[odd].size(); ++k) {
      const HaloChannel& c = channels_[odd][k];
      Part* from = held(c.from);
      Part* to = held(c.to);
      const std::size_t bytes = peer_ ? 0 : c.sent.size() * slot;  // device to device: a token
      std::byte* sent = from ? from->engine->slotBuffer(from->sendList[odd][k]) : nullptr;
      std::byte* received = to ? to->engine->slotBuffer(to->receiveList[odd][k]) : nullptr;
      const int tag = kDirections * c.from + c.direction;  // the same in every process
      if (from && to) {
        if (bytes) std::memcpy(received, sent, bytes);  // (an all-solid border sends nothing)
      } else if (from)
        wire_->post(c.to, tag, sent, bytes);
      else if (to)
        wire_->expect(c.from, tag, received, bytes);
    }
  }
  void finishHalo(bool odd) {
    if (wire_) {
      const CpuStopwatch wait;
      wire_->finish();
      parts_.front()->last.waitMs += wait.elapsedMs();
    }
    for (std::size_t k = 0; k < channels_[odd].size(); ++k)
      if (Part* to = held(channels_[odd][k].to)) {
        const CpuStopwatch unpack;
        to->engine->writeSlots(to->receiveList[odd][k]);
        hostCopyTime(*to, unpack);
      }
  }
  // The halo's packing and unpacking as the host waited for it; an engine that queues its work
  // times its copies on its device instead (pieceTimes()), where the host's wait for them may
  // hold the inside's update too.
  static void hostCopyTime(Part& part, const CpuStopwatch& watch) {
    if (!part.engine->queuesWork()) part.last.packMs += watch.elapsedMs();
  }

  // Every rank's times of the last step() call, a step's worth, on rank 0.
  void gatherRankTimes(int count) {
    state_.ranks.assign(std::size_t(ranks_), {});
    const auto perStep = [count](SplitState::Rank t) {
      for (double* v : {&t.borderMs, &t.insideMs, &t.packMs, &t.waitMs, &t.haloBytes}) *v /= count;
      return t;
    };
    if (!wire_) {
      for (auto& part : parts_) state_.ranks[part->rank] = perStep(part->last);
      return;
    }
    const SplitState::Rank mine = perStep(parts_.front()->last);
    const auto gathered = gatherValues(*wire_, &mine, 1);
    for (std::size_t r = 0; r < gathered.size(); ++r) state_.ranks[r] = gathered[r].at(0);
  }

  void sendFlags() {
    for (auto& part : parts_) {
      const std::vector<std::uint8_t> local = localFlags(*split_, flags_, part->rank);
      part->engine->setFlags(local, 0, local.size());
    }
    for (int odd = 0; odd < 2; ++odd)
      channels_[odd] =
          haloChannels(lattice_, variant_, *split_, flags_, odd, wire_ ? wire_->rank() : -1);
    // Each held part's lists of the slots it sends from and receives into.
    for (auto& part : parts_) {
      std::vector<std::vector<std::uint64_t>> lists;
      for (int odd = 0; odd < 2; ++odd) {
        part->sendList[odd].assign(channels_[odd].size(), -1);
        part->receiveList[odd].assign(channels_[odd].size(), -1);
        for (std::size_t k = 0; k < channels_[odd].size(); ++k) {
          const HaloChannel& c = channels_[odd][k];
          if (c.from == part->rank) {
            part->sendList[odd][k] = int(lists.size());
            lists.push_back(c.sent);
          }
          if (c.to == part->rank) {
            part->receiveList[odd][k] = int(lists.size());
            lists.push_back(c.received);
          }
        }
      }
      part->engine->setSlotLists(lists);
    }
    if (peerWanted_) connectPeers();
  }

  // Device to device where every rank's engine can: each receiver shares its lists' buffers with
  // their sender, which opens them. Every rank learns whether all could, and all go so or all
  // through the host. (Over a wire: one part, this rank's.)
  void connectPeers() {
    LbmEngine& engine = *parts_.front()->engine;
    const int rank = parts_.front()->rank;
    std::vector<std::vector<std::byte>> shared, opened;  // by channel received, sent
    std::vector<double> cannot{0};
    for (int odd = 0; odd < 2; ++odd)
      for (std::size_t k = 0; k < channels_[odd].size(); ++k)
        if (channels_[odd][k].to == rank) {
          shared.push_back(engine.shareSlots(parts_.front()->receiveList[odd][k]));
          if (shared.back().size() != LbmEngine::kPeerHandleBytes) cannot[0] = 1;
        } else {
          opened.emplace_back(LbmEngine::kPeerHandleBytes);
        }
    wire_->max(cannot);
    peer_ = cannot[0] == 0;
    if (peer_) {
      std::size_t received = 0, sent = 0;
      for (int odd = 0; odd < 2; ++odd)
        for (const HaloChannel& c : channels_[odd]) {
          const int tag =
              kHandleTag + 2 * (kDirections * c.from + c.direction) + odd;  // everywhere
          if (c.to == rank) {
            const std::vector<std::byte>& handles = shared[received++];
            wire_->post(c.from, tag, handles.data(), handles.size());
          } else {
            std::vector<std::byte>& handles = opened[sent++];
            wire_->expect(c.to, tag, handles.data(), handles.size());
          }
        }
      wire_->finish();
      std::size_t opening = 0;
      for (int odd = 0; odd < 2; ++odd)
        for (std::size_t k = 0; k < channels_[odd].size(); ++k)
          if (channels_[odd][k].from == rank &&
              !engine.openPeerSlots(parts_.front()->sendList[odd][k], opened.at(opening++)))
            cannot[0] = 1;
      wire_->max(cannot);
      peer_ = cannot[0] == 0;
    }
    engine.peerSlots(peer_);
    state_.peer = peer_;
  }

  static std::byte* bytesOf(std::vector<float>& v) {
    return reinterpret_cast<std::byte*>(v.data());
  }

  LatticeKind lattice_;
  Variant variant_;
  LbmTimings timings_;
  int axis_;
  std::array<int, 3> grid_;  // a grid of ranks, or all 0: slabs along axis_
  int ranks_;
  bool overlap_;
  bool peerWanted_, peer_ = false;  // halos from GPU to GPU: asked for, and what every rank could
  Wire* wire_;
  std::vector<std::unique_ptr<Part>> parts_;
  std::unique_ptr<Split> split_;  // from the first reshape on
  SplitState state_;
  Grid whole_;
  std::vector<std::uint8_t> flags_;  // the lattice's
  std::vector<HaloChannel> channels_[2];
  StepParams params_;
  Monitor monitor_;
  std::vector<PlaneSample> plane_, volume_;
  std::vector<float> quantity_, speed_;
  std::uint64_t steps_ = 0;
};

}  // namespace

std::unique_ptr<LbmEngine> makeSplitEngine(LatticeKind lattice, const Variant& variant,
                                           LbmTimings timings, SplitPlan plan, MakeEngine make,
                                           Wire* wire) {
  return std::make_unique<SplitEngine>(lattice, variant, timings, plan, make, wire);
}

}  // namespace ws::lbm
