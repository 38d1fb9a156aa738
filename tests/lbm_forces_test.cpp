// What the LBM measures on the CPU and the geometry it measures: the force on each body by
// momentum exchange (against the momentum balance of a channel, between storage variants), the
// bodies it finds, probes, the series over time, the period of a signal and the Strouhal number,
// the series' CSV, and the cylinder scene's shape from parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <random>

#include "compute/core/errors.h"
#include "compute/core/output_file.h"
#include "compute/lbm/lbm_catalog.h"
#include "compute/lbm/lbm_module.h"
#include "compute/lbm/lbm_obstacles.h"
#include "compute/lbm/lbm_series.h"
#include "tests/lbm_random.h"
#include "tests/test_support.h"

namespace ws::lbm {
namespace {

using test::cpuModule;

// The last row's value of a named column.
double last(const FlowSeries& series, const std::string& column) {
  const auto& columns = series.columns();
  const auto at = std::find(columns.begin(), columns.end(), column);
  EXPECT_NE(at, columns.end()) << column;
  if (at == columns.end() || series.rows() == 0) return NAN;
  return series.value(series.rows() - 1, std::size_t(at - columns.begin()));
}

// ---- bodies -------------------------------------------------------------------------------------

TEST(LbmObstacles, BodiesAreFoundNamedAndLinkedToTheirFluidNeighbours) {
  const Grid g{40, 20, 1};
  std::vector<std::uint8_t> flags(g.cells(), kFluid);
  const auto set = [&](int x, int y, std::uint8_t type) {
    flags[std::size_t(y) * g.nx + x] = type;
  };
  for (int x = 0; x < g.nx; ++x) set(x, 0, kWall);  // the bottom wall, with a bump on it
  set(30, 1, kWall);
  set(10, 10, kWall);          // a single cell: its 8 neighbours link to it
  for (int y = 5; y < 8; ++y)  // a 2 x 3 block further on, and a moving-wall cell touching it
    for (int x = 20; x < 22; ++x) set(x, y, kWall);
  set(22, 8, kMovingWall);  // diagonal neighbours are connected (D2Q9 links them)
  markNearWalls(g, flags, 0, g.cells());
  const Obstacles found = findObstacles(LatticeKind::D2Q9, g, flags);
  ASSERT_EQ(found.names, (std::vector<std::string>{"walls", "obstacle 1", "obstacle 2"}));
  ASSERT_EQ(found.linkStart.size(), 4u);
  // Bodies are numbered in the order of their first cell: the block (from row 5), then the single
  // cell (row 10), whose 8 neighbours each link to it.
  EXPECT_EQ(found.linkStart[3] - found.linkStart[2], 8u);
  for (std::uint32_t l = found.linkStart[2]; l < found.linkStart[3]; ++l) {
    const ForceLink link = found.links[l];
    const Neighbourhood nb(g, link.cell);
    EXPECT_EQ(nb.at(D2Q9::cx(int(link.direction)), D2Q9::cy(int(link.direction)), 0),
              10u * g.nx + 10);
  }
  // Every link joins a non-solid cell to a solid one of its body.
  for (const ForceLink& link : found.links) {
    EXPECT_FALSE(isSolid(flags[link.cell]));
    EXPECT_TRUE(flags[link.cell] & kNearWall);
  }
  // A body reaching a side that is not a wall (periodic, as a cylinder through a 3-D lattice's
  // depth, or the fluid top of this one) is an obstacle, not part of the walls.
  const Grid deep{12, 10, 6};
  std::vector<std::uint8_t> column(deep.cells(), kFluid);
  for (std::size_t n = 0; n < deep.cells(); ++n) {
    const int x = int(n % 12), y = int(n / 12 % 10);
    if (y == 0 || y == 9 || ((x == 5 || x == 6) && (y == 4 || y == 5))) column[n] = kWall;
  }
  markNearWalls(deep, column, 0, deep.cells());
  const Obstacles cylinder = findObstacles(LatticeKind::D3Q19, deep, column);
  EXPECT_EQ(cylinder.names, (std::vector<std::string>{"walls", "obstacle 1"}));
  // Nine named bodies and more: the rest together.
  std::vector<std::uint8_t> many(g.cells(), kFluid);
  for (int k = 0; k < 12; ++k) many[std::size_t(3 + (k / 6) * 8) * g.nx + 3 + 6 * (k % 6)] = kWall;
  markNearWalls(g, many, 0, g.cells());
  const Obstacles twelve = findObstacles(LatticeKind::D2Q9, g, many);
  ASSERT_EQ(twelve.names.size(), std::size_t(Obstacles::kMaxNamed + 1));
  EXPECT_EQ(twelve.names.back(), "other obstacles");
  EXPECT_EQ(twelve.linkStart.back() - twelve.linkStart[Obstacles::kMaxNamed], 4u * 8);
}

// ---- forces -------------------------------------------------------------------------------------

// In a steady channel flow the walls hold back all that the body force pushes: the force on them
// is the body force on every fluid cell (the momentum balance), and top and bottom pull equally,
// so no net force across. Momentum exchange must give that to the accuracy of the steady state.
TEST(LbmForces, TheWallsOfASteadyChannelHoldBackItsBodyForce) {
  for (const char* variant : {"aa-soa-fp32", "ab-aos-fp32"}) {
    const int h = 24;
    const double u = 0.05, re = 10, nu = u * h / re;
    auto m = cpuModule({{"scene", std::string("channel")},
                        {"width", std::int64_t(8)},
                        {"height", std::int64_t(h + 2)},
                        {"velocity", u},
                        {"reynolds", re}},
                       variant);
    m->step(int(5 * h * h / nu));
    ASSERT_EQ(m->bodies(), std::vector<std::string>{"walls"});
    const double pushed = m->flow().params.force[0] * 8.0 * h;
    EXPECT_NEAR(last(m->series(), "walls Fx"), pushed, 2e-3 * pushed) << variant;
    EXPECT_NEAR(last(m->series(), "walls Fy"), 0, 1e-5) << variant;
    // The coefficient: against the centreline speed over the channel width (the defaults).
    const std::vector<Metric> metrics = m->metrics();
    const auto cd = std::find_if(metrics.begin(), metrics.end(),
                                 [](const Metric& x) { return x.name == "Cd"; });
    ASSERT_NE(cd, metrics.end());
    EXPECT_NEAR(cd->value, 2 * last(m->series(), "walls Fx") / (u * u * h), 1e-9);
  }
}

// Every storage variant records the same forces and probes as the A-B FP32 one, on random
// lattices with walls, moving walls, free-slip walls, inlets, both kinds of outlets and a body
// force.
TEST(LbmForces, EveryVariantRecordsTheSameForcesAndProbes) {
  const std::uint64_t seed = ws::test::freshSeed();
  for (LatticeKind lattice : {LatticeKind::D2Q9, LatticeKind::D3Q19}) {
    const Grid grid = lattice == LatticeKind::D2Q9 ? Grid{37, 23, 1} : Grid{13, 11, 9};
    const test::RandomLattice r = test::randomLattice(lattice, grid, seed);
    const Obstacles found = findObstacles(lattice, grid, r.flags);
    Monitor monitor{found.links, found.linkStart, {}};
    std::mt19937 rng{std::uint32_t(seed)};
    for (int k = 0; k < 5; ++k) monitor.probes.push_back(std::uint32_t(rng() % grid.cells()));
    ASSERT_GT(monitor.obstacles(), 2) << "a random lattice has many bodies";
    // Curved walls, free-slip reflections and open outlets too: their moves read and write other
    // slots in each propagation and parity.
    const BoundaryLinks boundaries = test::randomBoundaries(r, monitor, seed);
    ASSERT_GT(boundaries.curved.size(), 10u);
    ASSERT_GT(boundaries.slip.size(), 0u) << "free-slip reflections too";
    ASSERT_GT(boundaries.openOutlets.size(), 0u) << "and open outlets";
    TimingScope step("step", "u", false), view("view", "p", false);
    std::vector<double> reference;
    std::vector<float> referenceState;
    for (const auto& entry : storageCatalog()) {
      auto engine = makeCpuEngine(lattice, entry.how, {&step, &view});
      test::load(*engine, r, 0);
      engine->setBoundaryLinks(boundaries);
      engine->setMonitor(monitor);
      engine->step(3);
      engine->step(4);
      const std::vector<double> records = engine->takeRecords();
      ASSERT_EQ(records.size(), 7 * monitor.stride()) << entry.variant.name;
      EXPECT_TRUE(engine->takeRecords().empty()) << "taken once";
      const std::vector<float> state = engine->exportState();
      if (reference.empty()) {
        reference = records;
        referenceState = state;
        continue;
      }
      // FP32: the same arithmetic, up to rounding. FP16 storage: each population within 1e-4
      // (see LbmVariants).
      const double tolerance = entry.how.half ? 1e-4 : 1e-6;
      const std::string context = entry.variant.name + ", seed " + std::to_string(seed);
      test::expectRecordsNear(records, reference, monitor, tolerance, context);
      EXPECT_LT(test::maxDifference(state, referenceState), tolerance) << context;
    }
  }
}

// The comma-separated numbers of the cylinders, the probe line and the mesh placement are read
// alike, and a refusal says what was expected and what was wrong.
TEST(LbmForces, NumbersOfCellsAreReadAlikeAndRefusalsSayWhy) {
  EXPECT_EQ(readCellNumbers(" 1.5, 2 ,3", {"x", "y", "d"}), (std::vector<double>{1.5, 2, 3}));
  const auto says = [](const std::string& text, const std::string& message) {
    try {
      readCellNumbers(text, {"x", "y", "d"}, "cylinder 2: ");
      ADD_FAILURE() << text << " was read";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), message) << text;
    }
  };
  says("1,2", "cylinder 2: expected x,y,d: three numbers, two given");
  says("1 2 3", "cylinder 2: expected x,y,d, separated by commas");
  says("1,2,a", "cylinder 2: expected x,y,d, three numbers of cells from 0 to 32768");
  says("1,2,-3", "cylinder 2: expected x,y,d, three numbers of cells from 0 to 32768");
  says("1,2,1e9", "cylinder 2: expected x,y,d, three numbers of cells from 0 to 32768");
  says("1,2,3,4", "cylinder 2: expected x,y,d and nothing after them");
  says("", "cylinder 2: expected x,y,d, three numbers of cells from 0 to 32768");
  EXPECT_THROW(parseCylinders("1,2,3;4,5"), InputError);
  try {
    parseCylinders("1,2,3;4,5");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cylinder 2: "), std::string::npos) << e.what();
  }
}

