// Bad input (issue 26): JSON nested too deep, numbers out of range, values of the wrong type,
// checkpoints whose header or state lie, sessions that ask for too much. Each is refused with
// a short message that names the file and the place, and changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "app/lab.h"
#include "app/session/session.h"
#include "app/session/snapshot.h"
#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/module.h"
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
