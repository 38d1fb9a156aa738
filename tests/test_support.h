#pragma once
// Helpers shared by the tests: grids from pictures, random soups, GPU availability.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compute/core/backend.h"
#include "compute/life/life_grid.h"
#include "compute/life/life_rule.h"

namespace ws::test {

// A grid from rows of '.' and 'O', placed at (x, y) in a width x height grid.
life::LifeGrid gridFromPicture(int width, int height, int x, int y,
                               const std::vector<std::string>& rows);
life::LifeGrid randomGrid(int width, int height, double density, std::uint64_t seed);
life::LifeGrid referenceRun(life::LifeGrid grid, int generations, const life::LifeRule& rule,
                            life::Boundary boundary);
// A seed that differs on every run (and is printed), so comparisons see fresh inputs.
std::uint64_t freshSeed();

// The modules' names, in the registry's (the menu's) order.
std::vector<std::string> registeredModules();
std::string describeDifference(const life::LifeGrid& expected, const life::LifeGrid& actual);

}  // namespace ws::test

// Skips a CUDA test, saying why, where no usable GPU is present.
#define WS_REQUIRE_GPU()                                                    \
  do {                                                                      \
    if (!::ws::gpuInfo().available)                                         \
      GTEST_SKIP() << "no usable CUDA GPU here (" << ::ws::gpuInfo().reason \
                   << "); this test runs on the GPU machine";               \
  } while (0)