// The cylinder sheds vortices: once it does, the lift and a probe in the wake swing with the same
// period, which the Strouhal number is worked out from.
TEST(LbmForces, TheLiftAndAWakeProbeGiveOneSheddingPeriod) {
  // A cylinder of 12 cells across at Re 100, a probe 6 diameters behind it on the axis.
  auto m = cpuModule({{"scene", std::string("cylinder")},
                      {"width", std::int64_t(480)},
                      {"height", std::int64_t(96)},
                      {"reynolds", 100.0},
                      {"tracers", std::int64_t(0)},
                      {"probes", std::string("130,48")}});
  m->step(12000);
  ASSERT_EQ(m->bodies(), std::vector<std::string>{"obstacle 1"}) << "the walls are left out";
  const FlowSeries& s = m->series();
  EXPECT_EQ(s.columns().size(), 3u + 4);
  const std::optional<Period> lift = findPeriod(s, 1);   // obstacle 1 Fy
  const std::optional<Period> probe = findPeriod(s, 5);  // probe 1 uy
  ASSERT_TRUE(lift && probe) << m->notes();
  EXPECT_GE(lift->periods, 3);
  EXPECT_NEAR(lift->steps, probe->steps, 0.02 * lift->steps);
  // St = f D / U: about 0.16 here, on the maximum inflow speed (0.24 on the mean).
  const double st = m->flow().length / (lift->steps * m->flow().velocity);
  EXPECT_GT(st, 0.1);
  EXPECT_LT(st, 0.3);
  EXPECT_NE(m->notes().find("St "), std::string::npos) << m->notes();
  // The drag is positive and its coefficient about that of a confined cylinder at this Re.
  const double cd =
      2 * last(s, "obstacle 1 Fx") / (m->flow().velocity * m->flow().velocity * m->flow().length);
  EXPECT_GT(cd, 1.0);
  EXPECT_LT(cd, 4.0);
  // The means over the channel's longest sound period (4 x 480 sqrt 3 steps: several shedding
  // periods): the lift's near zero beside its swing, the drag's within its swing.
  std::map<std::string, double> metric;
  for (const Metric& x : m->metrics()) metric[x.name] = x.value;
  ASSERT_TRUE(metric.count("Cd mean") && metric.count("Cl mean")) << "12000 steps reach back 3326";
  double clLow = INFINITY, clHigh = -INFINITY, cdLow = INFINITY, cdHigh = -INFINITY;
  const double scale = 2 / (m->flow().velocity * m->flow().velocity * m->flow().length);
  for (std::size_t row = 0; row < s.rows(); ++row) {
    if (s.step(row) + 3326 < s.step(s.rows() - 1)) continue;
    clLow = std::min(clLow, scale * s.value(row, 1)),
    clHigh = std::max(clHigh, scale * s.value(row, 1));
    cdLow = std::min(cdLow, scale * s.value(row, 0)),
    cdHigh = std::max(cdHigh, scale * s.value(row, 0));
  }
  EXPECT_LT(std::abs(metric["Cl mean"]), 0.1 * (clHigh - clLow));
  EXPECT_GT(metric["Cd mean"], cdLow);
  EXPECT_LT(metric["Cd mean"], cdHigh);
}

