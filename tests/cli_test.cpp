// The command line, run as a user would: bad flags and values exit 2 with a message naming the
// problem; --help documents the modules' parameters; headless runs and the benchmark work.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

#include "compute/core/backend.h"
#include "tests/process.h"

namespace ws {
namespace {

test::ProcessResult warpscope(const std::string& args) {
  return test::runProcess(std::string(WARPSCOPE_BIN) + " " + args);
}

void expectUsageError(const std::string& args, const std::string& words) {
  const auto result = warpscope(args);
  EXPECT_EQ(result.exitCode, 2) << args << "\n" << result.output;
  EXPECT_NE(result.output.find(words), std::string::npos)
      << args << ": the message should mention '" << words << "':\n"
      << result.output;
}

TEST(CommandLine, BadFlagsAndValuesExitWith2AndSayWhy) {
  expectUsageError("--bogus", "bogus");
  expectUsageError("--backend quantum", "quantum");
  expectUsageError("--module nope --backend cpu", "unknown module 'nope'");
  expectUsageError("--backend cpu --variant warp9", "unknown variant 'warp9'");
  expectUsageError("--backend cpu --set life.nope=3", "unknown parameter 'nope'");
  expectUsageError("--backend cpu --set life.density=2", "density");
  expectUsageError("--backend cpu --set life.rule=B9/S23", "neighbour count");
  expectUsageError("--backend cpu --set lbm.tau=1", "not one of module 'life'");
  expectUsageError("--backend cpu --set rule", "expected key=value");
  expectUsageError("--backend cpu --size 3", "from 4 to");
  expectUsageError("--backend cpu --size abc", "abc");
  expectUsageError("--backend cpu --size=-5", "-5");
  expectUsageError("--preset /no/such/file.json", "file.json");
  expectUsageError("--backend cpu --headless --window 12", "--window");
  expectUsageError("--backend cpu --headless --frame-every 0", "--frame-every");
  expectUsageError("bench --backend cpu --samples 1", "--samples");
  expectUsageError("bench --backend gpu-ish", "--backend");
  expectUsageError("--steps-per-frame x", "steps-per-frame");
  expectUsageError("--backend cpu --headless --output-dir /no/such/folder", "/no/such/folder");
}

TEST(CommandLine, AMalformedPresetIsRefused) {
  const std::string path = ::testing::TempDir() + "/bad-preset.json";
  std::ofstream(path) << "{\"module\": \"life\", \"params\": {\"rule\": \"B3/S23\",";
  expectUsageError("--backend cpu --preset " + path, "not valid JSON");
  std::ofstream(path) << R"({"module": "life", "params": {"width": "wide"}})";
  expectUsageError("--backend cpu --preset " + path, "width");
}

// A preset names its module: --preset alone runs that module; with another --module it is
// refused, naming both plainly.
TEST(CommandLine, APresetAloneRunsItsModule) {
  const std::string preset = std::string(WS_SOURCE_DIR) + "/assets/presets/lbm-cylinder.json";
  const auto result = warpscope("--headless --backend cpu --preset " + preset +
                                " --size 96x48 --steps 2 --window 160x100");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("mass"), std::string::npos) << result.output;  // the flow's line
  expectUsageError("--backend cpu --module life --preset " + preset,
                   "the preset is for module 'lbm', not 'life'");
}

// A shipped preset can be named rather than found as a file (an installed program's presets are
// in its share folder); a name that is neither says which names there are.
TEST(CommandLine, AShippedPresetIsFoundByName) {
  const auto result =
      warpscope("--headless --backend cpu --preset lbm-poiseuille --steps 2 --window 160x100");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("module lbm"), std::string::npos) << result.output;
  expectUsageError("--preset no-such-preset",
                   "neither a file nor a shipped preset (cahn-hilliard-3d");
}

TEST(CommandLine, HelpDocumentsModulesParametersAndBench) {
  const auto result = warpscope("--help");
  EXPECT_EQ(result.exitCode, 0);
  for (const char* words : {"--headless", "--frames", "--set", "--preset", "--screenshot", "bench",
                            "life.rule", "life.boundary", "bitpacked", "EXIT CODES"})
    EXPECT_NE(result.output.find(words), std::string::npos) << words;
  EXPECT_EQ(warpscope("bench --help").exitCode, 0);
}

