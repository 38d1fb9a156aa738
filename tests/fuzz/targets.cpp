// The fuzz targets: each reader of a file a user gives (patterns, meshes, graphs, presets,
// sessions, checkpoints, settings) fed arbitrary bytes, as a file found online or damaged in the
// mail would feed it. Every input must end in a result or a refusal (an InputError, which the
// program shows as a message). Anything else is a finding: a crash, a sanitizer report, another
// exception (a raw library message), a hang or runaway memory (the driver's bounds). Where the
// program promises that a refusal changes nothing, the target checks that too.
//
// One program serves every target: `ws_fuzz --target=NAME [options] CORPUS...`. Built with
// -DWARPSCOPE_LIBFUZZER=ON (clang) it is a libFuzzer binary; otherwise tests/fuzz/fuzz_main.cpp
// replays the corpus and mutates it (tests/fuzz/README.md).
#include <unistd.h>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include "app/lab.h"
#include "app/session/player.h"
#include "app/session/session.h"
#include "app/session/snapshot.h"
#include "app/ui/settings.h"
#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/memory.h"
#include "compute/core/progress.h"
#include "compute/graph/graph_io.h"
#include "compute/io/mesh_io.h"
#include "compute/life/rle.h"
#include "tests/fuzz/fuzz_target.h"

namespace ws::fuzz {
namespace {

// Every model a file may ask for stays within this (a checkpoint of a 4096x4096 lattice is a
// valid file, and the program would build it: here it is refused like one too large for the
// machine), so that every input runs within the driver's memory bound.
constexpr double kModelBytes = 96.0 * 1024 * 1024;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "ws_fuzz: FINDING: %s\n", json_input::brief(what, 2000).c_str());
  std::abort();
}

void expect(bool holds, const std::string& what) {
  if (!holds) finding(what);
}

// A scratch folder for the files the path-taking readers need, removed at exit.
class Scratch {
 public:
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && tmp[0] ? tmp : "/tmp") + "/ws_fuzz.XXXXXX";
    if (!mkdtemp(pattern.data())) finding("cannot make a scratch folder in " + pattern);
    folder_ = pattern;
  }
  ~Scratch() {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  const std::string& folder() const { return folder_; }
  std::string write(const std::string& name, std::string_view bytes) const {
    const std::string path = folder_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.close();
    if (!out) finding("cannot write the scratch file " + path);
    return path;
  }

 private:
  std::string folder_;
};

Scratch& scratch() {
  static Scratch instance;
  return instance;
}

// A small lab on the CPU, as a user starts one; each input gets a fresh one, so that an input's
// outcome does not hang on the ones before it.
std::unique_ptr<app::Lab> freshLab() {
  // A machine of 768 MiB for the lab: a file's sizes meet the memory checks well below the
  // harness's -rss_limit_mb (a preset of another module builds that module at its own size).
  limitHostMemory(768.0 * 1024 * 1024);
  app::LabOptions options;
  options.module = "life";
  options.backend = Backend::Cpu;
  options.size = "64x64";
  return std::make_unique<app::Lab>(options);
}

// What a refusal must leave as it was: the lab's settings and the module's state.
std::string labFingerprint(app::Lab& lab) {
  return lab.snapshotMeta().dump() + " " + app::stateHash(lab.module().saveState());
}

// A few frames of the lab, one step each, as the window would run them after a load.
void runFrames(app::Lab& lab, int frames) {
  lab.setStepsPerFrame(1);
  lab.setRunning(true);
  for (int i = 0; i < frames; ++i) lab.advance();
}

void rle(std::string_view bytes) {
  const life::Pattern pattern = life::parseRle(std::string(bytes), "fuzz.rle");
  for (const auto& [x, y] : pattern.cells)
    expect(x >= 0 && y >= 0 && x < pattern.width && y < pattern.height,
           "an RLE cell lies outside the pattern's box");
}

template <io::TriangleMesh (*read)(std::istream&, const std::string&)>
void meshReader(std::string_view bytes) {
  std::istringstream in{std::string(bytes)};
  const io::TriangleMesh mesh = read(in, "fuzz");
  for (const auto& triangle : mesh.triangles)
    for (std::uint32_t v : triangle)
      expect(v < mesh.vertices.size(), "a triangle names a vertex the mesh does not have");
}

template <graph::Graph (*read)(std::istream&, const std::string&, graph::GraphReport*)>
void graphReader(std::string_view bytes) {
  std::istringstream in{std::string(bytes)};
  const graph::Graph g = read(in, "fuzz", nullptr);
  expect(g.offset.size() == std::size_t(g.vertices) + 1, "the graph's offsets do not fit it");
  for (std::uint32_t end : g.ends) expect(end < g.vertices, "an edge ends past the vertices");
  expect(g.arcs() == 2 * g.edges(), "the graph's arcs are not two an edge");
}

// A user who has waited this long for a file's model to be built, or for its frames, presses the
// progress bar's Cancel. A valid file may rightly ask for a large model (a preset of a graph of a
// million vertices takes minutes on two cores under the sanitizers), and what the program promises
// then is that the cancel, like a refusal, leaves the lab as it was: the targets that build a
// model check that rather than wait for the work.
class Patience {
 public:
  explicit Patience(std::chrono::seconds wait)
      : reporting_(progress_), watch_([this, wait] {
          std::unique_lock lock(mutex_);
          if (!changed_.wait_for(lock, wait, [this] { return over_; })) progress_.cancel();
        }) {}
  ~Patience() {
    {
      const std::lock_guard lock(mutex_);
      over_ = true;
    }
    changed_.notify_one();
    watch_.join();
  }
  Patience(const Patience&) = delete;
  Patience& operator=(const Patience&) = delete;