TEST(LbmForces, TheReferenceVelocityAndLengthSetReAndTheCoefficients) {
  auto m = cpuModule({{"scene", std::string("cylinder")},
                      {"width", std::int64_t(128)},
                      {"height", std::int64_t(64)},
                      {"velocity", 0.09},
                      {"reynolds", 100.0}});
  EXPECT_NE(m->notes().find("on the maximum inflow speed 0.0900"), std::string::npos) << m->notes();
  const double diameter = m->flow().length;
  EXPECT_NEAR(m->flow().viscosity, 0.09 * diameter / 100, 1e-12);
  m->setParam("reference_velocity", std::string("mean"));
  EXPECT_NE(m->notes().find("on the mean inflow speed 0.0600"), std::string::npos) << m->notes();
  EXPECT_NEAR(m->flow().viscosity, 0.06 * diameter / 100, 1e-12);
  m->setParam("reference_length", 10.0);
  EXPECT_NEAR(m->flow().viscosity, 0.06 * 10 / 100, 1e-12);
  EXPECT_NE(m->notes().find("L = 10.0 cells (chosen length)"), std::string::npos) << m->notes();
  m->step(20);
  const double fx = last(m->series(), "obstacle 1 Fx");
  const std::vector<Metric> metrics = m->metrics();
  const auto cd =
      std::find_if(metrics.begin(), metrics.end(), [](const Metric& x) { return x.name == "Cd"; });
  ASSERT_NE(cd, metrics.end());
  EXPECT_NEAR(cd->value, 2 * fx / (0.06 * 0.06 * 10), 1e-9 * std::abs(cd->value));
  // Measuring nothing: no forces, no coefficients; all: the walls too.
  m->setParam("forces", std::string("none"));
  m->step(2);
  EXPECT_TRUE(m->bodies().empty());
  for (const Metric& metric : m->metrics())
    EXPECT_TRUE(metric.name != "Cd" && metric.name != "drag") << metric.name;
  m->setParam("forces", std::string("all"));
  m->step(2);
  EXPECT_EQ(m->bodies(), (std::vector<std::string>{"walls", "obstacle 1"}));
  EXPECT_EQ(m->series().rows(), 2u) << "other columns: a new series";
}