TEST(CommandLine, HeadlessRunWritesFramesAndAScreenshot) {
  const std::string dir = ::testing::TempDir() + "/frames";
  std::filesystem::remove_all(dir);
  const std::string shot = ::testing::TempDir() + "/last.png";
  const std::string preset = std::string(WS_SOURCE_DIR) + "/assets/presets/life-gosper-gun.json";
  const auto result = warpscope("--headless --backend cpu --preset " + preset +
                                " --steps 12 --steps-per-frame 3 --frames " + dir +
                                " --frame-every 2 --window 320x200 --screenshot " + shot);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/frame_000000.png"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/frame_000002.png"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/frame_000001.png"));
  EXPECT_GT(std::filesystem::file_size(shot), 500u);
  EXPECT_NE(result.output.find("12 steps in 4 frames"), std::string::npos) << result.output;
}

// A frame of more steps than one action of a session may ask for is asked for in parts.
TEST(CommandLine, AFrameOfMoreStepsThanOneActionHoldsRunsWhole) {
  const auto result = warpscope(
      "--headless --backend cpu --module reduce --size 1024 --steps 1100000 --steps-per-frame "
      "1100000 --window 320x200");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("mismatches 0 after 1100000 steps"), std::string::npos)
      << result.output;
}

TEST(CommandLine, LbmRunsHeadlessAndRefusesUnstableParameters) {
  const std::string shot = ::testing::TempDir() + "/lbm.png";
  const auto result = warpscope(
      "--headless --backend cpu --module lbm --size 96x48 --set lbm.view=vorticity --steps 40 "
      "--steps-per-frame 10 --window 320x200 --screenshot " +
      shot);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_GT(std::filesystem::file_size(shot), 500u);
  EXPECT_NE(result.output.find("mass"), std::string::npos) << result.output;
  expectUsageError("--backend cpu --module lbm --set lbm.velocity=0.5", "velocity");
  expectUsageError(
      "--backend cpu --module lbm --set lbm.viscosity_from=viscosity --set lbm.viscosity=0", "tau");
}

TEST(CommandLine, BenchmarkPrintsATableAndWritesJson) {
  const std::string json = ::testing::TempDir() + "/bench.json";
  const auto result =
      warpscope("bench --backend cpu --size 256 --samples 3 --steps-per-sample 2 --json " + json);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("reference"), std::string::npos);
  std::ifstream in(json);
  const auto report = nlohmann::json::parse(in);
  ASSERT_EQ(report["results"].size(), 2u);
  for (const auto& row : report["results"]) {
    EXPECT_GT(row["rate_per_second"].get<double>(), 0);
    EXPECT_EQ(row["size"], "256x256");
  }
}

TEST(CommandLine, AFaultingGpuKernelSwitchesTheRunToTheCpu) {
  if (!gpuInfo().available) GTEST_SKIP() << "no usable CUDA GPU here (" << gpuInfo().reason << ")";
  const std::string shot = ::testing::TempDir() + "/after-fault.png";
  const auto result =
      test::runProcess("WARPSCOPE_INJECT_GPU_FAULT=5 " + std::string(WARPSCOPE_BIN) +
                       " --headless --backend cuda --size 512 --steps 20"
                       " --window 256x256 --screenshot " +
                       shot);
  // The failure is reported (exit 1), and the run goes on to the end on the CPU backend.
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("switched to the CPU backend"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("backend cpu"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("20 steps in 20 frames"), std::string::npos) << result.output;
  EXPECT_TRUE(std::filesystem::exists(shot));
}

// A session of 90 frames on the CPU, from a reset: a cleared grid, a glider, faster playback.
// `seconds`: how long the recording ran (none: a session recorded before that was written).
std::string writeSession(const std::string& name, std::optional<double> seconds = std::nullopt) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << R"({
  "warpscope_session": 1,
  "start": {"module": "life", "backend": "cpu", "variant": "bitpacked",
            "params": {"width": 256, "height": 192, "seed": 3},
            "playback": {"running": true, "steps_per_frame": 1},
            "camera": {"center": [128, 96], "zoom": 2, "height": 400,
                       "orbit": {"centre": [0, 0, 0], "yaw": 0, "pitch": 0, "distance": 5}},
            "state": "reset"},
  "events": [
    {"frame": 10, "type": "action", "name": "clear"},
    {"frame": 11, "type": "edit", "tool": "place", "x": 100, "y": 100, "from_x": 100,
     "from_y": 100, "item": "glider"},
    {"frame": 30, "type": "steps_per_frame", "value": 4}
  ],
  "end": {"frames": 90, )" + (seconds ? "\"seconds\": " + std::to_string(*seconds) + ", " : "") +
                             R"("state_hash": "fnv1a64:0000000000000000"}
})";
  return path;
}

