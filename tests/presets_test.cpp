// Presets: every shipped one loads on the CPU, sized so that the CPU runs it (a note says what
// was scaled); a preset may start paused; a bad "cpu" or "paused" is refused and changes nothing;
// the classroom's auto demo shows them one after another, can be held and moved on, and passes
// over a preset too slow for the backend.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/lab.h"
#include "app/ui/ui.h"
#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/life/life_module.h"
#include "test_support.h"

namespace ws::app {
namespace {

LabOptions onCpu() {
  LabOptions options;
  options.backend = Backend::Cpu;
  return options;
}

std::string writePreset(const std::string& name, const nlohmann::json& preset) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << preset.dump(2);
  return path;
}

TEST(Presets, EveryShippedOneLoadsOnTheCpuAtItsCpuSize) {
  const std::vector<std::string> names = shippedNames(kPresets);
  ASSERT_GE(names.size(), 15u);
  std::set<std::string> modules;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const std::string path = *shippedPath(kPresets, name);
    const nlohmann::json content = json_input::parseFile(path, "preset");
    Lab lab(onCpu());
    lab.loadPreset(path);
    ASSERT_EQ(lab.errorMessage, "");
    EXPECT_EQ(lab.module().name(), content["module"].get<std::string>());
    modules.insert(std::string(lab.module().name()));
    // The CPU's values replace the preset's, and the note names each one that changed.
    const nlohmann::json params = lab.module().params().toJson();
    const nlohmann::json cpu = content.value("cpu", nlohmann::json::object());
    for (const auto& [key, value] : cpu.items()) {
      EXPECT_EQ(params[key], value) << key;
      if (content["params"].contains(key) && content["params"][key] != value)
        EXPECT_NE(lab.presetNote().find(key + " " + content["params"][key].dump() + " -> " +
                                        value.dump()),
                  std::string::npos)
            << lab.presetNote();
    }
    if (!content.contains("cpu")) EXPECT_EQ(lab.presetNote(), "");
    EXPECT_EQ(lab.running(), !content.value("paused", false));
    const int perFrame = content.value("steps_per_frame", 1);
    EXPECT_EQ(lab.stepsPerFrame(), perFrame);
    lab.requestSteps(2);
    lab.advance();
    EXPECT_EQ(lab.errorMessage, "");
    EXPECT_EQ(lab.module().stepCount(), 2u + (lab.running() ? perFrame : 0));
  }
  // Every module has presets of its own.
  for (const ModuleEntry& entry : moduleRegistry())
    EXPECT_TRUE(modules.count(entry.name)) << entry.name;
}

// On the GPU every shipped preset runs at its own size, nothing scaled.
TEST(Presets, EveryShippedOneRunsOnTheGpuAtItsOwnSize) {
  WS_REQUIRE_GPU();
  for (const std::string& name : shippedNames(kPresets)) {
    SCOPED_TRACE(name);
    const std::string path = *shippedPath(kPresets, name);
    const nlohmann::json content = json_input::parseFile(path, "preset");
    LabOptions options;
    options.backend = Backend::Cuda;
    options.preset = path;
    options.module = content["module"];
    Lab lab(options);
    EXPECT_EQ(lab.presetNote(), "");
    const nlohmann::json params = lab.module().params().toJson();
    for (const auto& [key, value] : content["params"].items()) EXPECT_EQ(params[key], value) << key;
    lab.requestSteps(3);
    lab.advance();
    lab.module().synchronize();
    EXPECT_EQ(lab.errorMessage, "");
    EXPECT_EQ(lab.module().backend(), Backend::Cuda);
    EXPECT_GE(lab.module().stepCount(), 3u);
  }
}

TEST(Presets, TheCpuSectionIsReadOnlyOnTheCpuAndNamesOnlyWhatChanged) {
  life::LifeModule life(Backend::Cpu);
  const nlohmann::json preset = {
      {"module", "life"},
      {"params", {{"width", 8192}, {"height", 512}, {"rule", "B36/S23"}}},
      {"cpu", {{"width", 1024}, {"height", 512}, {"seed", 7}}}};
  EXPECT_EQ(life.loadPreset(preset), "seed 7, width 8192 -> 1024");
  EXPECT_EQ(life.params().getInt("width"), 1024);
  EXPECT_EQ(life.params().getInt("seed"), 7);
  EXPECT_EQ(life.params().getText("rule"), "B36/S23");
  // Without a "cpu" section nothing is scaled.
  EXPECT_EQ(life.loadPreset({{"module", "life"}, {"params", {{"width", 64}}}}), "");
  EXPECT_EQ(life.params().getInt("width"), 64);
}

