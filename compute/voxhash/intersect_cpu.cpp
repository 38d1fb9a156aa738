#include <algorithm>
#include <deque>
#include <numeric>

#include "compute/core/progress.h"
#include "compute/voxhash/cuckoo_cpu.h"
#include "compute/voxhash/intersect.h"

namespace ws::voxhash {

std::vector<std::uint32_t> voxelize(const std::vector<Point>& points, const VoxelGrid& grid) {
  std::vector<std::uint32_t> keys;
  keys.reserve(points.size());
  for (const Point& p : points) {
    std::uint32_t key;
    if (voxelOf(grid, p.x, p.y, p.z, key)) keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::vector<std::uint8_t> outsideOf(const std::vector<std::uint32_t>& shell,
                                    const VoxelGrid& grid) {
  const int n = grid.side;
  std::vector<std::uint8_t> state(grid.cells(), 0);  // 0 unknown, 1 outside, 2 shell
  for (std::uint32_t key : shell) state[cellOf(grid, key)] = 2;
  std::deque<std::size_t> queue;
  auto reach = [&](int x, int y, int z) {
    if (x < 0 || y < 0 || z < 0 || x >= n || y >= n || z >= n) return;
    std::uint8_t& s = state[grid.index(x, y, z)];
    if (s != 0) return;
    s = 1;
    queue.push_back(grid.index(x, y, z));
  };
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      reach(0, a, b), reach(n - 1, a, b);
      reach(a, 0, b), reach(a, n - 1, b);
      reach(a, b, 0), reach(a, b, n - 1);
    }
  for (std::size_t filled = 0; !queue.empty(); ++filled) {
    if (filled % (1 << 20) == 0) progress::report("filling the outside", filled, grid.cells());
    const std::size_t c = queue.front();
    queue.pop_front();
    const int x = int(c % n), y = int(c / n % n), z = int(c / n / n);
    reach(x - 1, y, z), reach(x + 1, y, z);
    reach(x, y - 1, z), reach(x, y + 1, z);
    reach(x, y, z - 1), reach(x, y, z + 1);
  }
  for (std::uint8_t& s : state) s = s == 1;
  return state;
}

namespace {

// Classifies the voxels of `mine` against the other model: its table (hits are contact voxels)
// and the outside of its shell.
std::vector<std::uint8_t> classify(const std::vector<std::uint32_t>& mine,
                                   const CpuCuckooTable& otherTable,
                                   const std::vector<std::uint8_t>& otherOutside,
                                   const VoxelGrid& grid, VoxelClass only, VoxelClass inside) {
  std::vector<std::uint32_t> found;
  otherTable.query(mine, found);
  std::vector<std::uint8_t> classes(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i)
    classes[i] =
        classOf(found[i] != kNotFound, otherOutside[cellOf(grid, mine[i])] != 0, only, inside);
  return classes;
}

CpuCuckooTable tableOf(const std::vector<std::uint32_t>& keys, const CuckooParams& params,
                       std::uint64_t seed) {
  std::vector<std::uint32_t> ids(keys.size());
  std::iota(ids.begin(), ids.end(), 0u);
  CpuCuckooTable table;
  table.build(keys, ids, params, seed);
  return table;
}

}  // namespace

Intersection intersect(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                       const VoxelGrid& grid, const CuckooParams& params, std::uint64_t seed) {
  const CpuCuckooTable tableA = tableOf(a, params, seed), tableB = tableOf(b, params, seed + 1);
  Intersection result;
  result.classOfA = classify(a, tableB, outsideOf(b, grid), grid, kOnlyA, kAInsideB);
  result.classOfB = classify(b, tableA, outsideOf(a, grid), grid, kOnlyB, kBInsideA);
  result.contact = std::count(result.classOfA.begin(), result.classOfA.end(), kContact);
  result.aInsideB = std::count(result.classOfA.begin(), result.classOfA.end(), kAInsideB);
  result.bInsideA = std::count(result.classOfB.begin(), result.classOfB.end(), kBInsideA);
  return result;
}

}  // namespace ws::voxhash
