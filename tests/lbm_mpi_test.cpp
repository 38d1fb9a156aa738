// The LBM lattice over MPI processes (compute/core/ranks.h, compute/lbm/lbm_mpi.h): the real
// program under mpirun with 1 to 4 ranks (oversubscribed on CI's two cores) writes the same flow,
// bit for bit, as one process does, on the CPU and on a GPU; a bad rank count is refused with exit
// 2, and a rank killed mid-run ends the run everywhere rather than leaving it hanging.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "tests/process.h"
#include "tests/test_support.h"

namespace ws {
namespace {

#if WS_WITH_MPI
#define REQUIRE_MPI()
#else
#define REQUIRE_MPI() GTEST_SKIP() << "warpscope was built without MPI (install libopenmpi-dev)"
#endif

// mpirun as root (CI's containers) and with more ranks than cores, one thread a rank. Under the
// sanitizers (scripts/setup.sh sanitize) mpirun itself is not instrumented, so it runs without
// the preloaded runtime, and the ranks count no leaks: MPI keeps allocations of its own to the
// end. Every other check of the sanitizers stays on in the ranks.
std::string mpirun(int ranks) {
  std::string sanitizers;
  if (const char* asan = std::getenv("ASAN_OPTIONS"))
    sanitizers = " -x ASAN_OPTIONS=" + std::string(asan) + ":detect_leaks=0";
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 env -u "
         "LD_PRELOAD " +
         std::string(MPIEXEC) + " --oversubscribe" + sanitizers + " -np " + std::to_string(ranks) +
         " ";
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The VTI file a headless run of these options writes after its steps (and its last frame, where
// asked), and the run's output.
struct Written {
  std::string vti, png, output;
  int exitCode = -1;
};

Written run(int ranks, const std::string& options, const std::string& name,
            const std::string& backend = "cpu", bool picture = false) {
  const auto folder =
      std::filesystem::temp_directory_path() /
      ("ws_mpi_" + name + "_" + std::to_string(ranks) + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string command = (ranks > 1 ? mpirun(ranks) : "OMP_NUM_THREADS=1 ") + WARPSCOPE_BIN +
                              " --headless --backend " + backend +
                              " --module lbm --window 320x200 " + options +
                              " --action \"export VTI\" --output-dir " + folder.string() +
                              (picture ? " --screenshot " + (folder / "frame.png").string() : "");
  const test::ProcessResult result = test::runProcess("timeout 300 env " + command);
  Written w{"", "", result.output, result.exitCode};
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".vti")
      w.vti = readFile(entry.path());
    else if (entry.path().extension() == ".png")
      w.png = readFile(entry.path());
  std::filesystem::remove_all(folder);
  return w;
}

struct Case {
  const char* name;
  std::string options;
};

// Each split axis in 2-D and 3-D, A-B and A-A, FP32 and FP16 storage, an odd and an even number
// of steps, the halo sent while the inside steps and after the step; a cylinder across the slabs'
// borders with the inlet and both outlets, the lid of a cavity, free-slip sides.
TEST(LbmMpi, OneToFourRanksWriteTheFlowOfOneProcessBitForBit) {
  REQUIRE_MPI();
  const Case cases[] = {
      {"cylinder_y", "--size 96x48 --steps 21"},
      {"cylinder_x_aa16",
       "--size 96x48 --steps 20 --variant aa-soa-fp16 --set lbm.split_axis=x "
       "--set lbm.outflow=extrapolated"},
      {"airfoil_y_aos", "--preset lbm-airfoil --size 128x48 --steps 14 --variant ab-aos-fp16"},
      {"cavity3d_z", "--preset lbm-cavity-3d --size 16 --steps 9 --variant aa-aos-fp32"},
      {"cavity3d_x_ab16",
       "--preset lbm-cavity-3d --size 16 --steps 8 --variant ab-soa-fp16 "
       "--set lbm.split_axis=x"},
      {"channel3d_y",
       "--preset lbm-obstacle-3d --size 32x16x16 --steps 7 --variant aa-soa-fp32 "
       "--set lbm.split_axis=y"},
      {"cylinder_x_after",
       "--size 96x48 --steps 11 --set lbm.split_axis=x --set lbm.split_overlap=false"},
  };
  for (const Case& c : cases) {
    const Written one = run(1, c.options, c.name);
    ASSERT_EQ(one.exitCode, 0) << c.name << ": " << one.output;
    ASSERT_GT(one.vti.size(), 1000u) << c.name;
    for (int ranks = 2; ranks <= 4; ++ranks) {
      const Written split = run(ranks, c.options, c.name);
      ASSERT_EQ(split.exitCode, 0) << c.name << " over " << ranks << " ranks: " << split.output;
      EXPECT_NE(split.output.find("split over " + std::to_string(ranks) + " ranks along"),
                std::string::npos)
          << c.name << ": " << split.output;
      EXPECT_TRUE(split.vti == one.vti) << c.name << " over " << ranks << " ranks";
    }
  }
}

// Ranks sharing one GPU, each slab on it, write the flow of one process on it, bit for bit, their
// halos written from GPU to GPU (CUDA IPC: here, into the other process's memory on the same GPU)
// or staged through the host, while every frame draws what a split lattice gathers on the host
// (the plane shown, the tracers on it, in 3-D the isosurfaces and streamlines) into buffers that
// CUDA-GL interop maps on the device.
// Each case on the GPU over `ranks` processes, the halo from GPU to GPU and through the host,
// writes one process's VTI byte for byte, its notes saying `split` and how the halo went.
void expectOnTheGpuAsOneProcess(std::span<const Case> cases, int ranks, const std::string& split) {
  for (const Case& c : cases) {
    const Written one = run(1, c.options, c.name, "cuda");
    ASSERT_EQ(one.exitCode, 0) << c.name << ": " << one.output;
    for (const bool peer : {true, false}) {
      const Written got = run(
          ranks, c.options + " --set lbm.split_peer=" + (peer ? "true" : "false"), c.name, "cuda");
      ASSERT_EQ(got.exitCode, 0) << c.name << " over " << ranks << " ranks: " << got.output;
      EXPECT_NE(got.output.find(split), std::string::npos) << got.output;
      EXPECT_NE(got.output.find(peer ? "written from GPU to GPU (CUDA IPC)"
                                     : "staged through pinned host memory"),
                std::string::npos)
          << got.output;
      EXPECT_TRUE(got.vti == one.vti) << c.name << " over " << ranks << " ranks, peer " << peer;
    }
  }
}

TEST(LbmMpi, OnTheGpuTwoRanksWriteTheFlowOfOneProcessBitForBit) {
  REQUIRE_MPI();
  WS_REQUIRE_GPU();
  const Case cases[] = {
      {"gpu_cylinder_y", "--size 256x128 --steps 41"},
      {"gpu_cylinder_x_after",
       "--size 256x128 --steps 30 --variant aa-soa-fp16 --set lbm.split_axis=x "
       "--set lbm.split_overlap=false"},
      {"gpu_cavity3d_z",
       "--preset lbm-cavity-3d --size 32 --steps 17 --variant aa-soa-fp32 "
       "--set lbm.display=isosurface --set lbm.streamlines=16"},
  };
  expectOnTheGpuAsOneProcess(cases, 2, "split over 2 ranks along");
}

// The rows of two pictures (PNG files' bytes) where they differ, or none where they cannot be read
// or differ in size.
std::vector<int> differingRows(const std::string& a, const std::string& b) {
  int wa = 0, ha = 0, wb = 0, hb = 0, channels = 0;
  const auto decode = [&](const std::string& png, int& w, int& h) {
    return stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()), int(png.size()), &w,
                                 &h, &channels, 3);
  };
  stbi_uc* pa = decode(a, wa, ha);
  stbi_uc* pb = decode(b, wb, hb);
  std::vector<int> rows;
  if (pa && pb && wa == wb && ha == hb)
    for (int y = 0; y < ha; ++y)
      if (std::memcmp(pa + std::size_t(y) * wa * 3, pb + std::size_t(y) * wa * 3, wa * 3) != 0)
        rows.push_back(y);
  stbi_image_free(pa);
  stbi_image_free(pb);
  return rows;
}

// A lattice larger than the window, zoomed out: rank 0 draws from only the cells the picture reads
// (a row and a column in every few, and their neighbours for the vorticity), which each rank
// sends it, and the frame is one process's pixel for pixel but for the lines that mark the two
// slab borders: two bands a few pixels high. (With tracers, which move through the whole plane,
// the view draws from the plane they gathered.)
TEST(LbmMpi, TheFrameOfALatticeLargerThanTheWindowIsOneProcesss) {
  REQUIRE_MPI();
  for (const char* view : {"vorticity --set lbm.tracers=0", "speed --set lbm.tracers=0", "speed"}) {
    const std::string options = std::string("--size 720x420 --steps 6 --set lbm.view=") + view;
    const Written one = run(1, options, "frame", "cpu", true);
    ASSERT_EQ(one.exitCode, 0) << one.output;
    const Written split = run(3, options, "frame", "cpu", true);
    ASSERT_EQ(split.exitCode, 0) << split.output;
    EXPECT_TRUE(split.vti == one.vti) << view;
    const std::vector<int> rows = differingRows(one.png, split.png);
    ASSERT_FALSE(rows.empty()) << view << ": unreadable frames, or no border marks";
    std::vector<std::pair<int, int>> bands;  // (first row, last row)
    for (int y : rows)
      if (!bands.empty() && y == bands.back().second + 1)
        bands.back().second = y;
      else
        bands.emplace_back(y, y);
    EXPECT_EQ(bands.size(), 2u) << view;
    for (const auto& [first, last] : bands) EXPECT_LE(last - first, 8) << view << " " << first;
  }
}

// A grid of ranks, two or three axes split, writes the flow of one process bit for bit: the 2-D
// cylinder (inlet, both outlets, the obstacle across the boxes' edges) in 2x2, the 3-D cavity's
// lid and walls in 2x1x2 (FP16, A-A), the channel in 1x2x2 with its halo sent after the step, a
// grid along one axis as slabs (2x1).
TEST(LbmMpi, AGridOfRanksWritesTheFlowOfOneProcessBitForBit) {
  REQUIRE_MPI();
  const struct {
    Case c;
    int ranks;
  } cases[] = {
      {{"cylinder_2x2", "--size 96x48 --steps 13 --set lbm.split_grid=2x2"}, 4},
      {{"cavity3d_2x1x2",
        "--preset lbm-cavity-3d --size 16 --steps 9 --variant aa-soa-fp16 "
        "--set lbm.split_grid=2x1x2"},
       4},
      {{"channel3d_1x2x2",
        "--preset lbm-obstacle-3d --size 32x16x16 --steps 8 --variant ab-soa-fp32 "
        "--set lbm.split_grid=1x2x2 --set lbm.split_overlap=false"},
       4},
      {{"cylinder_2x1", "--size 96x48 --steps 12 --set lbm.split_grid=2x1"}, 2},
  };
  for (const auto& [c, ranks] : cases) {
    const Written one = run(1, c.options, c.name);
    ASSERT_EQ(one.exitCode, 0) << c.name << ": " << one.output;
    const Written split = run(ranks, c.options, c.name);
    ASSERT_EQ(split.exitCode, 0) << c.name << ": " << split.output;
    EXPECT_TRUE(split.vti == one.vti) << c.name << " over " << ranks << " ranks";
    EXPECT_NE(split.output.find(ranks == 2 ? "split over 2 ranks along x"
                                           : "split over 4 ranks in a grid of"),
              std::string::npos)
        << c.name << ": " << split.output;
  }
  const Written wrong = run(3, "--size 96x48 --steps 3 --set lbm.split_grid=2x2", "grid_refused");
  EXPECT_EQ(wrong.exitCode, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("a 2x2x1 grid of ranks needs 4 processes, not 3 (lbm.split_grid)"),
            std::string::npos)
      << wrong.output;
}

// Four ranks sharing the GPUs there are, each box on one, write the flow of one process on a GPU
// bit for bit, their halos from GPU to GPU and through the host, sent while the inside steps.
TEST(LbmMpi, OnTheGpuAGridOfRanksWritesTheFlowOfOneProcessBitForBit) {
  REQUIRE_MPI();
  WS_REQUIRE_GPU();
  const Case cases[] = {
      {"gpu_cylinder_2x2", "--size 256x128 --steps 21 --set lbm.split_grid=2x2"},
      {"gpu_channel3d_1x2x2",
       "--preset lbm-obstacle-3d --size 48x32x32 --steps 12 --variant aa-soa-fp16 "
       "--set lbm.split_grid=1x2x2"},
  };
  expectOnTheGpuAsOneProcess(cases, 4,
                             "its border stepped first and its halo sent to the ranks beside its "
                             "faces and edges while the rest steps");
}

TEST(LbmMpi, MoreRanksThanTheLatticeCanTakeAreRefused) {
  REQUIRE_MPI();
  const Written w = run(5, "--size 16x8 --steps 3", "refused");
  EXPECT_EQ(w.exitCode, 2) << w.output;
  EXPECT_NE(w.output.find("the lattice's 8 cells along y cannot be split over 5 ranks"),
            std::string::npos)
      << w.output;
}

// A rank killed mid-run: mpirun ends every rank and says which one died (within the timeout,
// which a hang would reach).
TEST(LbmMpi, ARankKilledMidRunEndsTheRunEverywhere) {
  REQUIRE_MPI();
  const std::string marker = "--steps 987654";
  const auto script = std::filesystem::temp_directory_path() /
                      ("ws_mpi_kill_" + std::to_string(::getpid()) + ".sh");
  std::ofstream(script) << mpirun(3) << WARPSCOPE_BIN
                        << " --headless --backend cpu --module lbm --window 160x100 --size 64x32 "
                           "--set lbm.reynolds=20 "
                        << marker << " &\nrun=$!\nsleep 4\n"
                        << "for try in $(seq 60); do\n"
                        << "  for p in $(pgrep -f -- '" << marker << "'); do\n"
                        << "    if tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | "
                           "grep -qx OMPI_COMM_WORLD_RANK=1; then kill -9 $p; killed=1; fi\n"
                        << "  done\n"
                        << "  [ -n \"$killed\" ] && break; sleep 0.5\n"
                        << "done\necho \"killed ${killed:-none}\"\nwait $run\necho \"exit $?\"\n";
  const auto started = std::chrono::steady_clock::now();
  const test::ProcessResult result =
      test::runProcess("timeout 120 env -u LD_PRELOAD bash " + script.string());
  std::filesystem::remove(script);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_NE(result.output.find("killed 1"), std::string::npos) << result.output;
  EXPECT_LT(seconds, 60) << result.output;
  EXPECT_NE(result.output.find("exited on signal 9"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("exit 0"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace ws