// ---- probes -------------------------------------------------------------------------------------

TEST(LbmProbes, PointsAreSetByClickOrTextAndRecordTheFlowThere) {
  auto m = cpuModule({{"scene", std::string("channel")},
                      {"width", std::int64_t(16)},
                      {"height", std::int64_t(12)},
                      {"velocity", 0.05}});
  PointerEdit click{"probe point", 3.5, 2.5, 3.5, 2.5};  // the view's y down: row 12 - 1 - 2 = 9
  auto change = m->edit(click);
  ASSERT_TRUE(change);
  EXPECT_EQ(m->params().getText("probes"), "3,9");
  click.start = false;  // a drag after the press adds no more
  EXPECT_FALSE(m->edit(click));
  click = PointerEdit{"probe point", 8.5, 6.5, 8.5, 6.5};
  m->edit(click);
  EXPECT_EQ(m->params().getText("probes"), "3,9; 8,5");
  m->revert(*change, false);  // undo the first: back to none
  EXPECT_EQ(m->params().getText("probes"), "");
  m->setParam("probes", std::string("8,5; 8,0; 999,6"));  // a wall cell; one held to the lattice
  const std::vector<Mark> marks = m->marks();
  ASSERT_EQ(marks.size(), 3u);
  EXPECT_FLOAT_EQ(marks[2].x0, 15.5f);
  EXPECT_EQ(m->viewLabels().size(), 3u);
  m->step(30);
  const FlowSeries& s = m->series();
  ASSERT_EQ(s.rows(), 30u);
  EXPECT_EQ(s.step(0), 1u);
  const std::vector<PlaneSample> plane = m->engine().planeMoments(m->plane());
  EXPECT_FLOAT_EQ(float(last(s, "probe 1 ux")), plane[5 * 16 + 8].u[0]);
  EXPECT_FLOAT_EQ(float(last(s, "probe 1 rho")), plane[5 * 16 + 8].rho);
  EXPECT_TRUE(std::isnan(last(s, "probe 2 rho"))) << "in the wall";
  EXPECT_FLOAT_EQ(float(last(s, "probe 3 ux")), plane[6 * 16 + 15].u[0]);
  for (const char* bad : {"1", "1,2,3,4", "a,b", "1,-2", "1,2;;3,4", "1,2 3", "40000,1"})
    EXPECT_THROW(m->setParam("probes", std::string(bad)), InputError) << bad;
  EXPECT_EQ(m->params().getText("probes"), "8,5; 8,0; 999,6");
}

