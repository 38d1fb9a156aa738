#pragma once
// A lattice cut into slabs along one axis or into the boxes of a grid of ranks, one a rank, as
// Riesinger et al. (2017, part IV) run D3Q19 over many GPUs. Each rank keeps its own cells and, on
// either side along each axis cut, a layer of its neighbours' (the halo). In each step the
// neighbours send into the halo what their step streamed across: only the populations that point
// out of their box, from wherever the storage variant keeps them at that parity (postCollisionSlot,
// lbm_cell.h), as soon as their borders have stepped (SplitPlan::overlap) or after the whole step.
// Between steps, then, every slot that a rank's own cells read holds what the whole lattice holds
// there, so the next step, the moves at the boundaries and every measurement are the whole
// lattice's, bit for bit, whatever edits came between.
//
// SplitEngine is such a lattice as one LbmEngine: the module drives it as it drives one engine,
// and it drives one engine a rank, through a Wire to the ranks other processes hold (MPI,
// lbm_mpi.h), or holding every rank itself (a lattice split within one process, as the tests
// run it).
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/ranks.h"
#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

// Where each rank's cells lie: the lattice cut along one axis into slabs, or along two or three
// into a grid of boxes, `parts(a)` along axis a (ranks numbered x fastest, then y, then z).
class Split {
 public:
  // Along one axis over `ranks`. Refuses (InputError) an axis the lattice does not have and a
  // split that leaves a rank fewer than two cells along the axis (an open outlet reads the cell
  // before it from its own slab).
  Split(const Grid& lattice, int axis, int ranks);
  // A grid of ranks, parts[a] along axis a (1: not split along it). Refuses the same.
  Split(const Grid& lattice, const std::array<int, 3>& parts);

  const Grid& lattice() const { return lattice_; }
  int ranks() const { return ranks_; }
  int parts(int axis) const { return parts_[axis]; }
  // The one axis split (cut into 2 parts or more), or -1 where none or more than one is.
  int axis() const;
  // Layers of the neighbours' cells on each side along `axis`: 1 where it is split, else 0 (the
  // lattice wraps within the rank).
  int halo(int axis) const { return parts_[axis] > 1 ? 1 : 0; }
  // Rank r's place in the grid of ranks along each axis, and the rank at a place.
  std::array<int, 3> place(int rank) const;
  int rankAt(const std::array<int, 3>& place) const;
  // Along `axis`, part k's own cells: [first(axis, k), first(axis, k + 1)), as even as they come.
  int first(int axis, int part) const;
  // Rank r's storage: its box and the halo around it.
  Grid local(int rank) const;
  // The lattice's coordinate along `axis` of rank r's local layer 0.
  int origin(int rank, int axis) const { return first(axis, place(rank)[axis]) - halo(axis); }
  // The lattice's cell held at rank r's local cell n (halo cells wrapped round the lattice).
  std::size_t global(int rank, std::size_t n) const;
  // Rank r's local cell holding lattice cell `cell`, or -1 where it holds none.
  std::int64_t local(int rank, std::size_t cell) const;
  int owner(std::size_t cell) const;
  // Whether rank r's local cell n is its own (not the halo's).
  bool ownsLocal(int rank, std::size_t n) const;
  // Rank r's local cells, in order, as runs along x that are consecutive both in its storage and
  // in the lattice's, each all its own or all halo: what copies between the two go by.
  struct Run {
    std::size_t local, global;  // the first cell's, in rank r's storage and in the lattice's
    int count;
    bool own;
  };
  std::vector<Run> runs(int rank) const;
  // Rank r's own cells, in its local coordinates, in the order a step takes them (Riesinger 2017,
  // Figure 14.4): the border first, every cell within a layer of a cut face (the halo's sources;
  // at a face cut across x, two layers on the upper side, the cell before an open outlet in the
  // last), as up to six disjoint boxes; then the inside, while the halo moves.
  struct Pieces {
    std::vector<CellBox> border;
    CellBox inside;
  };
  Pieces pieces(int rank) const;

 private:
  int partOf(int axis, int coordinate) const;  // the part along `axis` owning a coordinate

  Grid lattice_;
  std::array<int, 3> parts_{1, 1, 1}, extents_{1, 1, 1};
  int ranks_ = 1;
};

// What crosses from one rank to a neighbour after a step: the values at these elements of the
// sender's storage go to these elements of the receiver's.
struct HaloChannel {
  int from = 0, to = 0;
  // Where the receiver lies from the sender in the grid of ranks, (dx + 1) + 3 (dy + 1) +
  // 9 (dz + 1) with each d -1, 0 or 1 (a slab's lower neighbour along its axis, its upper, or
  // across an edge of a box): two ranks can be neighbours on two sides.
  int direction = 0;
  std::vector<std::uint64_t> sent, received;
};
constexpr int kDirections = 27;

// The channels of a split for a flag field (the lattice's) once the steps done are odd or even:
// every rank's, or only those to or from rank `only`.
std::vector<HaloChannel> haloChannels(LatticeKind lattice, const Variant& variant,
                                      const Split& split, const std::vector<std::uint8_t>& flags,
                                      bool odd, int only = -1);

// How a lattice is split: along which axis, over how many ranks, whether the halo exchange runs
// while the inside of each rank's box steps (its border steps first) or after the step, on what
// each rank steps its slab (over MPI: the CPU, or its GPU with blocks of `cudaBlock`), and whether
// halos go from GPU to GPU where every rank's engine can share its buffers with the others (over
// MPI, ranks of one host: LbmEngine::shareSlots), rather than through the host and the wire.
struct SplitPlan {
  int axis = 2;
  int ranks = 1;
  bool overlap = true;
  int cudaBlock = 0;
  bool peer = false;
  // Or a grid of ranks, grid[a] along axis a (all 0: slabs along `axis`).
  std::array<int, 3> grid{0, 0, 0};
};

// A grid of ranks as written, "2x2" (x by y) or "2x1x2": every part a whole number from 1 to 4096,
// z 1 where it is left out. Throws InputError saying what is wrong.
std::array<int, 3> parseRankGrid(const std::string& text);

// Makes the engine of one rank's slab.
using MakeEngine =
    std::function<std::unique_ptr<LbmEngine>(LatticeKind, const Variant&, LbmTimings)>;

// The split lattice as one engine. With no wire it holds every rank; with one, the rank the wire
// says, and every process calls the same methods in the same order (lbm_mpi.h). What an engine
// returns (states, planes, records) is whole on rank 0.
std::unique_ptr<LbmEngine> makeSplitEngine(LatticeKind lattice, const Variant& variant,
                                           LbmTimings timings, SplitPlan plan,
                                           MakeEngine make = makeCpuEngine, Wire* wire = nullptr);

}  // namespace ws::lbm
