// A lattice split into slabs over ranks (lbm_split.h), here every rank in one process: where each
// rank's cells lie, and that the split lattice steps, starts, measures and shows exactly what the
// whole one does, in every storage variant, along every axis, on fresh random lattices with every
// kind of boundary across the slabs' borders.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "compute/core/errors.h"
#include "compute/lbm/lbm_catalog.h"
#include "compute/lbm/lbm_cuda.h"
#include "compute/lbm/lbm_obstacles.h"
#include "compute/lbm/lbm_split.h"
#include "tests/lbm_random.h"
#include "tests/test_support.h"

namespace ws::lbm {
namespace {

std::string describe(const Grid& g, int axis, int ranks, const std::string& variant) {
  return std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz) +
         " split over " + std::to_string(ranks) + " ranks along " + "xyz"[axis] + ", " + variant;
}

// Every cell of the lattice is one rank's own; each rank's storage holds every neighbour of its
// own cells, the lattice's neighbours; the runs that copies go by cover each rank's cells once, in
// order, as cell by cell.
void expectOwnersAndNeighbours(const Split& split, const std::string& context) {
  const Grid& g = split.lattice();
  std::vector<int> owners(g.cells(), 0);
  for (int r = 0; r < split.ranks(); ++r) {
    const Grid local = split.local(r);
    for (std::size_t n = 0; n < local.cells(); ++n) {
      const std::size_t cell = split.global(r, n);
      ASSERT_LT(cell, g.cells());
      EXPECT_EQ(split.local(r, cell), std::int64_t(n))
          << context << ", rank " << r << ", cell " << n;
      if (split.ownsLocal(r, n)) {
        ++owners[cell];
        EXPECT_EQ(split.owner(cell), r) << context;
        const Neighbourhood near(local, n), far(g, cell);
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              EXPECT_EQ(split.global(r, near.at(dx, dy, dz)), far.at(dx, dy, dz)) << context;
      }
    }
  }
  for (std::size_t cell = 0; cell < g.cells(); ++cell)
    ASSERT_EQ(owners[cell], 1) << context << ", cell " << cell;
  for (int r = 0; r < split.ranks(); ++r) {
    std::size_t next = 0;
    for (const Split::Run& run : split.runs(r))
      for (int k = 0; k < run.count; ++k, ++next) {
        ASSERT_EQ(run.local + k, next) << context << ", rank " << r;
        EXPECT_EQ(run.global + k, split.global(r, next)) << context;
        EXPECT_EQ(run.own, split.ownsLocal(r, next)) << context;
      }
    EXPECT_EQ(next, split.local(r).cells()) << context;
  }
}

TEST(LbmSplit, EachCellHasOneOwnerAndItsNeighboursAreInItsSlab) {
  const Grid g{11, 7, 6};
  for (int axis = 0; axis < 3; ++axis)
    for (int ranks = 1; ranks <= 3; ++ranks)
      expectOwnersAndNeighbours(Split(g, axis, ranks),
                                std::to_string(ranks) + " ranks along " + "xyz"[axis]);
  // Slabs as even as they come: 11 cells over 3 ranks along x are 3, 4 and 4.
  const Split three(g, 0, 3);
  EXPECT_EQ(three.first(0, 1) - three.first(0, 0), 3);
  EXPECT_EQ(three.first(0, 3) - three.first(0, 2), 4);
  EXPECT_EQ(three.local(2).nx, 6);  // 4 and a halo layer each side
  EXPECT_EQ(three.origin(0, 0), -1);
  EXPECT_EQ(three.origin(0, 1), 0);  // not split along y: no halo
  EXPECT_EQ(three.axis(), 0);
}

TEST(LbmSplit, EachCellOfAGridOfRanksHasOneOwnerAndItsNeighboursAreInItsBox) {
  const Grid g{11, 7, 6};
  for (const std::array<int, 3> parts :
       {std::array{2, 2, 1}, std::array{1, 2, 3}, std::array{2, 3, 2}, std::array{3, 1, 2},
        std::array{1, 1, 1}}) {
    const Split split(g, parts);
    EXPECT_EQ(split.ranks(), parts[0] * parts[1] * parts[2]);
    expectOwnersAndNeighbours(split, std::to_string(parts[0]) + "x" + std::to_string(parts[1]) +
                                         "x" + std::to_string(parts[2]));
    for (int r = 0; r < split.ranks(); ++r) EXPECT_EQ(split.rankAt(split.place(r)), r);
  }
  // Ranks x fastest: in a 2x3x2 grid rank 7 is x 1, y 0, z 1; its box 5 x 2 x 3 and a halo.
  const Split boxes(g, {2, 3, 2});
  EXPECT_EQ(boxes.place(7), (std::array<int, 3>{1, 0, 1}));
  EXPECT_EQ(boxes.local(7).nx, 6 + 2);
  EXPECT_EQ(boxes.local(7).ny, 2 + 2);
  EXPECT_EQ(boxes.local(7).nz, 3 + 2);
  EXPECT_EQ(boxes.origin(7, 2), 2);
  EXPECT_EQ(boxes.axis(), -1);
  EXPECT_EQ(Split(g, {1, 3, 1}).axis(), 1);
}

// A rank's own cells as a step takes them: the border's boxes and the inside hold each once; every
// cell beside another rank's (its halo) is in the border, and so is the cell before such a cell
// along x (an open outlet there takes up its step); the inside is what is left.
TEST(LbmSplit, ABoxStepsItsBorderAsAFewBoxesThenItsInside) {
  const Grid g{11, 9, 8};
  std::vector<Split> splits;
  for (int axis = 0; axis < 3; ++axis) splits.emplace_back(g, axis, 3);
  for (const std::array<int, 3> parts :
       {std::array{2, 2, 1}, std::array{1, 2, 3}, std::array{2, 3, 2}, std::array{3, 1, 2},
        std::array{5, 1, 1}, std::array{1, 1, 1}})
    splits.emplace_back(g, parts);
  for (const Split& split : splits)
    for (int r = 0; r < split.ranks(); ++r) {
      const std::string context = std::to_string(split.parts(0)) + "x" +
                                  std::to_string(split.parts(1)) + "x" +
                                  std::to_string(split.parts(2)) + ", rank " + std::to_string(r);
      const Grid local = split.local(r);
      const Split::Pieces pieces = split.pieces(r);
      int cut = 0;
      for (int a = 0; a < 3; ++a) cut += split.halo(a);
      EXPECT_LE(pieces.border.size(), std::size_t(2 * cut)) << context;
      std::vector<int> taken(local.cells(), 0);  // 1: the border's, 2: the inside's
      const auto mark = [&](const CellBox& box, int what) {
        for (int z = box.lo[2]; z < box.hi[2]; ++z)
          for (int y = box.lo[1]; y < box.hi[1]; ++y)
            for (int x = box.lo[0]; x < box.hi[0]; ++x) {
              const std::size_t n = (std::size_t(z) * local.ny + y) * local.nx + x;
              ASSERT_TRUE(split.ownsLocal(r, n)) << context;
              ASSERT_EQ(taken[n], 0) << context << ", cell " << n << " in two pieces";
              taken[n] = what;
            }
      };
      for (const CellBox& box : pieces.border) mark(box, 1);
      mark(pieces.inside, 2);
      for (std::size_t n = 0; n < local.cells(); ++n) {
        if (!split.ownsLocal(r, n)) {
          EXPECT_EQ(taken[n], 0) << context;
          continue;
        }
        ASSERT_NE(taken[n], 0) << context << ", cell " << n << " in no piece";
        const Neighbourhood near(local, n);
        bool besideHalo = false, beforeHaloAlongX = false;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              besideHalo = besideHalo || !split.ownsLocal(r, near.at(dx, dy, dz));
        if (split.halo(0) && int(n % local.nx) + 2 < local.nx)
          beforeHaloAlongX = !split.ownsLocal(r, n + 2);
        EXPECT_EQ(taken[n] == 1, besideHalo || beforeHaloAlongX) << context << ", cell " << n;
      }
    }
}

TEST(LbmSplit, ASplitThatLeavesARankTooFewCellsIsRefused) {
  const auto refusal = [](const Grid& g, int axis, int ranks) {
    try {
      Split(g, axis, ranks);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("taken");
  };
  EXPECT_EQ(refusal({8, 6, 1}, 1, 4),
            "the lattice's 6 cells along y cannot be split over 4 ranks: each rank needs at "
            "least 2 cells along the axis it is split on (run fewer processes, or split along "
            "another axis: lbm.split_axis)");
  EXPECT_EQ(refusal({8, 6, 1}, 1, 3), "taken");
  EXPECT_EQ(refusal({8, 6, 1}, 2, 2), "a 2-D lattice cannot be split along z");
  EXPECT_EQ(refusal({8, 6, 1}, 0, 0).substr(0, 45),
            "the lattice's 8 cells along x cannot be split");
  const auto gridRefusal = [](const Grid& g, std::array<int, 3> parts) {
    try {
      Split(g, parts);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("taken");
  };
  EXPECT_EQ(gridRefusal({8, 6, 1}, {2, 4, 1}),
            "the lattice's 6 cells along y cannot be split over 4 ranks: each rank needs at "
            "least 2 cells along the axis it is split on (run fewer processes, or split it less "
            "along y: lbm.split_grid)");
  EXPECT_EQ(gridRefusal({8, 6, 1}, {4, 3, 1}), "taken");
  EXPECT_EQ(gridRefusal({8, 6, 1}, {2, 1, 2}), "a 2-D lattice cannot be split along z");
}

// The random lattice of the engines' tests; split along x, open outlets stay where the cell
// before them is in their own slab (a split elsewhere is refused, below).
test::RandomLattice splittable(LatticeKind lattice, const Split& split, std::uint64_t seed) {
  const Grid& grid = split.lattice();
  test::RandomLattice r = test::randomLattice(lattice, grid, seed);
  r.params.parabolicInlet = seed % 2 == 0;
  for (std::size_t n = 0; n < grid.cells(); ++n)
    if ((r.flags[n] & kTypeMask) == kOpenOutlet &&
        split.owner(n) != split.owner(Neighbourhood(grid, n).at(-1, 0, 0)))
      r.flags[n] = (r.flags[n] & ~kTypeMask) | kOutlet;
  return r;
}

// What a run of each engine leaves and measures.
struct Outcome {
  std::vector<float> state;
  std::vector<double> records;
  Totals totals;
  std::vector<std::vector<PlaneSample>> planes;
};

Outcome run(LbmEngine& engine, const test::RandomLattice& r, const BoundaryLinks& boundaries,
            const Monitor& monitor, int steps) {
  test::load(engine, r, 3);  // an odd start: A-A begins in the other parity
  engine.setBoundaryLinks(boundaries);
  engine.setMonitor(monitor);
  engine.step(steps / 2);
  engine.step(steps - steps / 2);
  Outcome out{engine.exportState(), engine.takeRecords(), engine.totals(), {}};
  const Grid& g = engine.grid();
  for (int axis = 0; axis < (g.nz > 1 ? 3 : 1); ++axis) {
    const int extent = axis == 0 ? g.nx : axis == 1 ? g.ny : g.nz;
    const Plane plane{g.nz > 1 ? axis : 2, g.nz > 1 ? extent / 2 : 0};
    out.planes.push_back(engine.planeMoments(plane));
  }
  return out;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

bool samePlane(const std::vector<PlaneSample>& a, const std::vector<PlaneSample>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::memcmp(&a[k], &b[k], sizeof(PlaneSample)) != 0) return false;
  return true;
}

// A split lattice's outcome against the whole one's: the state bit for bit, the planes exactly, the
// totals and forces to rounding (summed in another order), the probes exactly.
void expectSameOutcome(const Outcome& got, const Outcome& expected, const Monitor& monitor,
                       int steps, const std::string& context) {
  ASSERT_TRUE(sameBits(got.state, expected.state)) << context;
  for (std::size_t p = 0; p < expected.planes.size(); ++p)
    EXPECT_TRUE(samePlane(got.planes[p], expected.planes[p]))
        << context << ", plane across axis " << p;
  EXPECT_EQ(got.totals.fluidCells, expected.totals.fluidCells) << context;
  EXPECT_EQ(got.totals.maxSpeed, expected.totals.maxSpeed) << context;
  EXPECT_NEAR(got.totals.mass, expected.totals.mass, 1e-9 * double(expected.totals.fluidCells))
      << context;
  test::expectRecordsNear(got.records, expected.records, monitor, 1e-6, context);
  for (std::size_t s = 0; s < std::size_t(steps); ++s)  // probes: the owner's exactly
    for (std::size_t k = 3 * monitor.obstacles(); k < monitor.stride(); ++k) {
      const double a = got.records[s * monitor.stride() + k];
      const double b = expected.records[s * monitor.stride() + k];
      EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << context;
    }
}

// The split lattice's state equals the whole one's bit for bit after even and odd numbers of
// steps, with walls, moving walls, inlets (parabolic on even seeds, whose rows the slabs shift),
// both outlets, free-slip walls and curved links across the slabs' borders; its planes are the
// same, its totals and forces agree to rounding (summed in another order), its probes exactly.
TEST(LbmSplit, EveryVariantStepsBitForBitAsTheWholeLattice) {
  const std::uint64_t seed = ws::test::freshSeed();
  TimingScope step("step", "u", false), view("view", "p", false);
  for (const Grid grid : {Grid{23, 17, 1}, Grid{12, 11, 9}}) {
    const LatticeKind lattice = grid.nz == 1 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
    for (int axis = 0; axis < (grid.nz > 1 ? 3 : 2); ++axis)
      for (int ranks = 2; ranks <= 4; ++ranks) {
        const test::RandomLattice r = splittable(lattice, Split(grid, axis, ranks), seed + ranks);
        Monitor monitor = test::randomMonitor(r, seed);
        const BoundaryLinks boundaries = test::randomBoundaries(r, monitor, seed);
        for (const auto& entry : storageCatalog()) {
          const std::string context =
              describe(grid, axis, ranks, entry.variant.name) + ", seed " + std::to_string(seed);
          for (int steps : {6, 7}) {
            // The halo sent while the inside steps after an even number, after the step else.
            const bool overlap = steps % 2 == 0;
            auto whole = makeCpuEngine(lattice, entry.how, {&step, &view});
            auto split =
                makeSplitEngine(lattice, entry.how, {&step, &view}, {axis, ranks, overlap});
            expectSameOutcome(run(*split, r, boundaries, monitor, steps),
                              run(*whole, r, boundaries, monitor, steps), monitor, steps,
                              context + ", " + std::to_string(steps) + " steps");
          }
        }
      }
  }
}

// A grid of ranks, two or three axes split, steps as the whole lattice does, bit for bit, with
// every kind of boundary across the boxes' faces and edges, where populations go to the ranks
// beside its edges too, its halo sent while the inside steps and after the step; its planes,
// totals and records are the whole lattice's. On the CPU and,
// each box on the GPU, against the whole lattice on the GPU.
void expectGridsStepAsTheWholeLattice(MakeEngine make, bool gpu) {
  const std::uint64_t seed = ws::test::freshSeed();
  TimingScope step("step", "u", gpu), view("view", "p", gpu);
  const std::vector<std::pair<Grid, std::array<int, 3>>> cases = {
      {{23, 17, 1}, {2, 2, 1}}, {{23, 17, 1}, {3, 2, 1}}, {{12, 11, 9}, {2, 2, 1}},
      {{12, 11, 9}, {1, 2, 2}}, {{12, 11, 9}, {2, 1, 3}}, {{12, 11, 9}, {2, 2, 2}}};
  for (const auto& [grid, parts] : cases) {
    const LatticeKind lattice = grid.nz == 1 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
    const test::RandomLattice r = splittable(lattice, Split(grid, parts), seed + parts[0]);
    Monitor monitor = test::randomMonitor(r, seed);
    const BoundaryLinks boundaries = test::randomBoundaries(r, monitor, seed);
    for (const auto& entry : storageCatalog())
      for (const bool overlap : {true, false}) {  // the halo sent while the inside steps or after
        const std::string context =
            std::to_string(grid.nx) + "x" + std::to_string(grid.ny) + "x" +
            std::to_string(grid.nz) + " in a " + std::to_string(parts[0]) + "x" +
            std::to_string(parts[1]) + "x" + std::to_string(parts[2]) + " grid of ranks, " +
            entry.variant.name + (overlap ? ", overlapped" : "") + ", seed " + std::to_string(seed);
        SplitPlan plan;
        plan.grid = parts;
        plan.overlap = overlap;
        auto whole = make(lattice, entry.how, {&step, &view});
        auto split = makeSplitEngine(lattice, entry.how, {&step, &view}, plan, make);
        expectSameOutcome(run(*split, r, boundaries, monitor, 7),
                          run(*whole, r, boundaries, monitor, 7), monitor, 7, context);
        const SplitState* state = split->split();
        ASSERT_NE(state, nullptr);
        EXPECT_EQ(state->overlapped, overlap) << context;
        EXPECT_EQ(state->ranks.size(), std::size_t(parts[0] * parts[1] * parts[2])) << context;
      }
  }
}

TEST(LbmSplit, AGridOfRanksStepsBitForBitAsTheWholeLattice) {
  expectGridsStepAsTheWholeLattice(makeCpuEngine, false);
}

// In a grid of ranks the populations that cross a box's edge go straight to the rank beside the
// edge: D2Q9 in a 2x2 grid has channels in the four diagonal directions, D3Q19 in a 2x2x2 grid
// along its 12 edges and none to corners (it has no population that points there).
TEST(LbmSplit, AGridOfRanksSendsAcrossEdgesButNotCorners) {
  const auto directions = [](LatticeKind lattice, const Grid& grid, std::array<int, 3> parts) {
    const test::RandomLattice r = test::randomLattice(lattice, grid, 5);
    std::vector<std::uint8_t> fluid(grid.cells(), kFluid);
    std::vector<int> count(kDirections, 0);
    for (const HaloChannel& c : haloChannels(lattice, {}, Split(grid, parts), fluid, false))
      if (c.from == 0) ++count[c.direction];
    return count;
  };
  const std::vector<int> plane = directions(LatticeKind::D2Q9, {8, 6, 1}, {2, 2, 1});
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      EXPECT_EQ(plane[(dx + 1) + 3 * (dy + 1) + 9], dx || dy ? 1 : 0) << dx << ", " << dy;
  const std::vector<int> box = directions(LatticeKind::D3Q19, {6, 6, 6}, {2, 2, 2});
  for (int d = 0; d < kDirections; ++d) {
    const int moved = (d % 3 != 1) + (d / 3 % 3 != 1) + (d / 9 != 1);  // axes it moves along
    EXPECT_EQ(box[d], moved == 1 || moved == 2 ? 1 : 0) << "direction " << d;
  }
}

// A step taken in pieces (beginStep, the boxes of the lattice cut at random places along each
// axis, in a random order, endStep), as a split lattice takes it to send its borders early, leaves
// the state and records that step(1) does, bit for bit, with every kind of boundary in the pieces;
// on the CPU and on the GPU (where odd widths and cuts along x take the one-cell kernel in FP16
// SoA).
void expectStepsInPiecesAsInOne(MakeEngine make, std::vector<Grid> grids) {
  const std::uint64_t seed = ws::test::freshSeed();
  std::mt19937_64 random(seed);
  TimingScope step("step", "u", false), view("view", "p", false);
  for (const Grid grid : grids) {
    const LatticeKind lattice = grid.nz == 1 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
    const test::RandomLattice r = test::randomLattice(lattice, grid, seed);
    Monitor monitor = test::randomMonitor(r, seed);
    const BoundaryLinks boundaries = test::randomBoundaries(r, monitor, seed);
    for (const auto& entry : storageCatalog()) {
      auto once = make(lattice, entry.how, {&step, &view});
      auto pieces = make(lattice, entry.how, {&step, &view});
      for (LbmEngine* engine : {once.get(), pieces.get()}) {
        test::load(*engine, r, 3);
        engine->setBoundaryLinks(boundaries);
        engine->setMonitor(monitor);
      }
      const std::string context = std::string(entry.variant.name) + " on " +
                                  std::to_string(grid.nx) + "x" + std::to_string(grid.ny) + "x" +
                                  std::to_string(grid.nz) + " in pieces, seed " +
                                  std::to_string(seed);
      for (int k = 0; k < 5; ++k) {
        once->step(1);
        // Cut points along each axis (none to two), the boxes between them in a random order.
        std::vector<CellBox> boxes = {CellBox(grid)};
        for (int axis = 0; axis < 3; ++axis) {
          std::vector<int> cuts = {0, grid.extent(axis)};
          for (int c = int(random() % 3); c > 0; --c)
            cuts.push_back(int(random() % grid.extent(axis)));
          std::sort(cuts.begin(), cuts.end());
          std::vector<CellBox> cutBoxes;
          for (const CellBox& box : boxes)
            for (std::size_t c = 0; c + 1 < cuts.size(); ++c)
              if (cuts[c + 1] > cuts[c]) {
                CellBox piece = box;
                piece.lo[axis] = cuts[c];
                piece.hi[axis] = cuts[c + 1];
                cutBoxes.push_back(piece);
              }
          boxes = cutBoxes;
        }
        std::shuffle(boxes.begin(), boxes.end(), random);
        pieces->beginStep();
        for (const CellBox& box : boxes) pieces->stepBox(box);
        pieces->endStep();
        ASSERT_TRUE(sameBits(pieces->exportState(), once->exportState()))
            << context << ", step " << k + 1;
      }
      const std::vector<double> got = pieces->takeRecords(), expected = once->takeRecords();
      EXPECT_TRUE(got.size() == expected.size() &&
                  std::memcmp(got.data(), expected.data(), got.size() * sizeof(double)) == 0)
          << context;
      EXPECT_EQ(pieces->takeStatus(), once->takeStatus()) << context;
    }
  }
}

TEST(LbmSplit, EveryVariantStepsInPiecesAsInOne) {
  expectStepsInPiecesAsInOne(makeCpuEngine, {Grid{19, 13, 1}, Grid{10, 9, 8}});
}

std::unique_ptr<LbmEngine> makeGpuEngine(LatticeKind lattice, const Variant& v, LbmTimings t) {
  return makeCudaEngine(lattice, v, 128, t);
}

TEST(LbmSplit, OnTheGpuEveryVariantStepsInPiecesAsInOne) {
  WS_REQUIRE_GPU();
  expectStepsInPiecesAsInOne(makeGpuEngine,
                             {Grid{19, 13, 1}, Grid{20, 13, 1}, Grid{10, 9, 8}, Grid{11, 9, 8}});
}

TEST(LbmSplit, OnTheGpuAGridOfRanksStepsBitForBitAsTheWholeLattice) {
  WS_REQUIRE_GPU();
  expectGridsStepAsTheWholeLattice(makeGpuEngine, true);
}

// Ranks sharing one GPU, as the first of the checks on a GPU machine: the split lattice,
// its halo gathered on the device and staged through pinned host memory, overlapped with the
// inside's update and not, steps as the whole lattice on the GPU does, bit for bit.
TEST(LbmSplit, OnTheGpuEveryVariantStepsBitForBitAsTheWholeLattice) {
  WS_REQUIRE_GPU();
  const std::uint64_t seed = ws::test::freshSeed();
  TimingScope step("step", "u", true), view("view", "p", true);
  for (const Grid grid : {Grid{24, 17, 1}, Grid{23, 17, 1}, Grid{12, 11, 9}}) {
    const LatticeKind lattice = grid.nz == 1 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
    for (int axis = 0; axis < (grid.nz > 1 ? 3 : 2); ++axis)
      for (int ranks : {2, 3}) {
        const test::RandomLattice r = splittable(lattice, Split(grid, axis, ranks), seed + ranks);
        Monitor monitor = test::randomMonitor(r, seed);
        const BoundaryLinks boundaries = test::randomBoundaries(r, monitor, seed);
        for (const auto& entry : storageCatalog())
          for (const bool overlap : {true, false}) {
            const std::string context = describe(grid, axis, ranks, entry.variant.name) +
                                        (overlap ? ", overlapped" : "") + ", seed " +
                                        std::to_string(seed);
            auto whole = makeGpuEngine(lattice, entry.how, {&step, &view});
            auto split = makeSplitEngine(lattice, entry.how, {&step, &view}, {axis, ranks, overlap},
                                         makeGpuEngine);
            const Outcome expected = run(*whole, r, boundaries, monitor, 7);
            const Outcome got = run(*split, r, boundaries, monitor, 7);
            ASSERT_TRUE(sameBits(got.state, expected.state)) << context;
            for (std::size_t p = 0; p < expected.planes.size(); ++p)
              EXPECT_TRUE(samePlane(got.planes[p], expected.planes[p])) << context;
            EXPECT_EQ(got.totals.fluidCells, expected.totals.fluidCells) << context;
            test::expectRecordsNear(got.records, expected.records, monitor, 1e-6, context);
            const SplitState* state = split->split();
            ASSERT_NE(state, nullptr);
            for (const SplitState::Rank& t : state->ranks)  // the device's times of the pieces
              EXPECT_GT(t.insideMs + t.borderMs, 0) << context;
          }
      }
  }
}

// A scene's starting flow is the whole lattice's in every slab (the inflow's parabola and the
// Taylor-Green vortices depend on where a cell is), and so is the 3-D view's volume.
TEST(LbmSplit, TheStartingFlowAndTheVolumeAreTheWholeLattices) {
  TimingScope step("step", "u", false), view("view", "p", false);
  const Variant variant{Propagation::AA, Layout::SoA, false};
  for (const Grid grid : {Grid{24, 18, 1}, Grid{12, 10, 8}}) {
    const LatticeKind lattice = grid.nz == 1 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
    const test::RandomLattice r = test::randomLattice(lattice, grid, 7);
    for (int axis = 0; axis < (grid.nz > 1 ? 3 : 2); ++axis)
      for (const InitialFlow flow : {InitialFlow{InitialFlow::kInflow, 0.05, double(grid.ny - 2)},
                                     InitialFlow{InitialFlow::kTaylorGreen, 0.02, 0, 0.5, 0.7}}) {
        auto whole = makeCpuEngine(lattice, variant, {&step, &view});
        auto split = makeSplitEngine(lattice, variant, {&step, &view}, {axis, 3});
        for (LbmEngine* engine : {whole.get(), split.get()}) {
          engine->reshape(grid);
          engine->setFlags(r.flags, 0, r.flags.size());
          engine->setParams(r.params);
          engine->initialize(flow);
        }
        const std::string context = describe(grid, axis, 3, variant.name());
        EXPECT_TRUE(sameBits(split->exportState(), whole->exportState())) << context;
        if (grid.nz == 1) continue;
        for (LbmEngine* engine : {whole.get(), split.get()}) engine->step(3);
        const VolumeFields a = whole->volumeInPlace(VolumeQuantity::QCriterion);
        const std::vector<float> expected(a.quantity, a.quantity + grid.cells());
        const VolumeFields b = split->volumeInPlace(VolumeQuantity::QCriterion);
        EXPECT_TRUE(sameBits(std::vector<float>(b.quantity, b.quantity + grid.cells()), expected))
            << context;
        EXPECT_EQ(a.largest, b.largest) << context;
      }
  }
}

// The split lattice's picture, drawn from only the cells it reads (PlaneWindow), is the whole
// lattice's pixel for pixel: every view, every plane, split along every axis, zoomed out (a cell
// in every few), zoomed in, and half outside the plane; and zoomed out it reads a fraction of it.
TEST(LbmSplit, ThePictureFromTheCellsItReadsIsTheWholeLattices) {
  TimingScope step("step", "u", false), view("view", "p", false);
  const Variant variant{Propagation::AB, Layout::SoA, false};
  const std::uint64_t seed = ws::test::freshSeed();
  for (const Grid grid : {Grid{90, 64, 1}, Grid{30, 22, 18}}) {
    const LatticeKind lattice = grid.nz == 1 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
    for (int axis = 0; axis < (grid.nz > 1 ? 3 : 2); ++axis) {
      const test::RandomLattice r = splittable(lattice, Split(grid, axis, 3), seed);
      auto whole = makeCpuEngine(lattice, variant, {&step, &view});
      auto split = makeSplitEngine(lattice, variant, {&step, &view}, {axis, 3});
      for (LbmEngine* engine : {whole.get(), split.get()}) {
        test::load(*engine, r, 0);
        engine->step(6);
      }
      for (int normal = grid.nz > 1 ? 0 : 2; normal < 3; ++normal) {
        const Plane plane{normal, (normal == 0 ? grid.nx : normal == 1 ? grid.ny : grid.nz) / 3};
        const int w = plane.width(grid), h = plane.height(grid);
        FieldRequest out, in, half;
        out.worldPerPixel = 2.7;  // zoomed out: 2.7 cells a pixel
        in.worldPerPixel = 0.37, in.originX = w * 0.4, in.originY = h * 0.3;
        half.worldPerPixel = 0.9, half.originX = -w * 0.15, half.originY = h * 0.6;
        for (const FieldRequest& base : {out, in, half})
          for (LbmView shown : {LbmView::Speed, LbmView::Vorticity, LbmView::Density}) {
            FieldRequest request = base;
            request.width = 37, request.height = 29;
            std::vector<float> a(37 * 29), b(37 * 29);
            FieldImage ia{a.data(), 37, 29, false}, ib{b.data(), 37, 29, false};
            whole->render(shown, plane, request, ia);
            split->render(shown, plane, request, ib);
            const std::string context = describe(grid, axis, 3, variant.name()) + ", plane " +
                                        "xyz"[normal] + ", view " + std::to_string(int(shown)) +
                                        ", " + std::to_string(base.worldPerPixel) + " a pixel";
            ASSERT_GT(std::count_if(a.begin(), a.end(), [](float v) { return v == v; }), 20)
                << context;
            for (std::size_t k = 0; k < a.size(); ++k)
              ASSERT_TRUE(std::memcmp(&a[k], &b[k], sizeof(float)) == 0 ||
                          (std::isnan(a[k]) && std::isnan(b[k])))
                  << context << ", pixel " << k << ": " << a[k] << " against " << b[k];
          }
        const PlaneWindow window = PlaneWindow::under(LbmView::Speed, w, h, out, 37, 29);
        EXPECT_LT(window.rows.size() * window.columns.size(), std::size_t(w) * h / 4);
      }
    }
  }
  // The window holds every cell the vorticity reads: the pixels' cells and their neighbours.
  FieldRequest r;
  r.worldPerPixel = 3;
  const PlaneWindow speed = PlaneWindow::under(LbmView::Speed, 30, 12, r, 10, 4);
  EXPECT_EQ(speed.columns, (std::vector<int>{1, 4, 7, 10, 13, 16, 19, 22, 25, 28}));
  EXPECT_EQ(speed.rows, (std::vector<int>{1, 4, 7, 10}));  // b = 11 - int(1.5 + 3 py)
  const PlaneWindow curl = PlaneWindow::under(LbmView::Vorticity, 30, 12, r, 10, 4);
  EXPECT_EQ(curl.rows, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(curl.columns.size(), 30u);
  EXPECT_EQ(curl.columnAt[29], 29);
}

// A closed box split four ways keeps its mass while the lid drives it (to rounding), and a wall
// drawn across a border and the cells that become fluid again mid-run step as in the whole
// lattice.
TEST(LbmSplit, MassIsKeptAndEditsMidRunMatchTheWholeLattice) {
  TimingScope step("step", "u", false), view("view", "p", false);
  const Grid grid{16, 12, 10};
  std::vector<std::uint8_t> flags(grid.cells(), kFluid);
  for (std::size_t n = 0; n < grid.cells(); ++n) {
    const int x = int(n % grid.nx), y = int(n / grid.nx % grid.ny), z = int(n / grid.nx / grid.ny);
    if (x == 0 || x == grid.nx - 1 || y == 0 || z == 0 || z == grid.nz - 1) flags[n] = kWall;
    if (y == grid.ny - 1) flags[n] = kMovingWall;
  }
  markNearWalls(grid, flags, 0, grid.cells());
  StepParams params;
  params.omegaPlus = params.omegaMinus = 1.5f;
  params.wallVelocity[0] = 0.05f;
  for (const auto& entry : storageCatalog()) {
    auto whole = makeCpuEngine(LatticeKind::D3Q19, entry.how, {&step, &view});
    auto split = makeSplitEngine(LatticeKind::D3Q19, entry.how, {&step, &view}, {2, 4});
    for (LbmEngine* engine : {whole.get(), split.get()}) {
      engine->reshape(grid);
      engine->setFlags(flags, 0, flags.size());
      engine->setParams(params);
      engine->initialize({});
    }
    const double mass = split->totals().mass;
    for (LbmEngine* engine : {whole.get(), split.get()}) engine->step(20);
    EXPECT_NEAR(split->totals().mass, mass, entry.how.half ? 1e-2 : 1e-4) << entry.variant.name;
    // A wall drawn across the border between ranks 1 and 2 (z = 5), then taken away.
    std::vector<std::uint8_t> edited = flags;
    std::vector<std::size_t> drawn;
    for (int z = 4; z <= 6; ++z)
      for (int y = 4; y <= 6; ++y) {
        const std::size_t n = (std::size_t(z) * grid.ny + y) * grid.nx + 8;
        edited[n] = kWall;
        drawn.push_back(n);
      }
    markNearWalls(grid, edited, 0, grid.cells());
    // Step by step: the split lattice's state is the whole one's after each.
    const auto stepBoth = [&](int steps, const char* when) {
      for (int k = 0; k < steps; ++k) {
        for (LbmEngine* engine : {whole.get(), split.get()}) engine->step(1);
        ASSERT_TRUE(sameBits(split->exportState(), whole->exportState()))
            << entry.variant.name << ", step " << k + 1 << " " << when;
      }
    };
    for (LbmEngine* engine : {whole.get(), split.get()}) engine->setFlags(edited, 0, edited.size());
    stepBoth(7, "with the wall drawn");
    for (LbmEngine* engine : {whole.get(), split.get()}) {
      engine->setFlags(flags, 0, flags.size());
      engine->restCells(drawn);
    }
    stepBoth(9, "with the wall erased");
    // And so are the totals (summed in another order).
    EXPECT_NEAR(split->totals().mass, whole->totals().mass, 1e-9 * grid.cells());
  }
}

// What the views and notes show: where each slab lies, and each rank's halo per step, the bytes
// of the populations its channels carry (haloChannels) at the parities the steps left.
TEST(LbmSplit, TheSplitSaysWhereEachSlabLiesAndWhatItsHaloCarries) {
  TimingScope step("step", "u", false), view("view", "p", false);
  const Grid grid{20, 14, 1};
  const test::RandomLattice r = test::randomLattice(LatticeKind::D2Q9, grid, 11);
  const Variant variant{Propagation::AA, Layout::SoA, true};
  auto whole = makeCpuEngine(LatticeKind::D2Q9, variant, {&step, &view});
  EXPECT_EQ(whole->split(), nullptr);
  auto split = makeSplitEngine(LatticeKind::D2Q9, variant, {&step, &view}, {1, 3});
  test::load(*split, r, 0);
  split->step(2);  // ends after an odd step, then an even one
  const SplitState* state = split->split();
  ASSERT_NE(state, nullptr);
  EXPECT_TRUE(state->overlapped);
  EXPECT_EQ(state->first[0], (std::vector<int>{0, 20}));
  EXPECT_EQ(state->first[1], (std::vector<int>{0, 4, 9, 14}));
  EXPECT_EQ(state->first[2], (std::vector<int>{0, 1}));
  ASSERT_EQ(state->ranks.size(), 3u);
  const Split slabs(grid, 1, 3);
  for (int rank = 0; rank < 3; ++rank) {
    double bytes = 0;
    for (const bool odd : {true, false})
      for (const HaloChannel& c : haloChannels(LatticeKind::D2Q9, variant, slabs, r.flags, odd))
        if (c.from == rank) bytes += double(c.sent.size()) * 2 / 2;  // FP16, over two steps
    EXPECT_EQ(state->ranks[rank].haloBytes, bytes) << "rank " << rank;
    EXPECT_GT(bytes, 0);
    EXPECT_GT(state->ranks[rank].borderMs, 0);
    EXPECT_GT(state->ranks[rank].insideMs, 0);
    EXPECT_GT(state->ranks[rank].packMs, 0);
  }
  EXPECT_GT(state->stepMs, 0);
}

TEST(LbmSplit, AnOpenOutletWhoseUpstreamCellIsAnotherRanksIsRefused) {
  TimingScope step("step", "u", false), view("view", "p", false);
  const Grid grid{12, 6, 1};
  std::vector<std::uint8_t> flags(grid.cells(), kFluid);
  flags[1 * grid.nx + 6] = kOpenOutlet;  // x = 6: the first column of rank 1 of 2 along x
  markNearWalls(grid, flags, 0, grid.cells());
  auto split = makeSplitEngine(LatticeKind::D2Q9, {}, {&step, &view}, {0, 2});
  split->reshape(grid);
  split->setFlags(flags, 0, flags.size());
  try {
    split->setBoundaryLinks({{}, {}, openOutlets(grid, flags)});
    FAIL() << "taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "an open outlet at x = 6 has the cell before it in another rank's slab: split "
                 "along y or z");
  }
}

}  // namespace
}  // namespace ws::lbm