 private:
  Progress progress_;
  const ReportingTo reporting_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool over_ = false;
  std::thread watch_;  // last: started once the rest is made
};

constexpr std::chrono::seconds kPatience{10};

// A preset loaded into the lab (it may name another module): refused or cancelled, the lab is as
// it was; taken, the lab runs.
void preset(std::string_view bytes) {
  auto lab = freshLab();
  const std::string before = labFingerprint(*lab);
  const Patience patience(kPatience);
  lab->loadPreset(scratch().write("preset.json", bytes));
  if (!lab->errorMessage.empty()) {
    expect(labFingerprint(*lab) == before, "a refused preset changed the lab");
    return;
  }
  runFrames(*lab, 2);
}

// A checkpoint read and restored on the CPU: refused or cancelled, the lab is as it was; taken,
// it runs.
void checkpoint(std::string_view bytes) {
  const app::LabSnapshot snapshot = app::readCheckpoint(scratch().write("state.wsckpt", bytes));
  auto lab = freshLab();
  const std::string before = labFingerprint(*lab);
  const Patience patience(kPatience);
  try {
    lab->restore(snapshot, Backend::Cpu, "checkpoint");
  } catch (const InputError&) {
    expect(labFingerprint(*lab) == before, "a refused checkpoint changed the lab");
    throw;
  }
  runFrames(*lab, 2);
}

// Whether replaying the whole session stays a short run: a session may rightly ask for a million
// steps, which is not what a fuzzer should spend its time on.
bool shortSession(const app::Session& session) {
  if (session.frames() > 40) return false;
  for (const nlohmann::json& event : session.events) {
    const std::string type = event.value("type", "");
    if (type == "steps" && event.value("count", 0ll) > 50) return false;
    if (type == "steps_per_frame" && event.value("value", 0ll) > 8) return false;
  }
  return true;
}

// A session read, begun (its start state; cancelled like a preset when it takes long) and, when
// short, replayed to its end and judged.
void session(std::string_view bytes) {
  const app::Session read = app::readSession(scratch().write("session/session.json", bytes));
  app::SessionPlayer player(read, Backend::Cpu);
  auto lab = freshLab();
  const std::string before = labFingerprint(*lab);
  try {
    const Patience patience(kPatience);
    player.begin(*lab);
  } catch (const InputError&) {
    expect(labFingerprint(*lab) == before, "a session that could not begin changed the lab");
    throw;
  }
  if (!shortSession(player.session())) return;
  lab->setStepsPerFrame(1);
  while (player.advance(*lab)) {
  }
  player.verdict(*lab);
}

// The window's settings file: whatever it holds, what is read is within the window's bounds.
void settings(std::string_view bytes) {
  scratch().write("config/warpscope/settings.json", bytes);
  std::string warning;
  const app::ui::Settings read = app::ui::loadSettings(warning);
  expect(read.width >= 320 && read.width <= 16384 && read.height >= 240 && read.height <= 16384,
         "settings gave a window size out of bounds");
  expect(read.scale >= 0.5f && read.scale <= 3.0f, "settings gave a UI scale out of bounds");
  expect(warning.size() <= 600, "the settings warning is too long");
}

struct Target {
  const char* name;
  void (*run)(std::string_view bytes);
};

constexpr Target kTargets[] = {
    {"rle", rle},
    {"obj", meshReader<io::readObj>},
    {"ply", meshReader<io::readPly>},
    {"off", meshReader<io::readOff>},
    {"edgelist", graphReader<graph::readEdgeList>},
    {"mtx", graphReader<graph::readMatrixMarket>},
    {"preset", preset},
    {"session", session},
    {"checkpoint", checkpoint},
    {"settings", settings},
};

const Target* chosen = nullptr;

}  // namespace
}  // namespace ws::fuzz

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  using namespace ws::fuzz;
  const std::string_view flag = "--target=";
  std::string_view name;
  for (int i = 1; i < *argc; ++i)
    if (std::string_view arg = (*argv)[i]; arg.substr(0, flag.size()) == flag)
      name = arg.substr(flag.size());
  for (const Target& target : kTargets)
    if (name == target.name) chosen = &target;
  if (!chosen) {
    std::fprintf(stderr, "usage: ws_fuzz --target=NAME [options] CORPUS...; NAME is one of");
    for (const Target& target : kTargets) std::fprintf(stderr, " %s", target.name);
    std::fprintf(stderr, "\n");
    std::exit(2);
  }
  ws::limitHostMemory(kModelBytes);
  setenv("XDG_CONFIG_HOME", (scratch().folder() + "/config").c_str(), 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ws::fuzz;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    chosen->run(bytes);
  } catch (const ws::InputError& e) {
    // A refusal: what the program says must be short, whatever the input.
    expect(std::strlen(e.what()) <= ws::json_input::kLongestMessage,
           std::string("a refusal's message is too long: ") + e.what());
  } catch (const std::exception& e) {
    finding(std::string("not an InputError: ") + e.what());
  }
  return 0;
}
