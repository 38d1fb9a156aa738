// Declared parameters: parsing, range checks, presets applied whole or not at all.
#include <gtest/gtest.h>

#include "compute/core/errors.h"
#include "compute/life/life_module.h"

namespace ws {
namespace {

TEST(Params, ParseAndCheckRanges) {
  life::LifeModule life(Backend::Cpu);
  const ParamSet& p = life.params();
  EXPECT_EQ(std::get<std::int64_t>(p.parse("width", "640")), 640);
  EXPECT_THROW(p.parse("width", "3"), InputError);
  EXPECT_THROW(p.parse("width", "12abc"), InputError);
  EXPECT_THROW(p.parse("density", "1.5"), InputError);
  EXPECT_THROW(p.parse("density", "nan"), InputError);
  EXPECT_DOUBLE_EQ(std::get<double>(p.parse("density", "0.5")), 0.5);
  EXPECT_THROW(p.parse("boundary", "klein"), InputError);
  EXPECT_THROW(p.parse("rule", "B9/S1"), InputError);
  EXPECT_THROW(p.parse("nonsense", "1"), InputError);
  try {
    p.parse("seed", "-1");
    ADD_FAILURE() << "a negative seed was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("from 0 to 2147483647"), std::string::npos) << e.what();
  }
  try {
    p.parse("width", "3");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("from 4 to 262144"), std::string::npos) << e.what();
  }
}

TEST(Params, SettingAValueAppliesIt) {
  life::LifeModule life(Backend::Cpu);
  life.setSize("100x60");
  EXPECT_EQ(life.world().maxX, 100);
  EXPECT_EQ(life.world().maxY, 60);
  life.setParamText("rule", "b36/s23");
  EXPECT_EQ(life.params().getText("rule"), "b36/s23");
}

TEST(Params, PresetsRoundTripAndBadOnesChangeNothing) {
  life::LifeModule life(Backend::Cpu);
  life.setSize("128");
  life.setParamText("rule", "B36/S23");
  const nlohmann::json saved = life.preset();

  life::LifeModule other(Backend::Cpu);
  other.loadPreset(saved);
  EXPECT_EQ(other.params().toJson(), life.params().toJson());

  const nlohmann::json before = other.params().toJson();
  nlohmann::json bad = saved;
  bad["params"]["rule"] = "B3/S23";
  bad["params"]["density"] = 7;  // out of range: the whole preset is refused
  EXPECT_THROW(other.loadPreset(bad), InputError);
  EXPECT_EQ(other.params().toJson(), before);
  bad = saved;
  bad["params"]["colour"] = "red";
  EXPECT_THROW(other.loadPreset(bad), InputError);
  EXPECT_THROW(other.loadPreset(nlohmann::json{{"module", "lbm"}, {"params", {}}}), InputError);
  EXPECT_EQ(other.params().toJson(), before);
}

TEST(Variants, SelectingKeepsTheStateAndPicksSensibleDefaults) {
  life::LifeModule life(Backend::Cpu);
  EXPECT_EQ(life.variant(), "bitpacked");
  life.setSize("90x50");
  life.step(4);
  const life::LifeGrid before = life.grid();
  life.select(Backend::Cpu, "reference");
  EXPECT_EQ(life.grid(), before);
  EXPECT_EQ(life.stepCount(), 4u);
  life.select(Backend::Cpu, "");  // no variant named: the current one stays
  EXPECT_EQ(life.variant(), "reference");
  EXPECT_THROW(life.select(Backend::Cpu, "warp9"), InputError);
  EXPECT_EQ(life.variant(), "reference");
  EXPECT_EQ(life.grid(), before);
}

TEST(Params, ASizeThatCannotBeAllocatedChangesNothing) {
  // The reference variant keeps 3 bytes per cell: 262144^2 of them exceed any machine's memory.
  life::LifeModule life(Backend::Cpu);
  life.select(Backend::Cpu, "reference");
  life.setSize("200");
  life.step(3);
  const life::LifeGrid before = life.grid();
  EXPECT_THROW(life.setSize("262144"), OutOfMemoryError);
  EXPECT_EQ(life.params().getInt("width"), 200);
  EXPECT_EQ(life.grid(), before);
  EXPECT_EQ(life.stepCount(), 3u);
}

}  // namespace
}  // namespace ws