bool haveFfmpeg() {
  return test::runProcess("command -v ffmpeg && command -v ffprobe").exitCode == 0;
}

// "frames,width,height" of a video's first stream, as ffprobe counts them.
std::string probe(const std::string& video) {
  return test::runProcess(
             "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
             "stream=nb_read_frames,width,height -of csv=p=0 " +
             video + " 2>/dev/null")
      .output;
}

TEST(Replay, HeadlessReplayWritesAnMp4OfEveryFrame) {
  if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg is not installed (apt-get install ffmpeg)";
  const std::string video = ::testing::TempDir() + "/replay.mp4";
  std::filesystem::remove(video);
  const auto result = warpscope("replay " + writeSession("replay.json") + " --video " + video +
                                " --size 320x240 --fps 30 --with-ui");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("population 5 after 260 steps"), std::string::npos)
      << "the glider, after 10 + 1 + 19 + 60 x 4 steps:\n"
      << result.output;
  EXPECT_EQ(probe(video), "320,240,90\n");
}

TEST(Replay, AGifForSlides) {
  if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg is not installed (apt-get install ffmpeg)";
  const std::string video = ::testing::TempDir() + "/replay.gif";
  const auto result =
      warpscope("replay " + writeSession("gif.json") + " --video " + video + " --size 160x120");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_EQ(probe(video), "160,120,90\n");
}

TEST(Replay, WithoutFfmpegTheFramesArePngsAndTheCommandIsPrinted) {
  const std::string dir = ::testing::TempDir() + "/noffmpeg";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto result =
      test::runProcess("WARPSCOPE_FFMPEG= " + std::string(WARPSCOPE_BIN) + " replay " +
                       writeSession("png.json") + " --video " + dir + "/demo.mp4 --size 160x120");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("ffmpeg not found"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("join them with: ffmpeg -framerate 60 -i " + dir +
                               "/demo_frames/frame_%06d.png"),
            std::string::npos)
      << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/demo_frames/frame_000000.png"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/demo_frames/frame_000089.png"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/demo_frames/frame_000090.png"));
}

// A video of a replay lasts as long as the recording did (15 s of 90 frames: 6 frames a second);
// --fps gives one video frame per recorded frame at that rate instead.
TEST(Replay, TheVideoPlaysAtTheRecordingsPace) {
  const std::string dir = ::testing::TempDir() + "/paced";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string session = writeSession("paced.json", 15.0);
  auto result = warpscope("replay " + session + " --video " + dir + "/paced.mp4 --size 160x120");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("the video plays at the recording's pace, 6 frames/s (15 s)"),
            std::string::npos)
      << result.output;
  if (haveFfmpeg()) {
    EXPECT_EQ(probe(dir + "/paced.mp4"), "160,120,90\n");
    const std::string seconds =
        test::runProcess("ffprobe -v error -show_entries format=duration -of csv=p=0 " + dir +
                         "/paced.mp4")
            .output;
    EXPECT_NEAR(std::stod(seconds), 15.0, 0.2) << seconds;
  }
  result = test::runProcess("WARPSCOPE_FFMPEG= " + std::string(WARPSCOPE_BIN) + " replay " +
                            session + " --video " + dir + "/fast.mp4 --size 160x120 --fps 30");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("ffmpeg -framerate 30 -i"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("recording's pace"), std::string::npos) << result.output;
  expectUsageError("replay " + session + " --fps -3", "--fps");
}