TEST(LbmProbes, TheSeriesCsvHoldsEveryBodyAndProbe) {
  auto m = cpuModule({{"scene", std::string("cylinder")},
                      {"width", std::int64_t(64)},
                      {"height", std::int64_t(32)},
                      {"forces", std::string("all")},
                      {"probes", std::string("40,16")}});
  m->step(12);
  const auto dir = std::filesystem::temp_directory_path() / "warpscope-lbm-series";
  std::filesystem::create_directories(dir);
  m->exportSeries((dir / "series.csv").string());
  std::ifstream csv(dir / "series.csv");
  std::string line, header;
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("# warpscope LBM series, 64x32: Re 150", 0), 0u) << line;
  std::getline(csv, line);
  EXPECT_EQ(line[0], '#');
  std::getline(csv, header);
  EXPECT_EQ(header,
            "step,walls Fx,walls Fy,walls Fz,walls Cd,walls Cl,obstacle 1 Fx,obstacle 1 Fy,"
            "obstacle 1 Fz,obstacle 1 Cd,obstacle 1 Cl,probe 1 rho,probe 1 ux,probe 1 uy,"
            "probe 1 uz,probe 1 p");
  int rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 15) << line;
    EXPECT_EQ(line.substr(0, line.find(',')), std::to_string(rows));
  }
  EXPECT_EQ(rows, 12);
  // After a reset nothing is recorded until a step: the header alone (the bodies of the run
  // before once made it write columns without end).
  m->reset();
  m->exportSeries((dir / "empty.csv").string());
  EXPECT_LT(std::filesystem::file_size(dir / "empty.csv"), 1000u);
  std::ifstream empty(dir / "empty.csv");
  for (int k = 0; k < 3; ++k) std::getline(empty, line);
  EXPECT_EQ(line, "step");
  std::filesystem::remove_all(dir);
}