TEST(Presets, ABadCpuSectionOrPausedIsRefusedAndChangesNothing) {
  life::LifeModule life(Backend::Cpu);
  const nlohmann::json before = life.params().toJson();
  const auto refuses = [&](const nlohmann::json& preset, const std::string& words) {
    try {
      life.loadPreset(preset);
      ADD_FAILURE() << preset.dump() << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_EQ(life.params().toJson(), before);
  };
  const nlohmann::json params = {{"width", 64}};
  refuses({{"module", "life"}, {"params", params}, {"cpu", 3}}, "\"cpu\" must be an object");
  refuses({{"module", "life"}, {"params", params}, {"cpu", {{"colour", "red"}}}}, "colour");
  refuses({{"module", "life"}, {"params", params}, {"cpu", {{"width", 2}}}}, "width");
  refuses({{"module", "life"}, {"params", params}, {"paused", "yes"}}, "\"paused\"");
  for (const nlohmann::json& speed :
       {nlohmann::json(0), nlohmann::json(1025), nlohmann::json(2.5), nlohmann::json("fast")})
    refuses({{"module", "life"}, {"params", params}, {"steps_per_frame", speed}},
            "\"steps_per_frame\" must be a whole number from 1 to 1024");
  // A bad GPU value is refused on the CPU too, though the CPU's replaces it.
  refuses({{"module", "life"}, {"params", {{"width", 1}}}, {"cpu", {{"width", 64}}}}, "width");
}

TEST(Presets, APausedPresetPausesTheLabAndANoteSaysWhatWasScaled) {
  Lab lab(onCpu());
  ASSERT_TRUE(lab.running());
  lab.loadPreset(writePreset("paused.json", {{"module", "lbm"},
                                             {"paused", true},
                                             {"params", {{"width", 1024}, {"height", 64}}},
                                             {"cpu", {{"width", 128}}}}));
  ASSERT_EQ(lab.errorMessage, "");
  EXPECT_EQ(lab.module().name(), "lbm");
  EXPECT_FALSE(lab.running());
  EXPECT_EQ(lab.presetNote(), "preset scaled for the CPU: width 1024 -> 128");
  // From the command line too.
  LabOptions options = onCpu();
  options.preset = writePreset("paused-life.json",
                               {{"module", "life"}, {"paused", true}, {"params", {{"width", 64}}}});
  Lab fromOptions(options);
  EXPECT_FALSE(fromOptions.running());
  EXPECT_EQ(fromOptions.presetNote(), "");
  // As the command line read it once (the file may have changed or gone since).
  const std::string gone =
      writePreset("gone.json", {{"module", "life"}, {"params", {{"width", 48}}}});
  options.presetContent = readPresetFile(gone);
  std::filesystem::remove(gone);
  options.preset = gone;
  Lab fromContent(options);
  EXPECT_EQ(fromContent.module().params().getInt("width"), 48);
  EXPECT_TRUE(fromContent.running());
  // A module switch forgets the note.
  lab.switchModule("life");
  EXPECT_EQ(lab.presetNote(), "");
}

TEST(AutoDemo, ShowsEachPresetInTurnCanBeHeldAndMovedOn) {
  Lab lab(onCpu());
  ui::Classroom classroom;
  classroom.cycleSeconds = 10;
  classroom.autoCycle = true;
  const std::vector<std::string> names = shippedNames(kPresets);
  ui::advanceAutoCycle(lab, classroom, 100.0);
  EXPECT_EQ(classroom.demoPreset, names[0]);
  EXPECT_TRUE(lab.running());
  ui::advanceAutoCycle(lab, classroom, 104.0);
  EXPECT_EQ(classroom.demoPreset, names[0]);
  EXPECT_DOUBLE_EQ(classroom.demoLeft(), 6.0);
  // Held, time passes without moving on.
  classroom.demoHeld = true;
  ui::advanceAutoCycle(lab, classroom, 200.0);
  EXPECT_EQ(classroom.demoPreset, names[0]);
  EXPECT_DOUBLE_EQ(classroom.demoLeft(), 6.0);
  // "Next preset" moves on at once, held or not.
  classroom.demoNextNow = true;
  ui::advanceAutoCycle(lab, classroom, 200.5);
  EXPECT_EQ(classroom.demoPreset, names[1]);
  classroom.demoHeld = false;
  ui::advanceAutoCycle(lab, classroom, 211.0);
  EXPECT_EQ(classroom.demoPreset, names[2]);
  EXPECT_EQ(lab.errorMessage, "");
}

TEST(AutoDemo, PassesOverPresetsTooSlowForTheBackendUnlessHeld) {
  Lab lab(onCpu());
  ui::Classroom classroom;
  classroom.autoCycle = true;
  const std::vector<std::string> names = shippedNames(kPresets);
  classroom.tooSlow = {names[0], names[1]};
  ui::advanceAutoCycle(lab, classroom, 1.0);
  EXPECT_EQ(classroom.demoPreset, names[2]);
  // A preset measured too slow is left at once, named with its time.
  classroom.tooSlow.clear();
  lab.setRunning(true);
  for (int frame = 0; frame < 6; ++frame) lab.advance();
  ASSERT_GE(lab.module().stepTiming().stats().samples, 3);
  const double stepMs = lab.module().stepTiming().stats().medianMs;
  classroom.tooSlowMs = stepMs / 2;
  // Held, it stays: the user asked to see it.
  classroom.demoHeld = true;
  ui::advanceAutoCycle(lab, classroom, 1.5);
  EXPECT_EQ(classroom.demoPreset, names[2]);
  EXPECT_EQ(classroom.demoSkipped, "");
  classroom.demoHeld = false;
  ui::advanceAutoCycle(lab, classroom, 2.0);
  EXPECT_EQ(classroom.demoPreset, names[3]);
  EXPECT_TRUE(classroom.tooSlow.count(names[2]));
  EXPECT_NE(classroom.demoSkipped.find("skipped " + names[2] + ": "), std::string::npos);
  // When none is left, the demo stops and says why.
  for (const std::string& name : names) classroom.tooSlow.insert(name);
  classroom.demoNextNow = true;
  ui::advanceAutoCycle(lab, classroom, 3.0);
  EXPECT_FALSE(classroom.autoCycle);
  EXPECT_NE(lab.errorMessage.find("auto demo stopped"), std::string::npos);
}

}  // namespace
}  // namespace ws::app
