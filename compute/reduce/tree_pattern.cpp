#include "compute/reduce/tree_pattern.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace ws::reduce {

namespace {

constexpr int kWarp = 32, kBanks = 32;

// The shared-memory words a thread touches at one step, or none when it sits the step out.
using Accesses = std::vector<int>;
using Step = std::function<Accesses(int tid)>;

// The ways of the worst conflict among a warp's accesses: for each access slot, the most distinct
// words any one bank must serve.
int conflictWays(const std::vector<Accesses>& warp) {
  std::size_t slots = 0;
  for (const auto& a : warp) slots = std::max(slots, a.size());
  int worst = 1;
  for (std::size_t slot = 0; slot < slots; ++slot) {
    std::map<int, std::set<int>> byBank;
    for (const auto& a : warp)
      if (slot < a.size()) byBank[a[slot] % kBanks].insert(a[slot]);
    for (const auto& [bank, words] : byBank) worst = std::max(worst, int(words.size()));
  }
  return worst;
}

void addStep(TreePattern& p, std::string name, const Step& step) {
  p.stepNames.push_back(std::move(name));
  ++p.steps;
  for (int w = 0; w < p.threads; w += kWarp) {
    std::vector<Accesses> warp;
    int active = 0;
    for (int tid = w; tid < w + kWarp && tid < p.threads; ++tid) {
      warp.push_back(step(tid));
      active += !warp.back().empty();
    }
    const int lanes = int(warp.size());
    const int ways = active ? conflictWays(warp) : 0;
    if (active) {
      ++p.busyWarps;
      p.accessCycles +=
          ways * int(std::max_element(warp.begin(), warp.end(), [](const auto& a, const auto& b) {
                       return a.size() < b.size();
                     })->size());
    }
    if (active && active < lanes) ++p.divergentWarps;
    for (int lane = 0; lane < lanes; ++lane) {
      const bool adds = !warp[lane].empty();
      p.activity.push_back(adds ? 1.0f : active ? 0.5f : 0.0f);
      p.conflicts.push_back(adds ? float(ways) : 0.0f);
    }
  }
}

}  // namespace

TreePattern treePattern(Kernel kernel, int block, bool padded) {
  TreePattern p;
  p.threads = block;
  const auto when = [](bool active, Accesses words) { return active ? words : Accesses{}; };
  switch (kernel) {
    case Kernel::Interleaved:
      for (int s = 1; s < block; s *= 2)
        addStep(p, "s = " + std::to_string(s), [&](int t) {
          return when(t % (2 * s) == 0, {t, t + s});
        });
      break;
    case Kernel::Strided:
      for (int s = 1; s < block; s *= 2)
        addStep(p, "s = " + std::to_string(s), [&](int t) {
          return when(2 * s * t < block, {2 * s * t, 2 * s * t + s});
        });
      break;
    case Kernel::Sequential:
      for (int s = block / 2; s > 0; s /= 2)
        addStep(p, "s = " + std::to_string(s), [&](int t) { return when(t < s, {t, t + s}); });
      break;
    case Kernel::HillisSteele:
      for (int offset = 1; offset < block; offset *= 2)
        addStep(p, "offset " + std::to_string(offset), [&](int t) {
          return when(t >= offset, {t - offset, t});
        });
      break;
    case Kernel::Blelloch: {
      const auto at = [&](int i) { return padded ? i + (i >> 5) : i; };
      const int elements = 2 * block;
      int offset = 1;
      for (int d = elements / 2; d > 0; d /= 2, offset *= 2)
        addStep(p, "up d = " + std::to_string(d), [&](int t) {
          return when(t < d, {at(offset * (2 * t + 1) - 1), at(offset * (2 * t + 2) - 1)});
        });
      for (int d = 1; d < elements; d *= 2) {
        offset /= 2;
        addStep(p, "down d = " + std::to_string(d), [&](int t) {
          return when(t < d, {at(offset * (2 * t + 1) - 1), at(offset * (2 * t + 2) - 1)});
        });
      }
      break;
    }
    default:
      break;  // no shared-memory tree
  }
  if (p.steps == 0) p.threads = 0;
  return p;
}

}  // namespace ws::reduce