// A VTI series: a file at every vti_every-th step, whatever the steps per call, and an index
// ParaView reads as a time series; a reset starts a new folder.
TEST(LbmProbes, AVtiSeriesHasAFileEveryNStepsAndAnIndex) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "warpscope-lbm-vti-series";
  fs::remove_all(dir);
  fs::create_directories(dir);
  setOutputFolder(dir.string());
  auto m = cpuModule({{"scene", std::string("channel")},
                      {"width", std::int64_t(16)},
                      {"height", std::int64_t(10)},
                      {"vti_every", std::int64_t(5)}});
  m->step(7);
  m->step(8);
  const fs::path folder = dir / "warpscope-lbm-channel-vti";
  for (const char* file : {"step-000000005.vti", "step-000000010.vti", "step-000000015.vti"})
    EXPECT_TRUE(fs::exists(folder / file)) << file;
  EXPECT_FALSE(fs::exists(folder / "step-000000007.vti"));
  std::ifstream pvd(folder / "series.pvd");
  const std::string index((std::istreambuf_iterator<char>(pvd)), {});
  EXPECT_NE(index.find("<VTKFile type=\"Collection\""), std::string::npos) << index;
  std::size_t entries = 0;
  for (auto at = index.find("<DataSet"); at != std::string::npos;
       at = index.find("<DataSet", at + 1))
    ++entries;
  EXPECT_EQ(entries, 3u) << index;
  EXPECT_NE(index.find("timestep=\"15\" part=\"0\" file=\"step-000000015.vti\""), std::string::npos)
      << index;
  EXPECT_NE(m->notes().find("VTI series: 3 files in"), std::string::npos) << m->notes();
  // The file of step 10 holds the flow after 10 steps: a run without the series agrees.
  auto plain = cpuModule({{"scene", std::string("channel")},
                          {"width", std::int64_t(16)},
                          {"height", std::int64_t(10)}});
  plain->step(10);
  plain->exportVti((dir / "plain.vti").string());
  std::ifstream a(folder / "step-000000010.vti", std::ios::binary),
      b(dir / "plain.vti", std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(a)), {}),
            std::string((std::istreambuf_iterator<char>(b)), {}));
  m->reset();
  m->step(5);
  EXPECT_TRUE(fs::exists(dir / "warpscope-lbm-channel-vti-2" / "step-000000005.vti"));
  setOutputFolder("");
  fs::remove_all(dir);
}

// ---- shape --------------------------------------------------------------------------------------

TEST(LbmShape, CylindersSidesAndInflowComeFromParameters) {
  auto m = cpuModule({{"scene", std::string("cylinder")},
                      {"width", std::int64_t(96)},
                      {"height", std::int64_t(42)},
                      {"forces", std::string("all")},
                      {"cylinders", std::string("20.5,21,10; 60,15.5, 6")}});
  const auto type = [&](int x, int y) { return m->flags()[std::size_t(y) * 96 + x] & kTypeMask; };
  // Cells whose centres lie within each circle are walls.
  EXPECT_EQ(type(20, 20), kWall);
  EXPECT_EQ(type(16, 20), kWall);   // centre 16.5: 4 cells from 20.5, within the radius 5
  EXPECT_EQ(type(15, 20), kFluid);  // 5.5 from it
  EXPECT_EQ(type(62, 15), kWall);   // centre 2.5 from (60, 15.5), within the radius 3
  EXPECT_EQ(type(63, 15), kFluid);  // 3.5 from it
  EXPECT_EQ(type(0, 20), kInlet);
  EXPECT_EQ(type(10, 0), kWall);
  EXPECT_NEAR(m->flow().length, 10, 1e-12) << "the first cylinder's diameter";
  m->step(3);
  EXPECT_EQ(m->bodies(), (std::vector<std::string>{"walls", "obstacle 1", "obstacle 2"}));

  // Periodic top and bottom: no walls there, a uniform inflow whatever `inflow` says.
  m->setParams({{"sides", std::string("periodic")}, {"cylinders", std::string("48,21,8")}});
  EXPECT_EQ(type(10, 0), kFluid);
  EXPECT_EQ(type(0, 0), kInlet);
  EXPECT_FALSE(m->applies("inflow"));
  EXPECT_NE(m->notes().find("on the inflow speed"), std::string::npos) << m->notes();
  m->step(20);
  const std::vector<PlaneSample> plane = m->engine().planeMoments(m->plane());
  EXPECT_NEAR(plane[0 * 96 + 0].u[0], 0.1, 1e-6) << "the inlet's bottom row moves as its middle";
  EXPECT_NEAR(plane[21 * 96 + 0].u[0], 0.1, 1e-6);
  EXPECT_EQ(m->bodies(), std::vector<std::string>{"obstacle 1"});

  // Uniform inflow between walls.
  m->setParams({{"sides", std::string("walls")}, {"inflow", std::string("uniform")}});
  m->step(2);
  const std::vector<PlaneSample> walled = m->engine().planeMoments(m->plane());
  EXPECT_NEAR(walled[1 * 96 + 0].u[0], 0.1, 1e-6);

  // Bad text is refused whole, and nothing changes.
  for (const char* bad : {"1,2", "1,2,0.5", "a,b,c", "1,2,3;4", "1,2,3,4", "-1,2,3", "1,2,1e9"})
    EXPECT_THROW(m->setParam("cylinders", std::string(bad)), InputError) << bad;
  EXPECT_EQ(m->params().getText("cylinders"), "48,21,8");
  m->setParam("cylinders", std::string("500,21,8"));  // outside the lattice: said, not refused
  EXPECT_NE(m->notes().find("warning: cylinder 1's centre (500.0, 21.0) is outside"),
            std::string::npos)
      << m->notes();
}

