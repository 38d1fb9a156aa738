#include "tests/test_support.h"

#include <chrono>
#include <cstdlib>
#include <random>
#include <sstream>

#include "compute/core/module.h"
#include "compute/life/life_cpu.h"

namespace ws::test {

life::LifeGrid gridFromPicture(int width, int height, int x, int y,
                               const std::vector<std::string>& rows) {
  life::LifeGrid grid(width, height);
  for (int r = 0; r < int(rows.size()); ++r)
    for (int c = 0; c < int(rows[r].size()); ++c)
      if (rows[r][c] == 'O') grid.set(x + c, y + r, true);
  return grid;
}

life::LifeGrid randomGrid(int width, int height, double density, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::bernoulli_distribution alive(density);
  life::LifeGrid grid(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (alive(random)) grid.set(x, y, true);
  return grid;
}

life::LifeGrid referenceRun(life::LifeGrid grid, int generations, const life::LifeRule& rule,
                            life::Boundary boundary) {
  life::LifeGrid next;
  for (int g = 0; g < generations; ++g) {
    life::referenceStep(grid, next, rule, boundary);
    std::swap(grid, next);
  }
  return grid;
}

std::vector<std::string> registeredModules() {
  std::vector<std::string> names;
  for (const ModuleEntry& entry : moduleRegistry()) names.push_back(entry.name);
  return names;
}

std::uint64_t freshSeed() {
  // WS_TEST_SEED repeats the run a failure printed; otherwise a new seed each run.
  const char* given = std::getenv("WS_TEST_SEED");
  const auto seed = given
                        ? std::strtoull(given, nullptr, 10)
                        : static_cast<std::uint64_t>(
                              std::chrono::high_resolution_clock::now().time_since_epoch().count());
  std::cout << "[ seed     ] " << seed << std::endl;
  return seed;
}

std::string describeDifference(const life::LifeGrid& expected, const life::LifeGrid& actual) {
  if (expected.width != actual.width || expected.height != actual.height) return "sizes differ";
  int count = 0;
  std::ostringstream out;
  for (int y = 0; y < expected.height; ++y)
    for (int x = 0; x < expected.width; ++x)
      if (expected.get(x, y) != actual.get(x, y)) {
        if (count < 5) out << " (" << x << "," << y << ")";
        ++count;
      }
  return std::to_string(count) + " cells differ, first at" + out.str();
}

}  // namespace ws::test
