// Bad input (issue 26): JSON nested too deep, numbers out of range, values of the wrong type,
// checkpoints whose header or state lie, sessions that ask for too much. Each is refused with
// a short message that names the file and the place, and changes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <tuple>

#include "app/lab.h"
#include "app/session/session.h"
#include "app/session/snapshot.h"
#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/memory.h"
#include "compute/core/module.h"
#include "compute/graph/graph_io.h"
#include "compute/io/mesh_io.h"
#include "test_support.h"

namespace ws {
namespace {

// The message of the InputError `work` throws ("" when it throws none).
template <typename Work>
std::string refusal(Work&& work) {
  try {
    work();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(JsonInput, RefusesNestingDeeperThanItsBoundWithThePlace) {
  const std::string deep = "{\"a\":\n" + std::string(75000, '[') + std::string(75000, ']') + "}";
  const std::string message = refusal([&] { json_input::parse(deep, "preset 'p.json'"); });
  EXPECT_NE(
      message.find("preset 'p.json' nests values deeper than 64 levels, at line 2, column 64"),
      std::string::npos)
      << message;
  // Brackets inside strings are text, and 64 levels are fine.
  EXPECT_NO_THROW(json_input::parse("[\"" + std::string(100, '[') + "\"]", "x"));
  EXPECT_NO_THROW(json_input::parse(std::string(64, '[') + std::string(64, ']'), "x"));
}

TEST(JsonInput, NamesThePlaceOfANumberTooLargeAndOfASyntaxError) {
  EXPECT_EQ(refusal([] { json_input::parse("{\n  \"w\": 1e309}", "preset 'p'"); }),
            "preset 'p' is not valid JSON at line 2, column 8: number overflow parsing '1e309'");
  const std::string message = refusal([] { json_input::parse("{\"w\": tru}", "preset 'p'"); });
  EXPECT_EQ(message.rfind("preset 'p' is not valid JSON at line 1, column 10: ", 0), 0u) << message;
}

TEST(JsonInput, MessagesStayShortWhateverTheInput) {
  const std::string huge = "{\"a\": \"" + std::string(5 << 20, 'x');  // never closed
  const std::string message = refusal([&] { json_input::parse(huge, "session 's'"); });
  EXPECT_FALSE(message.empty());
  EXPECT_LT(message.size(), 300u) << message.substr(0, 400);
  EXPECT_EQ(json_input::briefJson(nlohmann::json(std::string(1000, 'y'))).size(), 43u);
}

// A refused file is a message; the simulation goes on as it was, running or paused.
TEST(BadPreset, ARefusalLeavesThePlaybackAsItWas) {
  app::LabOptions options;
  options.module = "life";
  options.backend = Backend::Cpu;
  options.size = "64x64";
  app::Lab lab(options);
  for (const bool running : {true, false}) {
    lab.setRunning(running);
    lab.loadPreset(writeFile("refused.json", R"({"module": "life", "params": {"width": -3}})"));
    EXPECT_NE(lab.errorMessage.find("refused.json"), std::string::npos);
    lab.errorMessage.clear();
    EXPECT_EQ(lab.running(), running);
  }
}

// A mouse edit with an end far off the grid (a damaged session's, or a drag that left the
// window) paints the part of the stroke on the grid, in the time a stroke across it takes.
TEST(BadEdit, AStrokeFromFarAwayIsClippedToTheGrid) {
  app::LabOptions options;
  options.module = "life";
  options.backend = Backend::Cpu;
  options.size = "64x64";
  options.sets = {"life.density=0"};
  app::Lab lab(options);
  PointerEdit edit;
  edit.tool = "draw";
  edit.fromX = 3.5, edit.fromY = 2147483648.0;  // past where any world lies: refused
  edit.x = 3.5, edit.y = 4.5;
  lab.edit(edit);
  EXPECT_NE(lab.errorMessage.find("\"from_y\" of a 'edit' action is out of range"),
            std::string::npos)
      << lab.errorMessage;
  lab.errorMessage.clear();
  const auto population = [&] {
    for (const Metric& m : lab.module().metrics())
      if (m.name == "population") return m.value;
    return -1.0;
  };
  EXPECT_EQ(population(), 0);
  edit.fromY = 9e8;  // straight down the column x = 3, from far above
  const auto start = std::chrono::steady_clock::now();
  lab.edit(edit);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(lab.errorMessage.empty()) << lab.errorMessage;
  EXPECT_EQ(population(), 60);  // rows 4 to 63 of column 3
  // Nothing of a stroke that misses the grid, however long.
  edit.fromX = -1e9, edit.fromY = -5;
  edit.x = 1e9, edit.y = -5;
  lab.edit(edit);
  EXPECT_EQ(population(), 60);
}

// A name longer than the file system takes (a pattern, mesh or graph named in a preset) is no
// file: a refusal with the name quoted briefly, not a raw file-system error.
TEST(BadName, ANameTooLongForTheFileSystemIsRefusedBriefly) {
  const std::string name(300, 'a');
  for (const auto& [module, key, value] :
       {std::tuple{"life", "pattern", name}, std::tuple{"mesh", "mesh", name + ".obj"},
        std::tuple{"graph", "graph", name + ".txt"}}) {
    app::LabOptions options;
    options.module = module;
    options.backend = Backend::Cpu;
    app::Lab lab(options);
    const nlohmann::json before = lab.module().params().toJson();
    lab.setRunning(true);
    lab.setParam(key, std::string(value));
    EXPECT_NE(lab.errorMessage.find("'aaaaaaaaaa"), std::string::npos) << lab.errorMessage;
    EXPECT_EQ(lab.errorMessage.find("filesystem"), std::string::npos) << lab.errorMessage;
    EXPECT_LT(lab.errorMessage.size(), 400u) << lab.errorMessage;
    EXPECT_EQ(lab.module().params().toJson(), before) << module;
    EXPECT_TRUE(lab.running()) << module;
  }
}

// What a header declares costs memory or time before any data is read: refused or bounded.
TEST(BadHeader, AGraphOrMeshHeaderCannotAskForBillions) {
  std::istringstream rows(
      "%%MatrixMarket matrix coordinate pattern symmetric\n2147483647 2147483647 1\n2 1\n");
  limitHostMemory(256.0 * 1024 * 1024);
  const std::string message = refusal([&] { graph::readMatrixMarket(rows, "rows.mtx"); });
  limitHostMemory(0);
  EXPECT_NE(message.find("the graph's 2147483647 vertices needs"), std::string::npos) << message;
  // An element of two billion items with nothing in them is read in no time.
  std::istringstream empty(
      "ply\nformat ascii 1.0\nelement nothing 2147483648\nelement vertex 3\nproperty float x\n"
      "property float y\nproperty float z\nelement face 1\nproperty list uchar int "
      "vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(io::readPly(empty, "empty.ply").triangles.size(), 1u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(BadPreset, AWrongValueIsQuotedAsGivenAndNamedWithItsFile) {
  app::LabOptions options;
  options.module = "life";
  options.backend = Backend::Cpu;
  app::Lab lab(options);
  const nlohmann::json before = lab.module().params().toJson();
  const auto load = [&](const std::string& name, const std::string& text) {
    lab.loadPreset(writeFile(name, text));
    const std::string message = lab.errorMessage;
    lab.errorMessage.clear();
    EXPECT_EQ(lab.module().params().toJson(), before) << name;
    return message;
  };
  EXPECT_NE(load("word.json",
                 "{\"module\": \"life\",\n \"params\": {\"seed\": 3,\n   "
                 "\"width\": \"sixty-four\"}}")
                .find("word.json' at line 3, column 4: parameter 'width': 'sixty-four' is not "
                      "valid"),
            std::string::npos);
  EXPECT_NE(load("density.json", R"({"module": "life", "params": {"density": 1.0000001}})")
                .find("'1.0000001' is not valid"),
            std::string::npos);
  EXPECT_NE(
      load("variant.json", R"({"module": "life", "variant": "nosuch", "params": {"width": 40}})")
          .find("names variant 'nosuch', which life does not have"),
      std::string::npos);
  EXPECT_NE(load("nomodule.json", R"({"params": {}})").find("with \"module\" and \"params\""),
            std::string::npos);
  EXPECT_NE(load("nested.json", R"({"module": "life", "params": {"width": [[[1]]]}})")
                .find("parameter 'width': [[[1]]] is not a number, text or true/false"),
            std::string::npos);
  const std::string key(100000, 'k');
  EXPECT_LT(load("key.json", "{\"module\": \"life\", \"params\": {\"" + key + "\": 1}}").size(),
            400u);
}

// A small world of each module.
std::unique_ptr<Module> smallModule(const std::string& name, Backend backend = Backend::Cpu) {
  auto module = createModule(name, backend);
  if (name == "life") module->setSize("96x64");
  if (name == "lbm") module->setSize("48x24");
  if (name == "mesh") module->setParamText("vertices", "162");
  if (name == "graph") module->setParamText("graph", "karate");
  if (name == "voxhash") module->setParamText("resolution", "16");
  if (name == "reduce") module->setSize("4096");
  module->step(3);
  return module;
}

bool sameState(const StateBlob& a, const StateBlob& b) {
  return a.meta == b.meta && a.data == b.data;
}

// A saved state damaged at random: bytes flipped or cut, a number of its description replaced.
StateBlob damaged(StateBlob state, std::mt19937_64& random) {
  const int kind = int(random() % 4);
  if (kind == 0 && !state.data.empty()) {
    for (int i = 0; i < 4; ++i) state.data[random() % state.data.size()] ^= std::uint8_t(random());
  } else if (kind == 1) {
    state.data.resize(random() % (state.data.size() + 8));
  } else if (kind == 2 && !state.data.empty()) {
    const float bad[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f};
    const std::size_t at = (random() % state.data.size()) & ~std::size_t(3);
    if (at + 4 <= state.data.size()) std::memcpy(&state.data[at], &bad[random() % 5], 4);
  } else {
    const nlohmann::json values[] = {
        -1, 1e300, "text", nlohmann::json::array(), std::uint64_t(1) << 63, 2.5, nullptr};
    auto it = state.meta.begin();
    std::advance(it, random() % std::max<std::size_t>(state.meta.size(), 1));
    if (it != state.meta.end()) *it = values[random() % 7];
  }
  return state;
}

class DamagedState : public ::testing::TestWithParam<std::tuple<std::string, Backend>> {};

// Each module's restoreState takes its own state back, and refuses a damaged one with an
// InputError, changing nothing; or takes it, where the damage left a state it can run (a flipped
// cell of Life is still a Life grid).
TEST_P(DamagedState, IsRefusedOrTakenNeverMisread) {
  const auto [name, backend] = GetParam();
  if (backend == Backend::Cuda) WS_REQUIRE_GPU();
  auto module = smallModule(name, backend);
  const StateBlob good = module->saveState();
  module->restoreState(good);
  EXPECT_TRUE(sameState(module->saveState(), good));
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 random(seed);
  int refused = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const StateBlob bad = damaged(good, random);
    const StateBlob before = module->saveState();
    try {
      module->restoreState(bad);
    } catch (const InputError& e) {
      ++refused;
      EXPECT_LT(std::string(e.what()).size(), 300u);
      EXPECT_TRUE(sameState(module->saveState(), before))
          << "seed " << seed << ", trial " << trial << ": " << e.what();
      continue;
    }
    // What it took, it runs (an LBM flow may say it diverged: physics, not a misread).
    try {
      module->step(1);
    } catch (const InputError&) {
    }
    module->restoreState(good);
  }
  EXPECT_GT(refused, 0) << "seed " << seed;
}

INSTANTIATE_TEST_SUITE_P(EveryModule, DamagedState,
                         ::testing::Combine(::testing::Values("life", "lbm", "voxhash", "mesh",
                                                              "graph", "reduce"),
                                            ::testing::Values(Backend::Cpu, Backend::Cuda)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" +
                                  std::string(toString(std::get<1>(info.param)));
                         });

TEST(BadState, NamedCasesAreRefused) {
  auto graph = smallModule("graph");
  StateBlob state = graph->saveState();
  state.data.pop_back();  // not a multiple of 4: wrote past a vector once
  EXPECT_NE(refusal([&] { graph->restoreState(state); }).find("holds 271 bytes"),
            std::string::npos);
  state = graph->saveState();
  const float nan = NAN;
  std::memcpy(state.data.data(), &nan, 4);  // crashed the layout's grid once
  EXPECT_NE(refusal([&] { graph->restoreState(state); }).find("number 0 of its state is nan"),
            std::string::npos);
  auto life = smallModule("life");
  state = life->saveState();
  state.data[7] |= 0x80;   // row 0, bit 63 of its first word: past the 96-cell edge? no: in it
  state.data[15] |= 0x80;  // bit 127: past the right edge of a 96-cell row
  EXPECT_NE(refusal([&] { life->restoreState(state); }).find("row 0 has cells past its right edge"),
            std::string::npos);
}

std::string checkpointText(const std::string& header, const std::string& rest) {
  return header + "\n" + rest;
}

TEST(BadCheckpoint, AHeaderThatLiesIsRefusedBeforeAnythingIsAllocated) {
  const std::string meta =
      R"({"module":"reduce","backend":"cpu","variant":"","params":{},"state":{}})";
  const auto refusedAs = [&](const std::string& name, const std::string& header) {
    return refusal([&] { app::readCheckpoint(writeFile(name, checkpointText(header, meta))); });
  };
  const std::string n = std::to_string(meta.size());
  EXPECT_NE(refusedAs("a.wsckpt", "warpscope-checkpoint 1 " + n + " 1000000000000000000")
                .find("promises " + n + " bytes of metadata and 1000000000000000000 of state"),
            std::string::npos);
  EXPECT_NE(refusedAs("b.wsckpt", "warpscope-checkpoint 1 9223372036854775807 0")
                .find("truncated or has trailing bytes"),
            std::string::npos);
  EXPECT_NE(refusedAs("c.wsckpt", "warpscope-checkpoint 0 " + n + " 0")
                .find("of version 0; this warpscope reads versions 1 to"),
            std::string::npos);
  EXPECT_NE(refusedAs("d.wsckpt", "warpscope-checkpoint 1 " + n + " 0 and more")
                .find("not a warpscope checkpoint"),
            std::string::npos);
  EXPECT_EQ(refusedAs("e.wsckpt", "warpscope-checkpoint 1 " + n + " 0"), "");
}

TEST(BadSession, AVersionOrLengthOutOfBoundsIsRefused) {
  const auto session = [](const std::string& version, const std::string& frames,
                          const std::string& events) {
    return "{\"warpscope_session\": " + version +
           ", \"start\": {\"module\": \"reduce\", \"backend\": \"cpu\", \"variant\": \"\", "
           "\"params\": {}, \"playback\": {\"running\": false, \"steps_per_frame\": 1}, "
           "\"camera\": {\"center\": [0, 0], \"zoom\": 1, \"height\": 0, \"orbit\": "
           "{\"centre\": [0, 0, 0], \"yaw\": 0, \"pitch\": 0, \"distance\": 5}}, "
           "\"state\": \"reset\"}, \"events\": [" +
           events + "], \"end\": {\"frames\": " + frames + ", \"state_hash\": \"x\"}}";
  };
  const auto refusedAs = [&](const std::string& text) {
    return refusal([&] { app::readSession(writeFile("s.json", text)); });
  };
  for (const char* version : {"0", "-1", "18446744073709551615", "1.5"})
    EXPECT_NE(refusedAs(session(version, "10", "")).find("not a version (a whole number from 1)"),
              std::string::npos)
        << version;
  EXPECT_NE(refusedAs(session("2", "10", "")).find("of version 2, newer than this warpscope reads"),
            std::string::npos);
  EXPECT_NE(refusedAs(session("1", "4294967296", "")).find("a session runs from 0 to 10000000"),
            std::string::npos);
  EXPECT_NE(refusedAs(session("1", "10", R"({"frame": 1, "type": "steps", "count": 1000000000})"))
                .find("must be from 1 to 1000000"),
            std::string::npos);
  EXPECT_NE(
      refusedAs(
          session(
              "1", "10",
              R"({"frame": 1, "type": "edit", "tool": "draw", "x": 1e300, "y": 0, "from_x": 0, "from_y": 0, "item": ""})"))
          .find("\"x\" of a 'edit' action is out of range"),
      std::string::npos);
  EXPECT_EQ(refusedAs(session("1", "10", R"({"frame": 1, "type": "steps", "count": 5})")), "");
}

}  // namespace
}  // namespace ws