// ---- the series ---------------------------------------------------------------------------------

TEST(LbmSeries, LongRunsKeepTheirWholeHistoryAtACoarserSpacing) {
  FlowSeries s;
  s.restart({"a"});
  const std::size_t steps = 3 * FlowSeries::kRows + 5;
  std::vector<double> records(steps);
  for (std::size_t k = 0; k < steps; ++k) records[k] = double(k + 1);
  s.append(1, records);
  EXPECT_EQ(s.spacing(), 4u);
  EXPECT_LE(s.rows(), FlowSeries::kRows);
  for (std::size_t r = 0; r < s.rows(); ++r) {
    EXPECT_EQ(s.step(r) % 4, 0u);
    EXPECT_EQ(s.value(r, 0), double(s.step(r)));
  }
  EXPECT_GE(s.step(s.rows() - 1), steps - 4);
  // A state restored from before the last rows goes on from there.
  s.append(100, {-1, -2, -3, -4, -5});
  EXPECT_EQ(s.step(s.rows() - 1), 104u);
  EXPECT_EQ(s.value(s.rows() - 1, 0), -5);
  EXPECT_EQ(s.step(s.rows() - 2), 100u);
}

TEST(LbmSeries, APeriodIsFoundInASettledSwingAndNotInNoiseOrATrend) {
  const auto series = [](auto&& signal, int steps) {
    FlowSeries s;
    s.restart({"v"});
    std::vector<double> records;
    for (int t = 1; t <= steps; ++t) records.push_back(signal(t));
    s.append(1, records);
    return s;
  };
  const double period = 123.4;
  // A swing that grows and settles (shedding starting), with a second harmonic and an offset.
  const FlowSeries swing = series(
      [&](int t) {
        const double phase = 2 * std::numbers::pi * t / period;
        return 3 + (1 - std::exp(-t / 800.0)) * (std::sin(phase) + 0.3 * std::sin(2 * phase));
      },
      6000);
  const std::optional<Period> found = findPeriod(swing, 0);
  ASSERT_TRUE(found);
  EXPECT_NEAR(found->steps, period, 0.1);
  EXPECT_GE(found->periods, 20);
  EXPECT_FALSE(findPeriod(series([](int t) { return 1.0 + 1e-3 * t; }, 6000), 0)) << "a trend";
  EXPECT_FALSE(findPeriod(series([](int) { return 2.0; }, 6000), 0)) << "flat";
  std::mt19937 rng(7);
  std::normal_distribution<double> noise;
  EXPECT_FALSE(findPeriod(series([&](int) { return noise(rng); }, 6000), 0)) << "noise";
  EXPECT_FALSE(findPeriod(series([&](int t) { return std::sin(t / 300.0); }, 1000), 0))
      << "under three periods";

  // The mean over a span that the period divides: the offset alone.
  const FlowSeries settled = series(
      [&](int t) { return 3 + 0.5 * std::sin(2 * std::numbers::pi * t / 250) + 0.1 * (t < 10); },
      6000);
  ASSERT_TRUE(meanOverLast(settled, 0, 1000));
  EXPECT_NEAR(*meanOverLast(settled, 0, 1000), 3, 1e-9);
  EXPECT_NEAR(*meanOverLast(settled, 0, 500), 3, 1e-9);
  EXPECT_FALSE(meanOverLast(settled, 0, 6000)) << "the series reaches back 5999 steps";
  EXPECT_FALSE(meanOverLast(FlowSeries{}, 0, 1)) << "empty";
}

}  // namespace
}  // namespace ws::lbm