TEST(Replay, AFailingFfmpegIsReportedAndTheFramesKept) {
  const std::string dir = ::testing::TempDir() + "/badffmpeg";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // An "ffmpeg" that says why it fails and exits without reading a frame.
  const std::string fake = dir + "/ffmpeg";
  std::ofstream(fake) << "#!/bin/sh\necho 'Unknown encoder libx264' >&2\nexit 1\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto result =
      test::runProcess("WARPSCOPE_FFMPEG=" + fake + " " + std::string(WARPSCOPE_BIN) + " replay " +
                       writeSession("fail.json") + " --video " + dir + "/demo.mp4 --size 320x240");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("Unknown encoder libx264"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("frames kept as PNG"), std::string::npos) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/demo_frames/frame_000089.png"));
}

TEST(Replay, MalformedSessionsExitWith2AndSayWhere) {
  const std::string path = ::testing::TempDir() + "/broken.json";
  std::ofstream(path) << "{\n  \"warpscope_session\": 1,\n  \"events\": [ {\"frame\": }\n";
  expectUsageError("replay " + path, "line 3, column 25");
  std::ofstream(path) << R"({"warpscope_session": 3, "events": []})";
  expectUsageError("replay " + path, "version 3, newer than this warpscope reads");
  expectUsageError("replay " + writeSession("v.json") + " --video out.avi",
                   "expected a name ending .mp4");
  expectUsageError("replay /no/such/session.json", "session.json");
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

// A file the run will write is checked before the run; a write that fails after it says so.
TEST(Writing, AnUnwritablePathIsRefusedBeforeTheRunAndAFailedWriteIsAnError) {
  const std::string run = "--headless --backend cpu --size 32 --steps 3 --window 64x64 ";
  for (const std::string& option : {"--report", "--screenshot", "--record-session"}) {
    const auto result = warpscope(run + option + " /no/such/folder/file");
    EXPECT_EQ(result.exitCode, 2) << option << "\n" << result.output;
    EXPECT_NE(result.output.find(option + " '/no/such/folder/file' cannot be written"),
              std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("steps in"), std::string::npos) << "it ran first:\n"
                                                                 << result.output;
  }
  expectUsageError("bench --module life --json /proc/no.json", "--json '/proc/no.json'");
  expectUsageError(run + "--frames /proc/frames", "--frames '/proc/frames' cannot be made");
  if (std::filesystem::exists("/dev/full")) {
    expectUsageError(run + "--report /dev/full", "cannot write report '/dev/full'");
    expectUsageError(run + "--screenshot /dev/full", "cannot write PNG '/dev/full'");
    EXPECT_EQ(warpscope(run + "--screenshot /dev/full").output.find("wrote"), std::string::npos);
  }
}

TEST(Writing, AnUnknownActionIsRefusedBeforeTheRun) {
  const auto result = warpscope(
      "--headless --backend cpu --size 32 --steps 3 --window 64x64 "
      "--action nosuch");
  EXPECT_EQ(result.exitCode, 2) << result.output;
  EXPECT_NE(result.output.find("--action 'nosuch': life has no such action (it has 'clear', "
                               "'random soup', 'save RLE', 'select none')"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("steps in"), std::string::npos) << result.output;
}

// What cannot be read to an end, or would not fit, is refused before anything is allocated.
TEST(Writing, FilesThatNeverEndAndSizesThatDoNotFitAreRefusedFirst) {
  const std::string run = "--headless --backend cpu --steps 1 --window 64x64 ";
  expectUsageError(run + "--module graph --set graph.graph=/dev/zero",
                   "graph file '/dev/zero' is not a regular file");
  expectUsageError(run + "--module life --set life.pattern=/tmp", "is not a regular file");
  expectUsageError(run + "--egl-device 99", "--egl-device 99: this machine has");
  // Settings are applied together: 4096x4096 is checked as such, not built 4096x64 on the way.
  expectUsageError(run +
                       "--module lbm --set lbm.lattice=d3q19 --set lbm.width=4096 "
                       "--set lbm.height=4096 --set lbm.depth=1024",
                   "a 4096x4096x1024 lattice has more than 2^31 cells");
  expectUsageError(run +
                       "--module lbm --set lbm.lattice=d3q19 --set lbm.width=4096 "
                       "--set lbm.height=4096 --set lbm.depth=64",
                   "of memory");
}

// Whatever the input, a message stays a few lines.
TEST(Writing, MessagesStayShortWhateverTheInput) {
  const auto result = warpscope("--backend cpu --headless --steps 1 --window 64x64 --variant " +
                                std::string(5000, 'v'));
  EXPECT_EQ(result.exitCode, 2) << result.output.substr(0, 300);
  EXPECT_LT(result.output.size(), 700u) << result.output.substr(0, 300);
}

// A flow that diverges is reported once, and the run stops there, saying where.
TEST(Writing, ADivergedFlowIsReportedOnceAndTheRunSaysWhereItStopped) {
  const auto result = warpscope(
      "--headless --backend cpu --module lbm --set lbm.scene=cavity --size 48x48 "
      "--set lbm.collision=bgk --set lbm.velocity=0.3 --set lbm.reynolds=1e6 "
      "--steps-per-frame 50 --steps 20000 --window 64x64");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  std::size_t said = 0;
  for (auto at = result.output.find("The flow diverged"); at != std::string::npos;
       at = result.output.find("The flow diverged", at + 1))
    ++said;
  EXPECT_EQ(said, 1u) << result.output;
  EXPECT_NE(result.output.find("headless: stopped after frame"), std::string::npos)
      << result.output;
}

// Killed while recording, a run keeps what it recorded: the session is whole JSON, says it is
// unfinished, and replays to where it was; Ctrl+C ends the run as its end would.
TEST(Writing, AnInterruptedRecordingKeepsWhatWasRecorded) {
  const std::string dir = ::testing::TempDir() + "/interrupted";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string run = std::string(WARPSCOPE_BIN) +
                          " --headless --backend cpu --size 128 --steps 100000000 --window 64x64 "
                          "--record-session ";
  // The recorder writes each second: after 5 s the file holds a few seconds of frames.
  const auto killed = test::runProcess("cd " + dir + " && (" + run +
                                       "killed.json > /dev/null & p=$!; sleep 5; kill -KILL $p; "
                                       "wait $p; echo status $?)");
  EXPECT_NE(killed.output.find("status 137"), std::string::npos) << killed.output;
  std::ifstream in(dir + "/killed.json");
  const nlohmann::json session = nlohmann::json::parse(in);
  EXPECT_TRUE(session["end"]["unfinished"].get<bool>());
  EXPECT_GT(session["end"]["frames"].get<long>(), 0);
  const auto replay = warpscope("replay " + dir + "/killed.json --size 64x64");
  EXPECT_EQ(replay.exitCode, 0) << replay.output;
  EXPECT_NE(replay.output.find("the recording was interrupted after frame " +
                               std::to_string(session["end"]["frames"].get<long>())),
            std::string::npos)
      << replay.output;

  const auto stopped = test::runProcess("cd " + dir + " && (" + run +
                                        "stopped.json & p=$!; sleep 3; kill -INT $p; wait $p; "
                                        "echo status $?)");
  EXPECT_NE(stopped.output.find("headless: interrupted after frame"), std::string::npos)
      << stopped.output;
  EXPECT_NE(stopped.output.find("status 130"), std::string::npos) << stopped.output;
  const auto again = warpscope("replay " + dir + "/stopped.json --size 64x64");
  EXPECT_NE(again.output.find("the replayed state equals the recorded one"), std::string::npos)
      << again.output;
}

// A set-up that takes minutes (a graph of two million vertices on the CPU) says how far it is,
// once a second on stderr, and Ctrl+C cancels it within moments: exit 130, saying what it was
// doing.
TEST(Interrupt, CtrlCCancelsALongSetUpAndSaysWhere) {
  const auto start = std::chrono::steady_clock::now();
  const auto run = test::runProcess(std::string(WARPSCOPE_BIN) +
                                    " --headless --module graph --backend cpu --set "
                                    "graph.vertices=2000000 --steps 1 --window 64x48 "
                                    "2>&1 & p=$!; sleep 6; kill -INT $p; wait $p; echo status $?");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  EXPECT_NE(run.output.find("headless: interrupted during the set-up: cancelled while "),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("status 130"), std::string::npos) << run.output;
  EXPECT_TRUE(std::regex_search(run.output, std::regex("warpscope: [a-z' ()]+: [0-9]+%\n")))
      << run.output;
}

}  // namespace
}  // namespace ws
