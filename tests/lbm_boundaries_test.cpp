// The LBM's free-slip walls and open (extrapolated) outlets: flows they must leave exactly as
// they are, what plain bounce-back would do instead, and the cylinder scene's parameters for them;
// and obstacles from pictures (the reader, the cells they make, bad files).
// That every storage variant moves them alike, on the CPU and the GPU, is in the random-lattice
// tests (LbmForces.EveryVariantRecordsTheSameForcesAndProbes, LbmCuda).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "compute/core/errors.h"
#include "compute/io/image_io.h"
#include "compute/lbm/lbm_catalog.h"
#include "compute/lbm/lbm_scene.h"
#include "tests/lbm_random.h"

namespace ws::lbm {
namespace {

using test::cpuModule;

// A channel along x: inlet at x = 0, `outlet` at x = nx - 1, `side` rows at y = 0 and ny - 1.
std::vector<std::uint8_t> channelFlags(const Grid& g, std::uint8_t side, std::uint8_t outlet) {
  std::vector<std::uint8_t> flags(g.cells(), kFluid);
  for (std::size_t n = 0; n < g.cells(); ++n) {
    const int x = int(n % g.nx), y = int(n / g.nx % g.ny);
    flags[n] = y == 0 || y == g.ny - 1 ? side : x == 0 ? kInlet : x == g.nx - 1 ? outlet : kFluid;
  }
  markNearWalls(g, flags, 0, g.cells());
  return flags;
}

struct Channel {
  std::unique_ptr<LbmEngine> engine;
  std::vector<std::uint8_t> flags;
};

// A channel's engine at its initial inflow (uniform, or the parabola between walls), with the
// free-slip reflections and open outlets its flags call for where `moves` is set.
Channel channel(LatticeKind lattice, const std::string& variant, const Grid& g, std::uint8_t side,
                std::uint8_t outlet, bool parabola, bool moves) {
  static TimingScope step("step", "u", false), view("view", "p", false);
  Channel c{makeCpuEngine(lattice, entryNamed(storageCatalog(), variant).how, {&step, &view}),
            channelFlags(g, side, outlet)};
  c.engine->reshape(g);
  c.engine->setFlags(c.flags, 0, c.flags.size());
  StepParams p;
  p.omegaPlus = p.omegaMinus = 1 / 0.8f;
  p.inletVelocity[0] = 0.08f;
  p.parabolicInlet = parabola;
  c.engine->setParams(p);
  c.engine->initialize({InitialFlow::kInflow, 0.08, parabola ? g.ny - 2.0 : 0.0});
  if (moves)
    c.engine->setBoundaryLinks({{}, slipLinks(lattice, g, c.flags), openOutlets(g, c.flags)});
  return c;
}

// The largest difference of any fluid cell's velocity from (U, 0, 0) and of its density from 1.
double offUniform(LbmEngine& engine, const std::vector<std::uint8_t>& flags, double u) {
  const Grid& g = engine.grid();
  double worst = 0;
  for (int z = 0; z < g.nz; ++z) {
    const std::vector<PlaneSample> plane = engine.planeMoments({2, z});
    for (std::size_t k = 0; k < plane.size(); ++k) {
      if (isSolid(flags[std::size_t(z) * g.nx * g.ny + k])) continue;
      const PlaneSample& s = plane[k];
      if (getenv("DBG") && std::abs(s.rho - 1.0) + std::abs(s.u[0] - u) + std::abs(s.u[1]) > 1e-4)
        printf("z%d k%zu x%zu y%zu rho %g u %g %g\n", z, k, k % g.nx, k / g.nx, s.rho, s.u[0],
               s.u[1]);
      worst = std::max({worst, std::abs(s.u[0] - u), double(std::abs(s.u[1])),
                        double(std::abs(s.u[2])), std::abs(s.rho - 1.0)});
    }
  }
  return worst;
}

// A uniform stream between free-slip walls is a steady flow: the walls mirror what reaches them,
// so nothing slows it, through either outlet, in 2-D and 3-D, in A-B and A-A storage. Bounced
// back instead, the diagonal populations lose their momentum along the wall and boundary layers
// grow.
TEST(LbmBoundaries, AUniformStreamPassesBetweenFreeSlipWallsUnchanged) {
  for (const Grid g : {Grid{48, 20, 1}, Grid{24, 12, 5}}) {
    const LatticeKind lattice = g.nz == 1 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
    for (const char* variant : {"ab-soa-fp32", "aa-aos-fp32"})
      for (const std::uint8_t outlet : {kOutlet, kOpenOutlet}) {
        const std::string context = std::string(variant) + (g.nz > 1 ? " 3-D" : " 2-D") +
                                    (outlet == kOutlet ? ", pressure outlet" : ", open outlet");
        Channel slip = channel(lattice, variant, g, kSlipWall, outlet, false, true);
        slip.engine->step(301);  // odd: the A-A state after a step of each parity
        EXPECT_LT(offUniform(*slip.engine, slip.flags, 0.08), 2e-6) << context;
        Channel bounced = channel(lattice, variant, g, kSlipWall, outlet, false, false);
        bounced.engine->step(301);
        EXPECT_GT(offUniform(*bounced.engine, bounced.flags, 0.08), 4e-3)
            << context << ": without the reflections' swaps the walls are no-slip";
      }
  }
}

// A shear wave along x between free-slip walls, u_x = A cos(pi s / H) with s the distance from
// the lower wall (half-way between rows 0 and 1) and H the channel's height, meets their
// condition (no stress: du_x/dy = 0 there) and decays as exp(-nu (pi / H)^2 t). Bounced back
// instead, the walls hold the flow at rest and it dies faster. Either way the mass stays.
TEST(LbmBoundaries, AShearWaveBetweenFreeSlipWallsDecaysAtTheViscousRate) {
  const Grid g{8, 34, 1};
  const double h = g.ny - 2, k = std::numbers::pi / h, amplitude = 0.02, tau = 0.8;
  const int steps = 600;
  std::vector<std::uint8_t> flags(g.cells(), kFluid);
  for (int x = 0; x < g.nx; ++x) flags[x] = flags[std::size_t(g.ny - 1) * g.nx + x] = kSlipWall;
  markNearWalls(g, flags, 0, g.cells());
  std::vector<float> state(g.cells() * D2Q9::Q, 0.0f);
  for (std::size_t n = 0; n < g.cells(); ++n) {
    if (isSolid(flags[n])) continue;
    const float u[3] = {float(amplitude * std::cos(k * (double(n / g.nx) - 0.5))), 0, 0};
    float s[D2Q9::Q];
    equilibrium<D2Q9>(1.0f, u, s);
    for (int i = 0; i < D2Q9::Q; ++i) state[i * g.cells() + n] = s[i];
  }
  // The wave's amplitude now: its profile projected on the cosine.
  const auto measured = [&](LbmEngine& engine) {
    const std::vector<PlaneSample> plane = engine.planeMoments({2, 0});
    double along = 0, norm = 0;
    for (int y = 1; y < g.ny - 1; ++y) {
      const double c = std::cos(k * (y - 0.5));
      along += plane[std::size_t(y) * g.nx].u[0] * c;
      norm += c * c;
    }
    return along / norm;
  };
  const double expected = amplitude * std::exp(-(tau - 0.5) / 3 * k * k * steps);
  TimingScope step("step", "u", false), view("view", "p", false);
  for (const char* variant : {"ab-aos-fp32", "aa-soa-fp32"})
    for (const bool reflect : {true, false}) {
      auto engine = makeCpuEngine(LatticeKind::D2Q9, entryNamed(storageCatalog(), variant).how,
                                  {&step, &view});
      engine->reshape(g);
      engine->setFlags(flags, 0, flags.size());
      StepParams p;
      p.omegaPlus = p.omegaMinus = float(1 / tau);
      engine->setParams(p);
      engine->importState(state, 0);
      if (reflect) engine->setBoundaryLinks({{}, slipLinks(LatticeKind::D2Q9, g, flags), {}});
      const double mass = engine->totals().mass;
      engine->step(steps);
      EXPECT_NEAR(engine->totals().mass, mass, 1e-6 * mass) << variant;
      if (reflect)
        EXPECT_NEAR(measured(*engine), expected, 0.01 * expected) << variant;
      else
        EXPECT_LT(measured(*engine), 0.8 * expected) << variant << ", bounced back";
    }
}

// An open outlet holds density 1 and takes the velocity of the column before it, so a channel
// flow leaves with its profile and the mass settles (with a copy of the column before, pressure
// and all, the density of this channel grew 80% in 3000 steps: the velocity inlet pushes against
// the pressure drop and nothing holds the level).
TEST(LbmBoundaries, AnOpenOutletLetsAChannelFlowLeaveWithItsProfile) {
  const Grid g{64, 18, 1};
  for (const char* variant : {"ab-soa-fp32", "aa-soa-fp32"}) {
    Channel open = channel(LatticeKind::D2Q9, variant, g, kWall, kOpenOutlet, true, true);
    open.engine->step(3000);
    const double mass = open.engine->totals().mass;
    open.engine->step(1001);
    EXPECT_NEAR(open.engine->totals().mass, mass, 1e-3 * mass) << variant << ": the mass settles";
    const std::vector<PlaneSample> plane = open.engine->planeMoments({2, 0});
    const auto at = [&](int x, int y) { return plane[std::size_t(y) * g.nx + x]; };
    const double h = g.ny - 2;
    double in = 0, out = 0;  // mass fluxes
    for (int y = 1; y < g.ny - 1; ++y) {
      const std::string row = std::string(variant) + " row " + std::to_string(y);
      const PlaneSample last = at(g.nx - 1, y), before = at(g.nx - 2, y);
      EXPECT_NEAR(last.rho, 1, 1e-6) << row;
      EXPECT_NEAR(last.u[0], before.u[0], 1e-6) << row << ": the velocity extrapolated";
      EXPECT_NEAR(last.u[1], before.u[1], 1e-6) << row;
      // A parabola: the pressure falls along the channel, so the flow leaves a little faster
      // than it came in, as light as the outlet's density makes it.
      const double s = y - 0.5, shape = 4 * s * (h - s) / (h * h);
      const double centre = at(g.nx - 1, g.ny / 2).u[0];
      EXPECT_NEAR(last.u[0], centre * shape, 0.01 * centre) << row;
      in += at(1, y).rho * at(1, y).u[0];
      out += last.rho * last.u[0];
    }
    EXPECT_NEAR(out, in, 1e-3 * in) << variant << ": what comes in goes out";
  }
}

// The cylinder scene's sides and outflow from its parameters: the cells they make, what applies,
// and the forces (a free-slip wall's links are not measured).
TEST(LbmBoundaries, TheCylinderScenesSidesAndOutflowComeFromItsParameters) {
  auto m = cpuModule({{"scene", std::string("cylinder")},
                      {"width", std::int64_t(96)},
                      {"height", std::int64_t(42)},
                      {"tracers", std::int64_t(0)},
                      {"sides", std::string("free-slip")},
                      {"outflow", std::string("extrapolated")}});
  const auto type = [&](int x, int y) { return m->flags()[std::size_t(y) * 96 + x] & kTypeMask; };
  EXPECT_EQ(type(10, 0), kSlipWall);
  EXPECT_EQ(type(10, 41), kSlipWall);
  EXPECT_EQ(type(0, 20), kInlet);
  EXPECT_EQ(type(95, 20), kOpenOutlet);
  EXPECT_FALSE(m->applies("inflow")) << "uniform between free-slip walls";
  EXPECT_TRUE(m->applies("outflow"));
  EXPECT_NE(m->notes().find("on the inflow speed"), std::string::npos) << m->notes();
  m->step(50);
  EXPECT_EQ(m->bodies(), std::vector<std::string>{"obstacle 1"}) << "free-slip walls take no drag";

  m->setParams({{"sides", std::string("walls")}, {"outflow", std::string("pressure")}});
  EXPECT_EQ(type(10, 0), kWall);
  EXPECT_EQ(type(95, 20), kOutlet);
  EXPECT_THROW(m->setParam("outflow", std::string("convective")), InputError);
  EXPECT_THROW(m->setParam("sides", std::string("slip")), InputError);
  EXPECT_EQ(m->params().getText("outflow"), "pressure");
  m->setParam("scene", std::string("cavity"));
  EXPECT_FALSE(m->applies("outflow"));
  EXPECT_FALSE(m->applies("sides"));
}

// In a channel four times as high as long, the cylinder the scene places keeps a radius of fluid
// between itself and the inlet (a cylinder of the height / 16 reached back to it, and the flow
// diverged within 40 steps), and the flow stays finite.
TEST(LbmBoundaries, TheCylinderOfATallChannelKeepsClearOfTheInlet) {
  const int nx = 64, ny = 256;
  auto m = cpuModule({{"scene", std::string("cylinder")},
                      {"width", std::int64_t(nx)},
                      {"height", std::int64_t(ny)},
                      {"tracers", std::int64_t(0)}});
  int firstSolid = nx, solidRows = 0;
  for (int y = 1; y + 1 < ny; ++y) {
    bool solid = false;
    for (int x = 0; x < nx; ++x)
      if ((m->flags()[std::size_t(y) * nx + x] & kTypeMask) == kWall) {
        firstSolid = std::min(firstSolid, x);
        solid = true;
      }
    solidRows += solid;
  }
  EXPECT_EQ(firstSolid, nx / 4 - nx / 8) << "a radius (length / 8) from the inlet";
  EXPECT_GE(solidRows, nx / 4 - 1) << "a diameter of the length / 4";
  EXPECT_LE(solidRows, nx / 4 + 1);
  EXPECT_NO_THROW(m->step(400));
  EXPECT_TRUE(std::isfinite(m->engine().totals().mass));
}

// A grey picture as binary PGM, rows from the top: what stb_image reads besides PNG.
std::string writePgm(const std::string& name, int width, int height,
                     const std::vector<std::uint8_t>& grey, const std::string& header = "") {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out << (header.empty() ? "P5\n" + std::to_string(width) + " " + std::to_string(height) + "\n255\n"
                         : header);
  out.write(reinterpret_cast<const char*>(grey.data()), std::streamsize(grey.size()));
  return path;
}

// A 4x4 picture, white but for the second pixel of its second row.
std::vector<std::uint8_t> onePixel(std::uint8_t dark = 0) {
  std::vector<std::uint8_t> grey(16, 255);
  grey[1 * 4 + 1] = dark;
  return grey;
}

TEST(LbmPictureObstacle, DarkOpaquePixelsAreTheMaskAndBadFilesAreRefused) {
  const io::Mask mask = io::loadMask(writePgm("one.pgm", 4, 4, onePixel(100)));
  ASSERT_EQ(mask.width, 4);
  ASSERT_EQ(mask.height, 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_EQ(mask.at(x, y), x == 1 && y == 1) << x << "," << y;
  EXPECT_FALSE(io::loadMask(writePgm("light.pgm", 4, 4, onePixel(140))).at(1, 1))
      << "lighter than half grey";
  // The shipped airfoil: a PNG with a wing a sixth of its width long, left of the middle.
  const io::Mask airfoil = io::loadMask(io::maskPathOf("airfoil"));
  EXPECT_EQ(airfoil.width, 1024);
  const auto dark = std::count(airfoil.dark.begin(), airfoil.dark.end(), 1);
  EXPECT_GT(dark, 1500);  // 0.082 c^2 of a NACA 0012 with c = 170: about 2,370 pixels
  EXPECT_LT(dark, 3500);

  const auto refused = [](const std::string& path, const std::string& says) {
    try {
      io::loadMask(path);
      ADD_FAILURE() << path << " was read";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(std::filesystem::path(path).filename().string()), std::string::npos)
          << message;
      EXPECT_NE(message.find(says), std::string::npos) << message;
    }
  };
  const std::string text = ::testing::TempDir() + "/words.png";
  std::ofstream(text) << "not a picture at all";
  refused(text, "not a picture");
  // A header that claims a picture too large is refused before anything is decoded.
  refused(writePgm("huge.pgm", 0, 0, {}, "P5\n100000 10\n255\n"), "up to 16384 a side");
  // A PNG cut short: its header reads, its pixels do not.
  const std::string cut = ::testing::TempDir() + "/cut.png";
  {
    std::ifstream in(io::maskPathOf("airfoil"), std::ios::binary);
    std::string head(300, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    std::ofstream(cut, std::ios::binary) << head;
  }
  refused(cut, "cannot decode");
  refused(::testing::TempDir() + "/absent.png", "not a picture");
  EXPECT_NE(io::checkMaskName("no-such-picture").find("airfoil"), std::string::npos)
      << "the message names the shipped ones";
  EXPECT_EQ(io::checkMaskName("airfoil"), "");
}

// The picture stretched over the lattice makes its walls; in 3-D through the depth. Bad files
// change nothing, and a picture changed on disk is read again.
TEST(LbmPictureObstacle, ThePicturesDarkPixelsAreWallsAcrossTheChannel) {
  const std::string path = writePgm("obstacle.pgm", 4, 4, onePixel());
  auto m = cpuModule({{"scene", std::string("cylinder")},
                      {"width", std::int64_t(40)},
                      {"height", std::int64_t(20)},
                      {"tracers", std::int64_t(0)},
                      {"obstacle_image", path}});
  // Pixel (1, 1) from the top covers cells 10 to 19 along x and 10 to 14 up (the second row of
  // four from the top of 20).
  const auto type = [&](int x, int y, int z = 0) {
    const Grid& g = m->spec().grid;
    return m->flags()[(std::size_t(z) * g.ny + y) * g.nx + x] & kTypeMask;
  };
  for (int y = 1; y < 19; ++y)
    for (int x = 1; x < 39; ++x)
      EXPECT_EQ(type(x, y), x >= 10 && x < 20 && y >= 10 && y < 15 ? kWall : kFluid)
          << x << "," << y;
  EXPECT_EQ(m->flow().lengthName, "obstacle height") << "no cylinder, the picture's obstacle";
  EXPECT_NEAR(m->flow().length, 5, 1e-12);
  m->step(20);
  EXPECT_EQ(m->bodies(), std::vector<std::string>{"obstacle 1"});

  m->setParams({{"lattice", std::string("d3q19")}, {"depth", std::int64_t(6)}});
  for (int z = 0; z < 6; ++z) {
    EXPECT_EQ(type(12, 12, z), kWall) << z;
    EXPECT_EQ(type(12, 16, z), kFluid) << z;
  }

  // Read again once the file changes.
  const auto written = std::filesystem::last_write_time(path);
  std::vector<std::uint8_t> moved(16, 255);
  moved[2 * 4 + 2] = 0;
  writePgm("obstacle.pgm", 4, 4, moved);
  std::filesystem::last_write_time(path, written + std::chrono::seconds(2));
  m->reset();
  EXPECT_EQ(type(12, 12), kFluid);
  EXPECT_EQ(type(22, 7), kWall);

  // A picture that is not there, or not a picture, changes nothing.
  const std::vector<std::uint8_t> flags = m->flags();
  const std::uint64_t steps = (m->step(3), m->stepCount());
  EXPECT_THROW(m->setParam("obstacle_image", std::string("no-such-picture")), InputError);
  const std::string text = ::testing::TempDir() + "/text.png";
  std::ofstream(text) << "P5 oops";
  EXPECT_THROW(m->setParam("obstacle_image", text), InputError);
  EXPECT_EQ(m->params().getText("obstacle_image"), path);
  EXPECT_EQ(m->flags(), flags);
  EXPECT_EQ(m->stepCount(), steps);
}

}  // namespace
}  // namespace ws::lbm
